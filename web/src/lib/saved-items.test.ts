import { describe, expect, it } from 'vitest';
import {
  isSavedFilter,
  isString,
  pushRecent,
  readList,
  removeSaved,
  upsertSaved,
  writeList,
} from './saved-items.js';

describe('recent searches and saved filters', () => {
  it('keeps recents most recent first, unique, capped', () => {
    let list: string[] = [];
    for (const q of ['a', 'b', 'a', ' c ', '', 'd']) list = pushRecent(list, q, 3);
    expect(list).toEqual(['d', 'c', 'a']);
  });
  it('upserts and removes saved filters', () => {
    let saved = upsertSaved([], { name: '', query: 'model:opus' });
    saved = upsertSaved(saved, { name: 'Opus this week', query: 'model:opus this week' });
    saved = upsertSaved(saved, { name: 'renamed', query: 'model:opus' });
    expect(saved).toEqual([
      { name: 'renamed', query: 'model:opus' },
      { name: 'Opus this week', query: 'model:opus this week' },
    ]);
    expect(removeSaved(saved, 'model:opus')).toHaveLength(1);
    expect(upsertSaved(saved, { name: 'x', query: ' ' })).toEqual(saved);
  });
  it('reads corrupt or hostile storage as empty and tolerates refused writes', () => {
    const store = (value: string | null) => ({ getItem: () => value });
    expect(readList(store('not json'), 'k', isString)).toEqual([]);
    expect(readList(store('{"a":1}'), 'k', isString)).toEqual([]);
    expect(readList(store('["a",1,null,"b"]'), 'k', isString)).toEqual(['a', 'b']);
    expect(readList(store('[{"name":"n","query":"q"},{"name":1}]'), 'k', isSavedFilter)).toEqual([
      { name: 'n', query: 'q' },
    ]);
    expect(readList(undefined, 'k', isString)).toEqual([]);
    expect(() =>
      writeList(
        {
          setItem: () => {
            throw new Error('quota');
          },
        },
        'k',
        ['a'],
      ),
    ).not.toThrow();
  });
});
