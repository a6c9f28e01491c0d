/**
 * Views contract, bounds (issue 42): pages past PostgreSQL's `integer` get the same answer on
 * every engine, a calendar query reads a bounded number of days, and a summary whose activity
 * spans the whole range of a JavaScript date (written before validation refused it) makes a
 * bounded number of calendar rows.
 */
import { expect, it } from 'vitest';
import { MAX_OFFSET, MAX_PAGE_LIMIT, MAX_RANGE_DAYS } from '../../core/doc-limits.js';
import { StoreInputError, type Page } from '../contract.js';
import { describeWithStore, type ContractOptions } from './contract-options.js';
import { chunkDoc, entry, putDocs, summaryDoc } from './view-fixtures.js';
import { materializeAll } from './views-sessions.case.js';

const DEEP = 2_147_483_600;

export function describeBoundsViews(options: ContractOptions): void {
  describeWithStore(options, 'bounds of pages and ranges', (store) => {
    async function seed(): Promise<void> {
      await materializeAll(store());
      await putDocs(store(), [
        summaryDoc('b', { span: ['2025-03-01T10:00:00.000Z', '2025-03-01T11:00:00.000Z'] }),
        chunkDoc('b', [entry(0, 'user', 'alpha words'), entry(1, 'assistant', 'alpha reply')]),
      ]);
    }

    /** Every paged query at `page`. */
    const paged = (page: Page) => {
      const v = store().views;
      return {
        transcript: () => v.transcriptPage('b', 'transcript.jsonl', page),
        turns: () => v.turns('b', undefined, page),
        events: () => v.events('b', page),
        sessions: () => v.listSessions({}, page),
        allTurns: () => v.allTurns(page),
        search: () => v.search({ q: 'alpha', ...page }),
      };
    };

    it(`refuses an offset past ${MAX_OFFSET} or a limit past ${MAX_PAGE_LIMIT} alike on every engine`, async () => {
      await seed();
      for (const [name, query] of Object.entries(paged({ offset: DEEP, limit: 10 }))) {
        await expect(query(), name).rejects.toThrow(StoreInputError);
        await expect(query(), name).rejects.toThrow(`offset must be at most ${MAX_OFFSET}`);
      }
      for (const [name, query] of Object.entries(paged({ offset: 0, limit: DEEP })))
        await expect(query(), name).rejects.toThrow(`limit must be at most ${MAX_PAGE_LIMIT}`);
    });

    it('answers an empty page at the deepest offset allowed, with the total', async () => {
      await seed();
      const q = paged({ offset: MAX_OFFSET, limit: MAX_PAGE_LIMIT });
      expect(await q.transcript()).toEqual({ total: 2, entries: [] });
      expect(await q.turns()).toEqual({ total: 2, turns: [] });
      expect(await q.events()).toEqual({ total: 0, events: [] });
      expect(await q.sessions()).toEqual({ total: 1, rows: [] });
      expect((await q.allTurns()).turns).toEqual([]);
      expect(await q.search()).toMatchObject({ total: 2, hits: [] });
    });

    it(`reads at most ${MAX_RANGE_DAYS} calendar days`, async () => {
      await seed();
      await expect(store().views.dailyActivity('0001-01-01', '9999-12-31', {})).rejects.toThrow(
        `at most ${MAX_RANGE_DAYS} days`,
      );
      expect(await store().views.dailyActivity('2020-01-01', '2025-12-31', {})).toHaveLength(1);
    });

    it('splits a stored activity of ±8.64e15 ms into the days of 2000 .. now + 1 day only', async () => {
      await materializeAll(store());
      // Straight into the store, as a store written before validation could hold it.
      const poisoned = { ...summaryDoc('p'), activity: [[-8640000000000000, 8640000000000000]] };
      await putDocs(store(), [poisoned as never]);
      const first = await store().views.dailyActivity('2000-01-01', '2010-02-16', {});
      expect(first).toHaveLength(MAX_RANGE_DAYS);
      expect(first[0]).toMatchObject({ day: '2000-01-01', sessionId: 'p', activeMs: 86_400_000 });
      expect(await store().views.dailyActivity('1990-01-01', '1999-12-31', {})).toEqual([]);
      const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
      const after = await store().views.dailyActivity(
        day(Date.now() + 2 * 86_400_000),
        day(Date.now() + 90 * 86_400_000),
        {},
      );
      expect(after).toEqual([]);
    });
  });
}
