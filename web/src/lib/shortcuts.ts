/** The keyboard shortcuts, as data: the handlers and the `?` help sheet both read this list. */

export interface Shortcut {
  keys: string[];
  description: string;
  where: 'anywhere' | 'omnibox' | 'list' | 'search' | 'session' | 'turns' | 'calendar';
}

export const SHORTCUTS: readonly Shortcut[] = [
  { keys: ['Ctrl/⌘', 'K'], description: 'focus the omnibox', where: 'anywhere' },
  { keys: ['/'], description: 'focus the omnibox', where: 'anywhere' },
  { keys: ['?'], description: 'show these shortcuts', where: 'anywhere' },
  { keys: ['g', 'l'], description: 'go to the session list', where: 'anywhere' },
  { keys: ['g', 'c'], description: 'go to the calendar', where: 'anywhere' },
  { keys: ['g', 's'], description: 'go to search', where: 'anywhere' },
  { keys: ['g', 'p'], description: 'go to your prompts (the Turns page)', where: 'anywhere' },
  { keys: ['Enter'], description: 'filter the session list', where: 'omnibox' },
  { keys: ['Shift', 'Enter'], description: 'search transcripts', where: 'omnibox' },
  { keys: ['↑', '↓'], description: 'choose a suggestion', where: 'omnibox' },
  { keys: ['Esc'], description: 'close the suggestions', where: 'omnibox' },
  { keys: ['j', 'k'], description: 'next / previous session (Enter opens it)', where: 'list' },
  { keys: ['j', 'k'], description: 'next / previous hit (Enter opens it)', where: 'search' },
  { keys: ['1', '2', '3'], description: 'Both / You / Claude', where: 'session' },
  { keys: ['r'], description: 'switch between conversation and raw reader', where: 'session' },
  { keys: ['j', 'k'], description: 'next / previous item', where: 'session' },
  { keys: ['n', 'N'], description: 'next / previous search match', where: 'session' },
  { keys: ['b'], description: 'bookmark the current item (again: remove the bookmark)', where: 'session' },
  { keys: ['1', '2', '3'], description: 'Both / You / Claude', where: 'turns' },
  { keys: ['j', 'k'], description: 'next / previous turn (Enter opens it)', where: 'turns' },
  { keys: ['←', '→'], description: 'previous / next month', where: 'calendar' },
  { keys: ['t'], description: 'this month', where: 'calendar' },
];

/** `g` then a key: where it goes. */
export const GO_KEYS: Record<string, '/' | '/calendar' | '/search' | '/turns'> = {
  l: '/',
  c: '/calendar',
  s: '/search',
  // Not `t`: the calendar's own `t` (this month) would answer it first on a calendar loaded directly.
  p: '/turns',
};

/**
 * Inputs nothing is typed into: a toggle's radio keeps the focus once clicked (the Both / You /
 * Claude toggle is one), and a page's keys must still answer there.
 */
const UNTYPED_INPUTS = ['radio', 'checkbox', 'button', 'submit', 'reset', 'range', 'color', 'file', 'image'];

/** True when a key event comes from a place where typing must not trigger shortcuts. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as HTMLElement).tagName !== 'string') return false;
  const el = target as HTMLElement;
  if (el.tagName === 'INPUT') return !UNTYPED_INPUTS.includes((el as HTMLInputElement).type);
  return el.isContentEditable || ['TEXTAREA', 'SELECT'].includes(el.tagName);
}
