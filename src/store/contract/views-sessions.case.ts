/**
 * Views contract, sessions: the rollup list (order, filters, overlap, paging), the merge of hook
 * events into it, facets and the per-session event list.
 */
import { expect, it } from 'vitest';
import { VIEW_NAMES, type SessionSortKey, type Store } from '../contract.js';
import { describeWithStore, type ContractOptions } from './contract-options.js';
import { deleteDoc, eventDoc, putDocs, summaryDoc } from './view-fixtures.js';

export async function materializeAll(store: Store): Promise<void> {
  for (const name of VIEW_NAMES) await store.views.materialize(name);
}

const ms = (iso: string) => Date.parse(iso);

/** Five sessions: C and D tie on last activity; E has no activity at all. */
export async function seedSessions(store: Store): Promise<void> {
  await putDocs(store, [
    summaryDoc('sess-a', {
      span: ['2025-03-01T10:00:00.000Z', '2025-03-01T12:00:00.000Z'],
      cwd: '/work/alpha',
      hostname: 'h1',
      source: 'backfill',
      models: ['claude-opus-4'],
    }),
    summaryDoc('sess-b', {
      span: ['2025-03-02T09:00:00.000Z', '2025-03-02T09:30:00.000Z'],
      cwd: '/work/beta',
      hostname: 'h2',
      source: 'live',
      models: ['claude-opus-4', 'claude-sonnet-4'],
    }),
    summaryDoc('sess-c', {
      span: ['2025-03-03T08:00:00.000Z', '2025-03-03T08:10:00.000Z'],
      cwd: '/work/alpha',
      hostname: 'h1',
      source: 'live',
      models: ['claude-sonnet-4'],
    }),
    summaryDoc('sess-d', {
      span: ['2025-03-03T07:00:00.000Z', '2025-03-03T08:10:00.000Z'],
      cwd: '/work/delta',
      hostname: 'h1',
      source: 'live',
      models: ['claude-haiku-4'],
    }),
    summaryDoc('sess-e', { cwd: null, hostname: null, source: 'backfill', models: [] }),
  ]);
}

export function describeSessionViews(options: ContractOptions): void {
  describeWithStore(options, 'session list', (store) => {
    const ids = async (filter: Parameters<Store['views']['listSessions']>[0], limit = 50, offset = 0) => {
      const { total, rows } = await store().views.listSessions(filter, { limit, offset });
      return { total, ids: rows.map((r) => r.summary.sessionId) };
    };

    it('lists newest first by last activity, ties by id, sessions without activity last', async () => {
      await materializeAll(store());
      await seedSessions(store());
      expect(await ids({})).toEqual({ total: 5, ids: ['sess-c', 'sess-d', 'sess-b', 'sess-a', 'sess-e'] });
      const row = (await store().views.listSessions({}, { limit: 1, offset: 0 })).rows[0]!;
      expect(row.summary).toMatchObject({
        _id: 'summary:sess-c',
        sessionId: 'sess-c',
        cwd: '/work/alpha',
        type: 'summary',
      });
      expect(row.summary._rev).toMatch(/^1-/);
      expect(row).toMatchObject({
        hookRecorded: false,
        endedAt: null,
        endReason: null,
        firstActivity: '2025-03-03T08:00:00.000Z',
        lastActivity: '2025-03-03T08:10:00.000Z',
        activity: [[ms('2025-03-03T08:00:00.000Z'), ms('2025-03-03T08:10:00.000Z')]],
        eventCount: 0,
      });
      const e = await store().views.getSession('sess-e');
      expect(e).toMatchObject({ firstActivity: null, lastActivity: null, activity: [] });
      expect(await store().views.getSession('nope')).toBeNull();
    });

    it('reads several sessions at once, in id order, leaving unknown ids out', async () => {
      await materializeAll(store());
      await seedSessions(store());
      const one = async (id: string) => (await store().views.getSession(id))!;
      const rows = await store().views.getSessions(['sess-e', 'nope', 'sess-a', 'sess-e']);
      expect(rows).toEqual([await one('sess-a'), await one('sess-e')]);
      expect(await store().views.getSessions([])).toEqual([]);
      expect(await store().views.getSessions(['nope'])).toEqual([]);
    });

    it('pages with a stable total', async () => {
      await materializeAll(store());
      await seedSessions(store());
      expect(await ids({}, 2, 0)).toEqual({ total: 5, ids: ['sess-c', 'sess-d'] });
      expect(await ids({}, 2, 2)).toEqual({ total: 5, ids: ['sess-b', 'sess-a'] });
      expect(await ids({}, 2, 4)).toEqual({ total: 5, ids: ['sess-e'] });
      expect(await ids({}, 2, 10)).toEqual({ total: 5, ids: [] });
      expect(await ids({}, 0, 0)).toEqual({ total: 5, ids: [] });
    });

    it('sorts by each key either way, sessions without the value last, ties by id, filters kept', async () => {
      await materializeAll(store());
      await seedSessions(store());
      // Entries and tokens on three of them; sess-b and sess-e have none (null), sess-c and
      // sess-d tie on entries.
      const counts = (entries: number) => ({ ...summaryDoc('x').counts, entries });
      const tokens = (input: number) => ({ input, output: 10, cacheWrite: 0, cacheRead: 5 });
      const seeded = await store().views.listSessions({}, { limit: 10, offset: 0 });
      const doc = (id: string) => seeded.rows.find((r) => r.summary.sessionId === id)!.summary;
      const without = (id: string) => {
        const { _rev: _r, counts: _c, tokens: _t, ...rest } = doc(id);
        return rest;
      };
      await putDocs(store(), [
        { ...doc('sess-a'), _rev: undefined, counts: counts(30), tokens: tokens(1000) },
        { ...doc('sess-c'), _rev: undefined, counts: counts(7), tokens: tokens(10) },
        { ...doc('sess-d'), _rev: undefined, counts: counts(7), tokens: tokens(500) },
        without('sess-b'),
        without('sess-e'),
      ]);
      const sorted = async (by: SessionSortKey, dir: 'asc' | 'desc', filter = {}, limit = 50, offset = 0) =>
        (await store().views.listSessions(filter, { limit, offset }, { by, dir })).rows.map(
          (r) => r.summary.sessionId,
        );
      expect(await sorted('lastActivity', 'desc')).toEqual([
        'sess-c',
        'sess-d',
        'sess-b',
        'sess-a',
        'sess-e',
      ]);
      expect(await sorted('lastActivity', 'asc')).toEqual(['sess-a', 'sess-b', 'sess-c', 'sess-d', 'sess-e']);
      expect(await sorted('startedAt', 'desc')).toEqual(['sess-c', 'sess-d', 'sess-b', 'sess-a', 'sess-e']);
      expect(await sorted('startedAt', 'asc')).toEqual(['sess-a', 'sess-b', 'sess-d', 'sess-c', 'sess-e']);
      // Runtime: a 2 h, b 30 min, c 10 min, d 70 min; e has none.
      expect(await sorted('runtime', 'desc')).toEqual(['sess-a', 'sess-d', 'sess-b', 'sess-c', 'sess-e']);
      expect(await sorted('runtime', 'asc')).toEqual(['sess-c', 'sess-b', 'sess-d', 'sess-a', 'sess-e']);
      expect(await sorted('tokens', 'desc')).toEqual(['sess-a', 'sess-d', 'sess-c', 'sess-b', 'sess-e']);
      expect(await sorted('tokens', 'asc')).toEqual(['sess-c', 'sess-d', 'sess-a', 'sess-b', 'sess-e']);
      expect(await sorted('entries', 'desc')).toEqual(['sess-a', 'sess-c', 'sess-d', 'sess-b', 'sess-e']);
      expect(await sorted('entries', 'asc')).toEqual(['sess-c', 'sess-d', 'sess-a', 'sess-b', 'sess-e']);
      // Pages of a sorted list neither overlap nor skip; filters apply as ever.
      const paged = [
        ...(await sorted('entries', 'asc', {}, 2, 0)),
        ...(await sorted('entries', 'asc', {}, 2, 2)),
        ...(await sorted('entries', 'asc', {}, 2, 4)),
      ];
      expect(paged).toEqual(await sorted('entries', 'asc'));
      expect(await sorted('tokens', 'asc', { cwd: '/work/alpha' })).toEqual(['sess-c', 'sess-a']);
      // A hook event after its transcript's last entry lengthens a session's runtime.
      await putDocs(store(), [eventDoc('sess-c', '2025-03-03T12:10:00.000Z', 'Stop')]);
      expect(await sorted('runtime', 'desc')).toEqual(['sess-c', 'sess-a', 'sess-d', 'sess-b', 'sess-e']);
      await expect(
        store().views.listSessions({}, { limit: 5, offset: 0 }, { by: 'cost' as SessionSortKey, dir: 'asc' }),
      ).rejects.toThrow(/sort must be one of lastActivity, startedAt, runtime, tokens, entries/);
    });

    it('filters by cwd, hostname, source, id prefix and any of the models', async () => {
      await materializeAll(store());
      await seedSessions(store());
      expect((await ids({ cwd: '/work/alpha' })).ids).toEqual(['sess-c', 'sess-a']);
      expect((await ids({ hostname: 'h2' })).ids).toEqual(['sess-b']);
      expect((await ids({ source: 'live' })).ids).toEqual(['sess-c', 'sess-d', 'sess-b']);
      expect((await ids({ model: 'claude-sonnet-4' })).ids).toEqual(['sess-c', 'sess-b']);
      expect((await ids({ model: 'claude-opus-4' })).ids).toEqual(['sess-b', 'sess-a']);
      expect((await ids({ model: 'claude' })).ids).toEqual([]);
      expect((await ids({ cwd: '/work/alpha', model: 'claude-sonnet-4' })).ids).toEqual(['sess-c']);
      expect((await ids({ idPrefix: 'sess-' })).total).toBe(5);
      expect((await ids({ idPrefix: 'sess-c' })).ids).toEqual(['sess-c']);
      expect((await ids({ idPrefix: 'x' })).ids).toEqual([]);
      expect((await ids({ cwd: '/work' })).ids).toEqual([]);
      expect(await ids({ cwd: '/work/alpha' }, 1, 1)).toEqual({ total: 2, ids: ['sess-a'] });
    });

    it('filters by agent, an older summary counting as Codex or Claude Code by its models', async () => {
      await materializeAll(store());
      const span = (day: string): [string, string] => [`${day}T08:00:00.000Z`, `${day}T09:00:00.000Z`];
      await putDocs(store(), [
        summaryDoc('mix-claude', { span: span('2025-04-01'), models: ['claude-sonnet-4-5'] }),
        summaryDoc('mix-codex-old', { span: span('2025-04-02'), models: ['gpt-5-codex'] }),
        summaryDoc('mix-codex', { span: span('2025-04-03'), agent: 'codex', models: ['gpt-5'] }),
        summaryDoc('mix-gemini', { span: span('2025-04-04'), agent: 'gemini', models: ['gemini-2.5-pro'] }),
        summaryDoc('mix-opencode', {
          span: span('2025-04-05'),
          agent: 'opencode',
          models: ['gemini-2.5-pro'],
        }),
      ]);
      expect((await ids({ agent: 'codex' })).ids).toEqual(['mix-codex', 'mix-codex-old']);
      expect((await ids({ agent: 'claude-code' })).ids).toEqual(['mix-claude']);
      expect((await ids({ agent: 'gemini' })).ids).toEqual(['mix-gemini']);
      expect((await ids({ agent: 'opencode', model: 'gemini-2.5-pro' })).ids).toEqual(['mix-opencode']);
      expect((await ids({ agent: 'gemini-cli' })).ids).toEqual([]);
      expect(await store().views.facets('agent', { agent: 'gemini' })).toEqual([
        { value: 'codex', sessions: 2 },
        { value: 'claude-code', sessions: 1 },
        { value: 'gemini', sessions: 1 },
        { value: 'opencode', sessions: 1 },
      ]);
      expect(await store().views.facets('model', { agent: 'codex' })).toEqual([
        { value: 'gpt-5', sessions: 1 },
        { value: 'gpt-5-codex', sessions: 1 },
      ]);
    });

    it('filters by project: every directory whose last segment is the name, exactly', async () => {
      await materializeAll(store());
      const span = (day: string): [string, string] => [`${day}T08:00:00.000Z`, `${day}T09:00:00.000Z`];
      await putDocs(store(), [
        summaryDoc('p-1', { span: span('2025-03-01'), cwd: '/home/a/app', project: 'app' }),
        summaryDoc('p-2', { span: span('2025-03-02'), cwd: 'C:\\work\\app', project: 'app' }),
        summaryDoc('p-3', { span: span('2025-03-03'), cwd: '/home/a/app-two', project: 'app-two' }),
        summaryDoc('p-4', { span: span('2025-03-04'), cwd: '/home/a/App', project: 'App' }),
        summaryDoc('p-5', { span: span('2025-03-05'), cwd: null, project: null }),
      ]);
      expect(await ids({ project: 'app' })).toEqual({ total: 2, ids: ['p-2', 'p-1'] });
      expect((await ids({ project: 'App' })).ids).toEqual(['p-4']);
      expect((await ids({ project: 'ap' })).ids).toEqual([]);
      expect((await ids({ project: 'app', cwd: '/home/a/app' })).ids).toEqual(['p-1']);
      expect(await ids({ project: 'app' }, 1, 1)).toEqual({ total: 2, ids: ['p-1'] });
      expect((await ids({ project: '' })).total).toBe(5);
    });

    it('finds every word of the text filter in the title, project, directory or id, case aside', async () => {
      await materializeAll(store());
      await seedSessions(store());
      const f = {
        span: ['2025-03-04T08:00:00.000Z', '2025-03-04T09:00:00.000Z'] as [string, string],
        cwd: '/home/Zoë/Ünicode Repo',
        project: 'Ünicode Repo',
      };
      await putDocs(store(), [summaryDoc('sess-f', { ...f, title: 'Fix the 100% CPU loop_in_Parser' })]);
      expect((await ids({ text: 'parser' })).ids).toEqual(['sess-f']);
      expect((await ids({ text: 'PARSER cpu' })).ids).toEqual(['sess-f']);
      expect((await ids({ text: '  zoë   ünicode ' })).ids).toEqual(['sess-f']);
      // Every word must be found; the same word twice counts once.
      expect((await ids({ text: 'parser alpha' })).ids).toEqual([]);
      expect((await ids({ text: 'loop loop' })).ids).toEqual(['sess-f']);
      // % and _ are matched as written, not as patterns.
      expect((await ids({ text: '100%' })).ids).toEqual(['sess-f']);
      expect((await ids({ text: 'loop_in' })).ids).toEqual(['sess-f']);
      expect((await ids({ text: '1%0' })).ids).toEqual([]);
      // The directory, the id, and the title the fixture gives every session ("Session <id>").
      expect((await ids({ text: '/work/alpha' })).ids).toEqual(['sess-c', 'sess-a']);
      expect((await ids({ text: 'sess-d' })).ids).toEqual(['sess-d']);
      expect((await ids({ text: 'session' })).total).toBe(5);
      // With the other filters, and words spanning two fields never match.
      expect((await ids({ text: 'alpha', source: 'live' })).ids).toEqual(['sess-c']);
      expect((await ids({ text: 'parserünicode' })).ids).toEqual([]);
      expect((await ids({ text: '   ' })).total).toBe(6);
      // A title that changes is found by its new words only.
      await putDocs(store(), [summaryDoc('sess-f', { ...f, title: 'Renamed' })]);
      expect((await ids({ text: 'parser' })).ids).toEqual([]);
      expect((await ids({ text: 'renamed' })).ids).toEqual(['sess-f']);
      await expect(ids({ text: Array.from({ length: 33 }, (_, i) => `w${i}`).join(' ') })).rejects.toThrow(
        /text has 33 words; at most 32/,
      );
    });

    it('selects sessions whose activity overlaps [from, to], either bound open', async () => {
      await materializeAll(store());
      await seedSessions(store());
      expect((await ids({ from: '2025-03-01T11:00:00Z', to: '2025-03-01T23:00:00Z' })).ids).toEqual([
        'sess-a',
      ]);
      expect((await ids({ from: '2025-03-02T09:15:00Z' })).ids).toEqual(['sess-c', 'sess-d', 'sess-b']);
      expect((await ids({ to: '2025-03-01T10:00:00Z' })).ids).toEqual(['sess-a']);
      expect((await ids({ from: '2025-03-03T08:10:00Z', to: '2025-03-04T00:00:00Z' })).ids).toEqual([
        'sess-c',
        'sess-d',
      ]);
      expect((await ids({ from: '2025-03-03T07:30:00Z', to: '2025-03-03T07:40:00Z' })).ids).toEqual([
        'sess-d',
      ]);
      // A bare date as the upper bound covers that whole day.
      expect((await ids({ to: '2025-03-02' })).ids).toEqual(['sess-b', 'sess-a']);
      expect((await ids({ from: '2025-04-01T00:00:00Z' })).ids).toEqual([]);
    });

    it('counts sessions per filter value for the pickers', async () => {
      await materializeAll(store());
      await seedSessions(store());
      expect(await store().views.facets('model')).toEqual([
        { value: 'claude-opus-4', sessions: 2 },
        { value: 'claude-sonnet-4', sessions: 2 },
        { value: 'claude-haiku-4', sessions: 1 },
      ]);
      expect(await store().views.facets('cwd')).toEqual([
        { value: '/work/alpha', sessions: 2 },
        { value: '/work/beta', sessions: 1 },
        { value: '/work/delta', sessions: 1 },
      ]);
      expect(await store().views.facets('source')).toEqual([
        { value: 'live', sessions: 3 },
        { value: 'backfill', sessions: 2 },
      ]);
    });

    it('counts facet values over the sessions the other filters select', async () => {
      await materializeAll(store());
      await seedSessions(store());
      const facets = store().views.facets.bind(store().views);
      // Narrowed by another attribute: host h1 has sess-a, sess-c and sess-d.
      expect(await facets('model', { hostname: 'h1' })).toEqual([
        { value: 'claude-haiku-4', sessions: 1 },
        { value: 'claude-opus-4', sessions: 1 },
        { value: 'claude-sonnet-4', sessions: 1 },
      ]);
      // sess-b used two models and counts once for each.
      expect(await facets('model', { hostname: 'h2' })).toEqual([
        { value: 'claude-opus-4', sessions: 1 },
        { value: 'claude-sonnet-4', sessions: 1 },
      ]);
      expect(await facets('model', { source: 'live' })).toEqual([
        { value: 'claude-sonnet-4', sessions: 2 },
        { value: 'claude-haiku-4', sessions: 1 },
        { value: 'claude-opus-4', sessions: 1 },
      ]);
      // A model filter narrows the other facets through the sessions' models.
      expect(await facets('cwd', { model: 'claude-sonnet-4' })).toEqual([
        { value: '/work/alpha', sessions: 1 },
        { value: '/work/beta', sessions: 1 },
      ]);
      expect(await facets('cwd', { project: 'project', text: 'sess-c' })).toEqual([
        { value: '/work/alpha', sessions: 1 },
      ]);
      // The facet's own filter is ignored: the picker keeps offering the other values.
      expect(await facets('model', { model: 'claude-opus-4' })).toEqual(await facets('model'));
      expect(await facets('model', { model: 'claude-opus-4', hostname: 'h1' })).toEqual(
        await facets('model', { hostname: 'h1' }),
      );
      expect(await facets('hostname', { hostname: 'h2', cwd: '/work/alpha' })).toEqual([
        { value: 'h1', sessions: 2 },
      ]);
      // A date range (a bare-date upper bound takes in that whole day).
      expect(await facets('model', { to: '2025-03-02' })).toEqual([
        { value: 'claude-opus-4', sessions: 2 },
        { value: 'claude-sonnet-4', sessions: 1 },
      ]);
      expect(await facets('source', { from: '2025-03-02T00:00:00Z', to: '2025-03-02' })).toEqual([
        { value: 'live', sessions: 1 },
      ]);
      // Nothing selected: no values, not an error.
      expect(await facets('model', { from: '2025-04-01T00:00:00Z' })).toEqual([]);
      expect(await facets('cwd', { hostname: 'nowhere' })).toEqual([]);
    });

    it('totals the tokens of the filtered sessions by model', async () => {
      await materializeAll(store());
      const u = (input: number, output: number, cacheWrite = 0, cacheRead = 0) => ({
        input,
        output,
        cacheWrite,
        cacheRead,
      });
      await putDocs(store(), [
        summaryDoc('t1', {
          hostname: 'h1',
          models: ['claude-opus-4', 'claude-haiku'],
          tokens: u(10, 20, 30, 40),
          tokensByModel: { 'claude-opus-4': u(7, 20, 30, 40), 'claude-haiku': u(3, 0) },
        }),
        // Summarised before the split was kept: one model has them all, several cannot be told apart.
        summaryDoc('t2', { hostname: 'h1', models: ['claude-opus-4', '<synthetic>'], tokens: u(1, 1) }),
        summaryDoc('t3', { hostname: 'h2', models: ['a', 'b'], tokens: u(5, 5, 5, 5) }),
        summaryDoc('t4', { hostname: 'h2', models: [], tokens: u(0, 0) }),
        // A model name PostgreSQL's JSON would refuse, kept as the rest of the store keeps it.
        summaryDoc('t5', {
          hostname: 'h3',
          models: ['odd\u0000'],
          tokens: u(1, 0),
          tokensByModel: { 'odd\u0000': u(1, 0) },
        }),
      ]);
      expect(await store().views.tokenTotals()).toEqual({
        sessions: 5,
        byModel: [
          { model: 'claude-opus-4', sessions: 2, tokens: u(8, 21, 30, 40) },
          { model: null, sessions: 1, tokens: u(5, 5, 5, 5) },
          { model: 'claude-haiku', sessions: 1, tokens: u(3, 0) },
          { model: 'odd\uFFFD', sessions: 1, tokens: u(1, 0) },
        ],
      });
      expect(await store().views.tokenTotals({ hostname: 'h2' })).toEqual({
        sessions: 2,
        byModel: [{ model: null, sessions: 1, tokens: u(5, 5, 5, 5) }],
      });
      expect(await store().views.tokenTotals({ model: 'claude-haiku' })).toEqual({
        sessions: 1,
        byModel: [
          { model: 'claude-opus-4', sessions: 1, tokens: u(7, 20, 30, 40) },
          { model: 'claude-haiku', sessions: 1, tokens: u(3, 0) },
        ],
      });
      expect(await store().views.tokenTotals({ hostname: 'nowhere' })).toEqual({ sessions: 0, byModel: [] });
      // A rewritten summary replaces the session's share; a deleted one takes it away.
      await putDocs(store(), [summaryDoc('t3', { hostname: 'h2', models: ['b'], tokens: u(2, 0) })]);
      await deleteDoc(store(), 'summary:t1');
      expect((await store().views.tokenTotals()).byModel).toEqual([
        { model: 'b', sessions: 1, tokens: u(2, 0) },
        { model: 'claude-opus-4', sessions: 1, tokens: u(1, 1) },
        { model: 'odd\uFFFD', sessions: 1, tokens: u(1, 0) },
      ]);
    });

    it('follows summary rewrites and deletions', async () => {
      await materializeAll(store());
      await seedSessions(store());
      await putDocs(store(), [
        summaryDoc('sess-a', {
          span: ['2025-03-05T00:00:00.000Z', '2025-03-05T01:00:00.000Z'],
          cwd: '/work/zeta',
          models: ['m2'],
        }),
      ]);
      expect((await ids({})).ids[0]).toBe('sess-a');
      expect((await ids({ cwd: '/work/alpha' })).ids).toEqual(['sess-c']);
      expect((await ids({ model: 'm2' })).ids).toEqual(['sess-a']);
      expect((await ids({ model: 'claude-opus-4' })).ids).toEqual(['sess-b']);
      await deleteDoc(store(), 'summary:sess-a');
      expect((await ids({})).total).toBe(4);
      expect(await store().views.getSession('sess-a')).toBeNull();
      expect((await ids({ model: 'm2' })).ids).toEqual([]);
    });
  });

  describeWithStore(options, 'session events', (store) => {
    const sid = 'ev';
    const summary = () => summaryDoc(sid, { span: ['2025-03-01T10:00:00.000Z', '2025-03-01T10:30:00.000Z'] });
    const start = () => eventDoc(sid, '2025-03-01T09:58:00.000Z', 'SessionStart', { reconstructed: true });
    const tool = () =>
      eventDoc(sid, '2025-03-01T10:31:00.000Z', 'PostToolUse', { toolName: 'Bash', success: true });
    const end = () => eventDoc(sid, '2025-03-01T11:00:00.000Z', 'SessionEnd', { reason: 'logout' });

    it('merges events into the rollup: hook-recorded, SessionEnd, activity', async () => {
      await materializeAll(store());
      // Events may arrive before the transcript's summary; the session appears with the summary.
      await putDocs(store(), [start()]);
      expect(await store().views.getSession(sid)).toBeNull();
      await putDocs(store(), [summary()]);
      expect(await store().views.getSession(sid)).toMatchObject({
        hookRecorded: false,
        eventCount: 1,
        firstActivity: '2025-03-01T09:58:00.000Z',
        lastActivity: '2025-03-01T10:30:00.000Z',
      });

      await putDocs(store(), [tool(), end()]);
      expect(await store().views.getSession(sid)).toEqual({
        summary: expect.objectContaining({ sessionId: sid }),
        hookRecorded: true,
        endedAt: '2025-03-01T11:00:00.000Z',
        endReason: 'logout',
        firstActivity: '2025-03-01T09:58:00.000Z',
        lastActivity: '2025-03-01T11:00:00.000Z',
        // 09:58 is more than a minute before the transcript starts; 10:31 joins it.
        activity: [
          [ms('2025-03-01T09:58:00.000Z'), ms('2025-03-01T09:58:00.000Z')],
          [ms('2025-03-01T10:00:00.000Z'), ms('2025-03-01T10:31:00.000Z')],
          [ms('2025-03-01T11:00:00.000Z'), ms('2025-03-01T11:00:00.000Z')],
        ],
        eventCount: 3,
      });
      // Events extend the list order too.
      expect(
        (await store().views.listSessions({ from: '2025-03-01T10:45:00Z' }, { limit: 5, offset: 0 })).total,
      ).toBe(1);
    });

    it('takes the latest SessionEnd and recounts when events are replaced or deleted', async () => {
      await materializeAll(store());
      const secondEnd = eventDoc(sid, '2025-03-01T12:00:00.000Z', 'SessionEnd', { reason: 'clear' });
      await putDocs(store(), [summary(), start(), secondEnd, tool(), end()]);
      expect(await store().views.getSession(sid)).toMatchObject({
        endedAt: '2025-03-01T12:00:00.000Z',
        endReason: 'clear',
      });

      await deleteDoc(store(), secondEnd._id);
      expect(await store().views.getSession(sid)).toMatchObject({ endReason: 'logout', eventCount: 3 });
      // The same event id with other content (a corrected hook payload) replaces the old one.
      await putDocs(store(), [{ ...end(), reason: 'prompt_input_exit' }]);
      expect(await store().views.getSession(sid)).toMatchObject({
        endReason: 'prompt_input_exit',
        eventCount: 3,
      });

      await deleteDoc(store(), tool()._id);
      await deleteDoc(store(), end()._id);
      expect(await store().views.getSession(sid)).toMatchObject({
        hookRecorded: false,
        endedAt: null,
        endReason: null,
        eventCount: 1,
        lastActivity: '2025-03-01T10:30:00.000Z',
      });
    });

    it('opens a session again on a SessionStart after its SessionEnd (a resume), until the next end', async () => {
      await materializeAll(store());
      const resume = eventDoc(sid, '2025-03-02T09:00:00.000Z', 'SessionStart', {
        data: { source: 'resume' },
      });
      const endAgain = eventDoc(sid, '2025-03-02T10:00:00.000Z', 'SessionEnd', { reason: 'other' });
      await putDocs(store(), [summary(), start(), tool(), end(), resume]);
      expect(await store().views.getSession(sid)).toMatchObject({
        endedAt: null,
        endReason: null,
        eventCount: 4,
      });

      await putDocs(store(), [endAgain]);
      expect(await store().views.getSession(sid)).toMatchObject({
        endedAt: '2025-03-02T10:00:00.000Z',
        endReason: 'other',
      });
      // Deleting the events recounts: without the second end the resume is the last word, and
      // without the resume the first end is.
      await deleteDoc(store(), endAgain._id);
      expect(await store().views.getSession(sid)).toMatchObject({ endedAt: null, endReason: null });
      await deleteDoc(store(), resume._id);
      expect(await store().views.getSession(sid)).toMatchObject({
        endedAt: '2025-03-01T11:00:00.000Z',
        endReason: 'logout',
      });
      // A rebuild folds the same events to the same answer.
      await putDocs(store(), [resume]);
      for (const name of [...VIEW_NAMES].reverse()) await store().views.drop(name);
      await materializeAll(store());
      expect(await store().views.getSession(sid)).toMatchObject({ endedAt: null, eventCount: 4 });
    });

    it('lists a session’s events in time order, paged', async () => {
      await putDocs(store(), [end(), start(), tool(), eventDoc('other', '2025-03-01T10:00:00.000Z', 'Stop')]);
      const all = await store().views.events(sid, { limit: 10, offset: 0 });
      expect(all.total).toBe(3);
      expect(all.events).toEqual([
        {
          id: start()._id,
          event: 'SessionStart',
          timestamp: '2025-03-01T09:58:00.000Z',
          reconstructed: true,
        },
        {
          id: tool()._id,
          event: 'PostToolUse',
          timestamp: '2025-03-01T10:31:00.000Z',
          reconstructed: false,
          toolName: 'Bash',
          success: true,
        },
        { id: end()._id, event: 'SessionEnd', timestamp: '2025-03-01T11:00:00.000Z', reconstructed: false },
      ]);
      const page = await store().views.events(sid, { limit: 1, offset: 1 });
      expect(page).toEqual({ total: 3, events: [all.events[1]] });
      expect(await store().views.events('nobody', { limit: 5, offset: 0 })).toEqual({ total: 0, events: [] });
    });
  });
}
