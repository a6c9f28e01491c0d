import { describe, expect, it } from 'vitest';
import type { TokenUsage } from './documents.js';
import { createUsageTally, toTokenUsage } from './usage.js';
import { usageStateSchema } from './usage-schema.js';

const u = (input: number, output: number, cacheWrite = 0, cacheRead = 0): TokenUsage => ({
  input,
  output,
  cacheWrite,
  cacheRead,
});

type Line = [string | undefined, TokenUsage];

function tally(lines: Line[]) {
  const t = createUsageTally();
  for (const [id, usage] of lines) t.add(id, usage);
  return t.totals();
}

describe('usage tally', () => {
  it('counts a message streamed over several lines once, at its per-field maximum', () => {
    const lines: Line[] = [
      ['m1', u(10, 1, 100, 0)],
      ['m1', u(10, 40, 100, 0)],
      ['m1', u(12, 30, 90, 5)], // disagrees: each field keeps its own maximum
    ];
    expect(tally(lines)).toEqual(u(12, 40, 100, 5));
  });

  it('reports whether a line starts a new message', () => {
    const t = createUsageTally();
    expect(t.add('m1', u(1, 1))).toBe(true);
    expect(t.add('m1', u(1, 2))).toBe(false);
    expect(t.add(undefined, u(1, 1))).toBe(true);
    expect(t.add(undefined, u(1, 1))).toBe(true);
  });

  it('merges duplicates that are not adjacent, in any order', () => {
    const lines: Line[] = [
      ['m1', u(5, 1)],
      ['m2', u(7, 2)],
      [undefined, u(1, 1)],
      ['m1', u(5, 9)],
      ['m3', u(1, 1)],
      ['m2', u(8, 1)],
    ];
    const expected = u(5 + 8 + 1 + 1, 9 + 2 + 1 + 1);
    expect(tally(lines)).toEqual(expected);
    expect(tally([...lines].reverse())).toEqual(expected);
  });

  it('counts every line without a message id', () => {
    expect(
      tally([
        [undefined, u(1, 2, 3, 4)],
        [undefined, u(1, 2, 3, 4)],
      ]),
    ).toEqual(u(2, 4, 6, 8));
  });

  it('gives the same totals when resumed from JSON state at any point', () => {
    let seed = 3;
    const rnd = (n: number) => Math.floor(((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * n);
    const lines: Line[] = Array.from({ length: 400 }, () => [
      rnd(5) === 0 ? undefined : `m${rnd(60)}`,
      u(rnd(1000), rnd(1000), rnd(1000), rnd(1000)),
    ]);
    const once = tally(lines);
    for (const split of [1, 57, 200, 399]) {
      const first = createUsageTally();
      for (const [id, usage] of lines.slice(0, split)) first.add(id, usage);
      const state = usageStateSchema.parse(JSON.parse(JSON.stringify(first.state())));
      const second = createUsageTally(state);
      for (const [id, usage] of lines.slice(split)) second.add(id, usage);
      expect(second.totals()).toEqual(once);
    }
  });

  it('keeps its state bounded to the most recently seen ids', () => {
    const t = createUsageTally(undefined, 3);
    for (const id of ['a', 'b', 'c', 'a', 'd']) t.add(id, u(1, 0));
    expect(t.state().recent.map(([id]) => id)).toEqual(['c', 'a', 'd']);
    expect(t.totals().input).toBe(4);
  });

  it('splits the totals by the model that wrote each message, duplicates included', () => {
    const t = createUsageTally();
    t.add('m1', u(10, 1), 'claude-opus');
    t.add('s1', u(5, 5), 'claude-haiku'); // a subagent's message between two lines of m1
    t.add('m1', u(10, 40), 'claude-opus');
    t.add(undefined, u(2, 0)); // no model named
    t.add('z', u(0, 0), '<synthetic>'); // nothing counted: no entry for it
    expect(t.byModel()).toEqual({ 'claude-opus': u(10, 40), 'claude-haiku': u(5, 5), '': u(2, 0) });
    expect(t.totals()).toEqual(u(17, 45));
  });

  it('keeps the split across a saved state, and leaves it unknown after a state saved without one', () => {
    const first = createUsageTally();
    first.add('m1', u(10, 1), 'a');
    const saved = usageStateSchema.parse(JSON.parse(JSON.stringify(first.state())));
    const second = createUsageTally(saved);
    second.add('m1', u(10, 3), 'a');
    second.add('m2', u(1, 1), 'b');
    expect(second.byModel()).toEqual({ a: u(10, 3), b: u(1, 1) });

    // An earlier version's state: its tokens can no longer be split, so no split is claimed.
    const { byModel: _dropped, ...older } = saved;
    const resumed = createUsageTally(older);
    resumed.add('m2', u(1, 1), 'b');
    expect(resumed.byModel()).toBeNull();
    expect(resumed.state().byModel).toBeUndefined();
    expect(resumed.totals()).toEqual(u(11, 2));
    // One that had counted nothing yet loses nothing: the split starts with it.
    const empty = createUsageTally({ totals: u(0, 0), recent: [] });
    empty.add('m3', u(1, 2), 'c');
    expect(empty.byModel()).toEqual({ c: u(1, 2) });
  });

  it('reads API usage objects, treating missing and odd fields as 0', () => {
    expect(
      toTokenUsage({
        input_tokens: 3,
        output_tokens: 4,
        cache_creation_input_tokens: 5,
        cache_read_input_tokens: 6,
      }),
    ).toEqual(u(3, 4, 5, 6));
    expect(toTokenUsage({ input_tokens: '3', output_tokens: NaN, cache_read_input_tokens: 2.7 })).toEqual(
      u(0, 0, 0, 2),
    );
  });
});
