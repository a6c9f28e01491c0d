import { describe, expect, it } from 'vitest';
import { prepareDocs } from '../docs-common/prepare-docs.js';
import { planWrites, type StoredRow } from './postgres-write-plan.js';

const row = (id: string, rev: string, hash: string, extra: Partial<StoredRow> = {}): StoredRow => ({
  session_id: 's',
  id,
  rev,
  hash,
  deleted: false,
  type: 'chunk',
  ...extra,
});

describe('planWrites', () => {
  it('writes each id once, in the order of its last write, with the version it replaced', () => {
    const [first, second] = prepareDocs([
      { _id: 'a', sessionId: 's', type: 'chunk', v: 1 },
      { _id: 'b', sessionId: 's', type: 'chunk', v: 1 },
    ]);
    const stored = new Map([['b', row('b', '1-old', 'old')]]);
    const again = prepareDocs([{ _id: 'b', _rev: '1-old', sessionId: 't', type: 'chunk', v: 2 }])[0]!;
    const plan = planWrites([first!, second!, again], stored);
    expect(plan.results.map((r) => r.status)).toEqual(['written', 'conflict', 'written']);
    expect(plan.rows.map((r) => [r.id, r.sessionId, r.oldSession])).toEqual([
      ['a', 's', null],
      ['b', 't', 's'],
    ]);
    expect(plan.seqOrder).toEqual([
      ['s', 'a'],
      ['t', 'b'],
    ]);
    expect(plan.writes[1]!.prev).toEqual({ sessionId: 's', type: 'chunk' });
    expect(plan.replacedStored).toEqual(['b']);
    expect(plan.liveDelta).toEqual(
      new Map([
        ['s', 0],
        ['t', 1],
      ]),
    );
  });

  it('recreates a tombstone without a revision and replaces a version written earlier in the batch', () => {
    const stored = new Map([['a', row('a', '2-dead', 'dead', { deleted: true })]]);
    const [a1] = prepareDocs([{ _id: 'a', sessionId: 's', type: 'chunk', v: 1 }]);
    const plan1 = planWrites([a1!], stored);
    expect(plan1.results[0]).toMatchObject({ status: 'written', rev: expect.stringMatching(/^3-/) });
    expect(plan1.writes[0]!.prev).toBeNull();

    const rev = plan1.results[0]!.rev!;
    const [a2] = prepareDocs([{ _id: 'a', _rev: rev, sessionId: 's', type: 'chunk', v: 2 }]);
    const plan2 = planWrites([a1!, a2!], stored);
    expect(plan2.results.map((r) => r.status)).toEqual(['written', 'written']);
    expect(plan2.writes[1]!.prev).toMatchObject({ sessionId: 's', fromBatch: { v: 1 } });
    expect(plan2.rows).toHaveLength(1);
    expect(plan2.rows[0]!.rev).toMatch(/^4-/);
  });
});
