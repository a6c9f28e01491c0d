import { describe, expect, it } from 'vitest';
import { applyRuns, columns } from './postgres-view.js';

type Op = { kind: 'remove'; id: string } | { kind: 'upsert'; id: string; v: number };

describe('applyRuns', () => {
  it('applies runs in order, keeps the later write of a key within a run, and empties the list', async () => {
    const ops: Op[] = [
      { kind: 'upsert', id: 'a', v: 1 },
      { kind: 'upsert', id: 'b', v: 1 },
      { kind: 'upsert', id: 'a', v: 2 },
      { kind: 'remove', id: 'a' },
      { kind: 'remove', id: 'b' },
      { kind: 'upsert', id: 'a', v: 3 },
    ];
    const calls: string[] = [];
    await applyRuns(ops, {
      remove: async (run) => calls.push(`remove ${run.map((o) => o.id).join(',')}`),
      upsert: async (run) => calls.push(`upsert ${run.map((o) => `${o.id}=${o.v}`).join(',')}`),
      key: (o) => o.id,
    });
    expect(calls).toEqual(['upsert a=2,b=1', 'remove a,b', 'upsert a=3']);
    expect(ops).toEqual([]);
  });

  it('does nothing for no operations', async () => {
    const calls: string[] = [];
    await applyRuns([] as Op[], {
      remove: async () => calls.push('remove'),
      upsert: async () => calls.push('upsert'),
      key: (o) => o.id,
    });
    expect(calls).toEqual([]);
  });
});

describe('columns', () => {
  it('turns rows into one array per field, in the order asked', () => {
    const rows = [
      { sessionId: 's1', idx: 1, text: 'a' },
      { sessionId: 's2', idx: 2, text: 'b' },
    ];
    expect(columns(rows, 'idx', 'sessionId')).toEqual([
      [1, 2],
      ['s1', 's2'],
    ]);
    expect(columns([] as typeof rows, 'text')).toEqual([[]]);
  });
});
