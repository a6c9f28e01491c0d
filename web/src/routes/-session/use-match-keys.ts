/**
 * `n` / `N`: the next or previous search match in the transcript (arrival from search, `?q=`).
 * Among the marks drawn, the next one below (above) the current goes to the middle of the view
 * and is outlined as current; past the last one drawn, the next item that holds a match
 * (item-text.ts) is opened and brought into range first, then its first (last) mark is taken.
 */
import type { Virtualizer } from '@tanstack/react-virtual';
import { useRef, type RefObject } from 'react';
import type { ReaderItem } from '../../lib/entry-groups.js';
import { usePageKeys } from '../-root/Shortcuts.js';

const CURRENT = 'ct-mark-current';

function marks(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>('[data-testid="conversation-reader"] mark.ct-mark')];
}

export function focusMark(m: HTMLElement): void {
  for (const el of document.querySelectorAll(`.${CURRENT}`)) el.classList.remove(CURRENT);
  m.classList.add(CURRENT);
  const r = m.getBoundingClientRect();
  window.scrollTo({ top: window.scrollY + r.top - window.innerHeight / 2, behavior: 'instant' });
}

/** The row (list index) an element is drawn in. */
function rowOf(el: Element): number | undefined {
  const row = el.closest('[data-index]');
  const n = row ? Number(row.getAttribute('data-index')) : NaN;
  return Number.isInteger(n) ? n : undefined;
}

export function useMatchKeys(
  items: readonly ReaderItem[],
  matches: readonly number[],
  virtualizerRef: RefObject<Virtualizer<Window, Element> | null>,
  open: (key: string) => void,
): void {
  const pending = useRef(0);
  const step = (delta: 1 | -1) => {
    if (matches.length === 0) return;
    const all = marks();
    const current = all.findIndex((m) => m.classList.contains(CURRENT));
    let next: HTMLElement | undefined;
    if (current >= 0) next = all[current + delta];
    else {
      // From the middle of the view: the first mark below it (or the last above it).
      const mid = window.innerHeight / 2;
      next =
        delta > 0
          ? all.find((m) => m.getBoundingClientRect().top > mid)
          : [...all].reverse().find((m) => m.getBoundingClientRect().top < mid);
    }
    if (next) return focusMark(next);
    // Past what is drawn: the next matching item, opened and brought into range.
    const from =
      current >= 0 ? rowOf(all[current]!) : rowOf(all[delta > 0 ? all.length - 1 : 0] ?? document.body);
    const here = from ?? (delta > 0 ? -1 : items.length);
    const target = delta > 0 ? matches.find((i) => i > here) : [...matches].reverse().find((i) => i < here);
    if (target === undefined) return;
    open(items[target]!.key);
    virtualizerRef.current?.scrollToIndex(target, { align: 'center' });
    const ticket = ++pending.current;
    let frames = 0;
    const look = () => {
      if (ticket !== pending.current || ++frames > 120) return;
      const inRow = marks().filter((m) => rowOf(m) === target);
      const m = delta > 0 ? inRow[0] : inRow[inRow.length - 1];
      if (m) focusMark(m);
      else requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  };
  usePageKeys({ n: () => step(1), N: () => step(-1) });
}
