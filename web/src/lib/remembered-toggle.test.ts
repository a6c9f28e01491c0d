import { describe, expect, it } from 'vitest';
import { parseToggle } from './remembered-toggle.js';

describe('parseToggle', () => {
  it('reads open and closed, and nothing else', () => {
    expect(parseToggle('open')).toBe(true);
    expect(parseToggle('closed')).toBe(false);
    expect(parseToggle(null)).toBeUndefined();
    expect(parseToggle('{"x":1}')).toBeUndefined();
  });
});
