import { describe, expect, it } from 'vitest';
import { isTypingTarget } from './shortcuts.js';

const el = (tagName: string, extra: Record<string, unknown> = {}) =>
  ({ tagName, isContentEditable: false, ...extra }) as unknown as EventTarget;

describe('where keys are typing, not shortcuts', () => {
  it('is typing in a text field, a text area, a select and editable content', () => {
    for (const type of ['text', 'search', 'date', 'number', 'email'])
      expect(isTypingTarget(el('INPUT', { type }))).toBe(true);
    expect(isTypingTarget(el('TEXTAREA'))).toBe(true);
    expect(isTypingTarget(el('SELECT'))).toBe(true);
    expect(isTypingTarget(el('DIV', { isContentEditable: true }))).toBe(true);
  });
  it('is not typing on a toggle or a box nothing is typed into, nor on the page', () => {
    // The Both / You / Claude toggle keeps the focus on its radio once clicked: 1 2 3 still answer.
    for (const type of ['radio', 'checkbox', 'button', 'range'])
      expect(isTypingTarget(el('INPUT', { type }))).toBe(false);
    expect(isTypingTarget(el('BUTTON'))).toBe(false);
    expect(isTypingTarget(el('BODY'))).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });
});
