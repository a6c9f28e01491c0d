/**
 * The views contract, run against every engine (STYLE §6): what migrations materialise, what the
 * queries answer, and that dropping and rebuilding a view changes none of its answers.
 */
import { expect, it } from 'vitest';
import { StoreInputError, VIEW_NAMES, ViewMissingError, type Store, type ViewName } from '../contract.js';
import { describeWithStore, type ContractOptions } from './contract-options.js';
import { chunkDoc, entry, eventDoc, putDocs, summaryDoc } from './view-fixtures.js';
import { describeSearchViews, seedSearch } from './views-search.case.js';
import { describeSessionViews, materializeAll, seedSessions } from './views-sessions.case.js';
import { describeTranscriptViews } from './views-transcript.case.js';
import { describeBoundsViews } from './views-bounds.case.js';

export function describeViewsContract(options: ContractOptions): void {
  describeSessionViews(options);
  describeTranscriptViews(options);
  describeSearchViews(options);
  describeBoundsViews(options);
  describeViewLifecycle(options);
  describeViewDependencies(options);
}

/** Every answer the views give over the seeded corpus, as one comparable value. */
async function answers(store: Store) {
  const v = store.views;
  const page = { limit: 50, offset: 0 };
  return {
    list: await v.listSessions({}, page),
    filtered: await v.listSessions(
      { cwd: '/work/alpha', model: 'claude-sonnet-4', from: '2025-03-01T00:00:00Z' },
      page,
    ),
    session: await v.getSession('ev'),
    facets: await Promise.all((['cwd', 'model', 'hostname', 'source'] as const).map((a) => v.facets(a))),
    transcript: await v.transcriptPage('q1', 'transcript.jsonl', { limit: 4, offset: 1 }),
    turns: await v.turns('q1', undefined, page),
    allTurns: await v.allTurns({ ...page, cwd: '/work/alpha', role: 'user' }),
    events: await v.events('ev', page),
    search: await v.search({ q: 'pool', ...page }),
    filteredSearch: await v.search({ q: 'config*', cwd: '/work/alpha', ...page }),
    days: await v.dailyActivity('2025-01-01', '2025-12-31', {}),
  };
}

async function seedAll(store: Store): Promise<void> {
  await seedSessions(store);
  await seedSearch(store);
  await putDocs(store, [
    summaryDoc('ev', { span: ['2025-03-01T10:00:00.000Z', '2025-03-01T10:30:00.000Z'] }),
    eventDoc('ev', '2025-03-01T09:58:00.000Z', 'SessionStart', { reconstructed: true }),
    eventDoc('ev', '2025-03-01T11:00:00.000Z', 'SessionEnd', { reason: 'logout' }),
    chunkDoc('ev', [
      entry(0, 'user', 'hello pool'),
      entry(1, 'assistant', 'hello'),
      // Keys out of canonical order: a live write and a rebuild must index (and rank) the same.
      entry(2, 'assistant', undefined, {
        toolUses: [
          {
            id: 't',
            name: 'Edit',
            input: { zeta: 'pool zeta', alpha: 'alpha pool words', mid: [3, { z: 1, a: 2 }] },
          },
        ],
      }),
    ]),
  ]);
}

function describeViewLifecycle(options: ContractOptions): void {
  describeWithStore(options, 'view lifecycle', (store) => {
    it('lists what is materialised; materialising twice changes nothing', async () => {
      expect(await store().views.materialized()).toEqual([]);
      await store().views.materialize('session_rollup');
      await store().views.materialize('full_text');
      expect(await store().views.materialized()).toEqual(['session_rollup', 'full_text']);
      await materializeAll(store());
      await seedAll(store());
      const before = await answers(store());
      await materializeAll(store());
      expect(await store().views.materialized()).toEqual([...VIEW_NAMES]);
      expect(await answers(store())).toEqual(before);
    });

    it('throws ViewMissingError from the queries of a dropped view; events need no view', async () => {
      await materializeAll(store());
      await seedAll(store());
      for (const name of [...VIEW_NAMES].reverse()) await store().views.drop(name);
      expect(await store().views.materialized()).toEqual([]);
      const v = store().views;
      const page = { limit: 5, offset: 0 };
      const expectMissing = async (p: Promise<unknown>, view: ViewName) => {
        const err = await p.catch((e: unknown) => e);
        expect(err).toBeInstanceOf(ViewMissingError);
        expect((err as ViewMissingError).view).toBe(view);
      };
      await expectMissing(v.listSessions({}, page), 'session_rollup');
      await expectMissing(v.getSession('ev'), 'session_rollup');
      await expectMissing(v.getSessions(['ev']), 'session_rollup');
      await expectMissing(v.facets('cwd'), 'session_rollup');
      await expectMissing(v.transcriptPage('q1', 'transcript.jsonl', page), 'transcript_entries');
      await expectMissing(v.turns('q1', undefined, page), 'speaker_split');
      await expectMissing(v.allTurns(page), 'speaker_split');
      await expectMissing(v.search({ q: 'pool', ...page }), 'full_text');
      await expectMissing(v.reindex(), 'full_text');
      await expectMissing(v.dailyActivity('2025-01-01', '2025-12-31', {}), 'daily_activity');
      expect((await v.events('ev', page)).total).toBe(2);
      // Dropping what is not there is fine.
      await store().views.drop('full_text');
    });

    it('answers session filters without their index views, just as with them', async () => {
      await materializeAll(store());
      await seedAll(store());
      const filters = [
        { cwd: '/work/alpha' },
        { model: 'claude-opus-4' },
        { hostname: 'h1' },
        { source: 'live' },
        { agent: 'codex' },
        { from: '2025-03-02T00:00:00Z' },
      ];
      const page = { limit: 50, offset: 0 };
      const before = await Promise.all(filters.map((f) => store().views.listSessions(f, page)));
      for (const name of [
        'sessions_by_cwd',
        'sessions_by_model',
        'sessions_by_hostname',
        'sessions_by_source',
        'sessions_by_time',
        'sessions_by_agent',
      ] as const) {
        await store().views.drop(name);
      }
      expect(await Promise.all(filters.map((f) => store().views.listSessions(f, page)))).toEqual(before);
    });

    it('rebuilds identical answers after down and up, including writes made while down', async () => {
      await materializeAll(store());
      await seedAll(store());
      const before = await answers(store());
      for (const name of [...VIEW_NAMES].reverse()) await store().views.drop(name);
      await materializeAll(store());
      expect(await answers(store())).toEqual(before);

      // Views built from documents written while they did not exist.
      for (const name of [...VIEW_NAMES].reverse()) await store().views.drop(name);
      await putDocs(store(), [
        chunkDoc('q2', [entry(0, 'user', 'pool again'), entry(1, 'user', 'more pool')]),
      ]);
      await materializeAll(store());
      const rebuilt = await answers(store());
      await putDocs(store(), [chunkDoc('q2', [entry(0, 'user', 'connection refused on the pool')])]);
      expect(rebuilt.search.total).toBe(before.search.total + 1);
      expect(await answers(store())).toEqual(before);
    });
  });
}

function describeViewDependencies(options: ContractOptions): void {
  describeWithStore(options, 'view dependencies and malformed documents', (store) => {
    it('needs the rollup before its indexes and the calendar, and keeps it while they exist', async () => {
      for (const name of ['sessions_by_cwd', 'sessions_by_model', 'daily_activity'] as const) {
        const err = await store()
          .views.materialize(name)
          .catch((e: unknown) => e);
        expect(err).toBeInstanceOf(ViewMissingError);
        expect((err as ViewMissingError).view).toBe('session_rollup');
      }
      await store().views.materialize('session_rollup');
      await store().views.materialize('daily_activity');
      await expect(store().views.drop('session_rollup')).rejects.toBeInstanceOf(StoreInputError);
      await store().views.drop('daily_activity');
      await store().views.drop('session_rollup');
      expect(await store().views.materialized()).toEqual([]);
    });

    it('rejects unknown view names', async () => {
      await expect(store().views.materialize('nope' as ViewName)).rejects.toBeInstanceOf(StoreInputError);
      await expect(store().views.drop('nope' as ViewName)).rejects.toBeInstanceOf(StoreInputError);
    });

    it('needs the rollup for filtered search, not for plain search', async () => {
      await store().views.materialize('full_text');
      await putDocs(store(), [chunkDoc('s', [entry(0, 'user', 'hello world')])]);
      expect((await store().views.search({ q: 'hello', limit: 5, offset: 0 })).total).toBe(1);
      expect((await store().views.search({ q: 'hello', idPrefix: 's', limit: 5, offset: 0 })).total).toBe(1);
      await expect(
        store().views.search({ q: 'hello', cwd: '/x', limit: 5, offset: 0 }),
      ).rejects.toBeInstanceOf(ViewMissingError);
    });

    it('tolerates malformed session documents without failing the write', async () => {
      await materializeAll(store());
      const results = await store().docs.bulkUpsert([
        {
          _id: 'summary:m',
          type: 'summary',
          sessionId: 'm',
          models: 'not-a-list',
          activity: 5,
          firstActivity: 'never',
        },
        {
          _id: 'chunk:m:x',
          type: 'chunk',
          sessionId: 'm',
          file: 'transcript.jsonl',
          firstIndex: 0,
          entryCount: 2,
          entries: [null, { index: 'x' }, 7],
        },
        { _id: 'event:m:bad', type: 'event', sessionId: 'm', timestamp: 42 },
      ]);
      expect(results.map((r) => r.status)).toEqual(['written', 'written', 'written']);
      expect(await store().views.getSession('m')).toMatchObject({
        activity: [],
        firstActivity: null,
        eventCount: 1,
        hookRecorded: true,
      });
      expect(await store().views.transcriptPage('m', 'transcript.jsonl', { offset: 0, limit: 5 })).toEqual({
        total: 2,
        entries: [],
      });
    });
  });
}
