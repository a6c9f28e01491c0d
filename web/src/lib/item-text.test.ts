import { describe, expect, it } from 'vitest';
import type { ReaderItem } from './entry-groups.js';
import { matchingItems } from './item-text.js';

const msg = (i: number, text: string) =>
  ({ type: 'message', key: `m${i}`, entry: { index: i, text } }) as unknown as ReaderItem;
const tools = (i: number, input: unknown, result: string) =>
  ({
    type: 'tools',
    key: `t${i}`,
    calls: [
      { id: 'x', name: 'Bash', input, index: i, result: { index: i + 1, content: result, isError: false } },
    ],
    orphans: [],
    entries: [i, i + 1],
  }) as unknown as ReaderItem;

describe('matchingItems', () => {
  it('finds the items holding a term, in tool inputs and results too', () => {
    const items = [
      msg(0, 'hello'),
      tools(1, { command: 'ls wombat' }, 'ok'),
      msg(3, 'bye'),
      tools(4, {}, 'WOMBAT!'),
    ];
    expect(matchingItems(items, /wombat/giu)).toEqual([1, 3]);
    expect(matchingItems(items, null)).toEqual([]);
  });
});
