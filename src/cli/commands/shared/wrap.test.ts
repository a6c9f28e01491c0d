import { describe, expect, it } from 'vitest';
import { labelledLines, wrapItems } from './wrap.js';

describe('wrapItems', () => {
  it('packs items into lines no wider than the width, breaking after the separator', () => {
    const items = ['Bash 100', 'Edit 60', 'Read 40', 'Grep 25', 'TodoWrite 22'];
    const lines = wrapItems(items, 20, ', ');
    expect(lines).toEqual(['Bash 100, Edit 60,', 'Read 40, Grep 25,', 'TodoWrite 22']);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(20);
    expect(lines.join(' ').replace(/, /g, ',').split(/,\s?/)).toHaveLength(items.length);
  });

  it('fills a line exactly, and gives an over-long item a line of its own', () => {
    expect(wrapItems(['aaaa', 'bbbb'], 9)).toEqual(['aaaa bbbb']);
    expect(wrapItems(['aa', 'a-very-long-path', 'b'], 6)).toEqual(['aa', 'a-very-long-path', 'b']);
    expect(wrapItems([], 10)).toEqual(['']);
  });
});

describe('labelledLines', () => {
  it('indents continuation lines under the value; one whole line without a width', () => {
    const items = ['one', 'two', 'three', 'four'];
    expect(labelledLines('tools', 8, items, ', ', 22)).toEqual(['tools   one, two,', '        three, four']);
    expect(labelledLines('tools', 8, items, ', ', undefined)).toEqual(['tools   one, two, three, four']);
  });
});
