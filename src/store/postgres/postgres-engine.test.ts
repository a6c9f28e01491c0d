/**
 * What the PostgreSQL engine promises beyond the shared contract: several processes (here, several
 * pools on one schema) writing the same documents without lost updates, a change feed a follower
 * can trust while they write, views another process (re)builds, migrations applied once, and text
 * PostgreSQL cannot hold. Skipped with the reason when no PostgreSQL answers.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testEngine } from '../../../test/support/engines.js';
import { startSilentServer } from '../../../test/support/silent-server.js';
import { MIGRATIONS } from '../../migrations/index.js';
import { createMigrator, latestVersion } from '../../migrations/runner.js';
import {
  SEARCH_STALE,
  StoreInputError,
  ViewMissingError,
  type SearchResult,
  type Store,
} from '../contract.js';
import { chunkDoc, entry, putDocs, summaryDoc } from '../contract/view-fixtures.js';
import { materializeAll } from '../contract/views-sessions.case.js';
import { openStore } from '../open-store.js';
import { OLDER_FORM } from '../views-common/entry-search-text.js';
import { RANK_WINDOW } from '../views-common/rank-window.js';
import { PostgresDatabase } from './postgres-database.js';
import { postgresSettings } from './postgres-settings.js';
import { UNPAIRED } from './views/phrase-pairs.js';
import { SearchTableStats } from './views/search-table-stats.js';

const BEFORE_RESHAPES = MIGRATIONS.find((m) => m.name === 'session-annotations')!.version;
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const engine = testEngine('postgres');
const describePg = engine.skip ? describe.skip : describe;
const title = `postgres: several processes${engine.skip ? ` (skipped: ${engine.skip})` : ''}`;

let stores: Store[] = [];
let databaseUrl = '';

/** Two stores on one fresh schema and bucket: two API processes sharing one instance. */
async function twoProcesses(): Promise<[Store, Store]> {
  const env = await engine.serverEnv();
  databaseUrl = env.CT_DATABASE_URL!;
  const dataDir = path.join(tmpdir(), 'ct-unused');
  stores = await Promise.all([openStore({ dataDir, env }), openStore({ dataDir, env })]);
  return [stores[0]!, stores[1]!];
}

/**
 * One process's store on a fresh schema with every view built, and what opens the same instance
 * again (as the next process to start would).
 */
async function firstProcess(): Promise<{ a: Store; reopen: () => Promise<Store> }> {
  const env = await engine.serverEnv();
  databaseUrl = env.CT_DATABASE_URL!;
  const dataDir = path.join(tmpdir(), 'ct-unused');
  const a = await openStore({ dataDir, env });
  stores.push(a);
  await materializeAll(a);
  const reopen = async () => {
    const next = await openStore({ dataDir, env });
    stores.push(next);
    return next;
  };
  return { a, reopen };
}

/**
 * Migrates up a store an older version left (schema version 11, the last before views were
 * reshaped by migrations; its tables as each test made them), as `serve` does when it opens it.
 */
async function migrated(s: Store): Promise<Store> {
  await s.docs.setSchemaMarker({ version: BEFORE_RESHAPES, history: [] });
  expect((await createMigrator(s).up()).error).toBeUndefined();
  return s;
}

/** A connection of its own to the store's database, beside the store, and the store's schema. */
async function directClient(url: string): Promise<{ client: pg.Client; schema: string }> {
  const u = new URL(url);
  const schema = u.searchParams.get('schema')!;
  u.searchParams.delete('schema');
  const client = new pg.Client({ connectionString: u.toString() });
  await client.connect();
  return { client, schema };
}

/** One more process on an instance (closed after the test); it reads search statistics afresh. */
async function openProcess(env: Record<string, string>): Promise<Store> {
  const store = await openStore({ dataDir: path.join(tmpdir(), 'ct-unused'), env });
  stores.push(store);
  return store;
}

/** A page of search hits, comparable across searches: its total and `session#index` per hit. */
function hitPage(r: SearchResult): { total: number; totalExact: boolean; hits: string[] } {
  return {
    total: r.total,
    totalExact: r.totalExact,
    hits: r.hits.map((h) => `${h.sessionId}#${h.index}`),
  };
}

afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
  await engine.cleanup();
});
afterAll(() => engine.stop());

describePg(title, () => {
  let a: Store;
  let b: Store;
  beforeEach(async () => {
    [a, b] = await twoProcesses();
  });

  it('reports capabilities of a shared engine', () => {
    expect(a.capabilities).toEqual({ engine: 'postgres', multiProcess: true, exactSearchTotals: false });
  });

  it('never loses an update when both write one document: the stale writer gets a conflict', async () => {
    await a.docs.bulkUpsert([{ _id: 'log', sessionId: 's', items: [] }]);
    // Each writer reads, adds its item and writes back, retrying on conflict, as ingest does.
    const add = async (store: Store, item: string) => {
      for (let attempt = 0; ; attempt++) {
        const doc = (await store.docs.get('log'))!;
        const [r] = await store.docs.bulkUpsert([{ ...doc, items: [...(doc.items as string[]), item] }]);
        if (r!.status === 'written') return attempt;
        expect(r!.status).toBe('conflict');
      }
    };
    const items = Array.from({ length: 24 }, (_, i) => `item-${i}`);
    const retries = await Promise.all(items.map((item, i) => add(i % 2 === 0 ? a : b, item)));
    expect(((await b.docs.get('log'))!.items as string[]).sort()).toEqual([...items].sort());
    expect(retries.some((n) => n > 0)).toBe(true);
  });

  it('gives a change-feed follower every write exactly once while two processes write', async () => {
    const seen = new Map<string, number>();
    let since = 0;
    let writing = true;
    const follow = async () => {
      for (;;) {
        // Only a poll that starts after the last commit may end the loop.
        const last = !writing;
        const { results, lastSeq } = await a.docs.changes(since, 50);
        for (const c of results) seen.set(c.id, (seen.get(c.id) ?? 0) + 1);
        since = lastSeq;
        if (last && results.length === 0) return;
      }
    };
    const write = async (store: Store, prefix: string) => {
      for (let batch = 0; batch < 15; batch++) {
        await store.docs.bulkUpsert(
          Array.from({ length: 10 }, (_, i) => ({
            _id: `${prefix}-${batch}-${i}`,
            sessionId: `${prefix}${i % 3}`,
          })),
        );
      }
    };
    const follower = follow();
    await Promise.all([write(a, 'a'), write(b, 'b')]);
    writing = false;
    await follower;
    expect(seen.size).toBe(300);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
  });

  it('maintains the views another process materialised and refuses the ones it dropped', async () => {
    await materializeAll(a);
    await putDocs(b, [
      summaryDoc('x', { span: ['2025-03-01T10:00:00.000Z', '2025-03-01T11:00:00.000Z'] }),
      chunkDoc('x', [entry(0, 'user', 'written elsewhere')]),
    ]);
    expect((await a.views.listSessions({}, { limit: 5, offset: 0 })).total).toBe(1);
    expect((await a.views.search({ q: 'elsewhere', limit: 5, offset: 0 })).total).toBe(1);
    await a.views.drop('daily_activity');
    await expect(b.views.dailyActivity('2025-03-01', '2025-03-02', {})).rejects.toBeInstanceOf(
      ViewMissingError,
    );
    await putDocs(b, [chunkDoc('x', [entry(0, 'user', 'after the drop'), entry(1, 'user', 'still fine')])]);
    expect((await a.views.search({ q: 'drop', limit: 5, offset: 0 })).total).toBe(1);
  });

  it('applies each migration once when both migrate at the same moment', async () => {
    const results = await Promise.all([createMigrator(a).up(), createMigrator(b).up()]);
    const applied = results.flatMap((r) => r.steps.filter((s) => s.status === 'applied'));
    expect(applied).toHaveLength(MIGRATIONS.length);
    const marker = await a.docs.getSchemaMarker();
    expect(marker?.version).toBe(latestVersion());
    expect(marker?.history.map((h) => h.version)).toEqual(MIGRATIONS.map((m) => m.version));
  });

  it('keeps NUL characters in documents, refuses them in ids, and indexes text holding them', async () => {
    await materializeAll(a);
    const text = 'before\u0000after nul';
    await putDocs(a, [{ _id: 'doc-nul', sessionId: 'n', type: 'note', text }]);
    expect((await b.docs.get('doc-nul'))?.text).toBe(text);
    await expect(a.docs.bulkUpsert([{ _id: 'a\u0000b', sessionId: 'n' }])).rejects.toBeInstanceOf(
      StoreInputError,
    );
    await putDocs(a, [chunkDoc('n', [entry(0, 'user', text)])]);
    expect((await a.views.search({ q: 'nul', limit: 5, offset: 0 })).total).toBe(1);
    expect((await a.views.turns('n', 'user', { limit: 5, offset: 0 })).turns[0]?.text).toBe(
      'before\uFFFDafter nul',
    );
    expect(await a.docs.get('x\u0000')).toBeNull();
    expect((await a.views.listSessions({ cwd: '\u0000' }, { limit: 5, offset: 0 })).total).toBe(0);
  });

  it('rebuilds the search table with its GIN index (built after the rows) in one transaction', async () => {
    await materializeAll(a);
    await putDocs(a, [
      chunkDoc('r', [entry(0, 'user', 'pomodoro timer'), entry(1, 'assistant', 'a tomato')]),
    ]);
    const { client, schema } = await directClient(databaseUrl);
    const tsvIndex = async () =>
      (
        await client.query(
          `SELECT i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
           WHERE c.relname = 'full_text_entries_tsv' AND c.relnamespace = $1::regnamespace`,
          [schema],
        )
      ).rows;
    try {
      expect(await tsvIndex()).toEqual([{ indisvalid: true }]);
      expect(await a.views.reindex()).toEqual({ entries: 2, sessions: 1 });
      expect(await tsvIndex()).toEqual([{ indisvalid: true }]);
      expect((await b.views.search({ q: 'pomodoro', limit: 5, offset: 0 })).total).toBe(1);
    } finally {
      await client.end();
    }
  });
});

describePg('postgres: views made by an older version', () => {
  it("gives an older search table its insertion order, in-row tsvectors, word pairs and the server's pending-list limit when the store is migrated up", async () => {
    const { a, reopen } = await firstProcess();
    const words = (n: number) => Array.from({ length: n }, (_, i) => entry(i, 'user', `word ${i}`));
    await putDocs(a, [
      chunkDoc('old', words(RANK_WINDOW + 1)),
      chunkDoc('old-phrase', [entry(0, 'user', 'read the file')]),
    ]);
    const { client, schema } = await directClient(databaseUrl);
    const indexed = async () =>
      (
        await client.query<{ def: string }>(
          `SELECT indexdef AS def FROM pg_indexes WHERE schemaname = $1 AND indexname = 'full_text_entries_tsv'`,
          [schema],
        )
      ).rows.map((r) => r.def.replace(/^.* USING /, ''));
    const seqColumn = async () =>
      (
        await client.query(
          `SELECT c.is_identity, (SELECT count(*) FROM pg_indexes WHERE schemaname = $1 AND indexname = 'full_text_entries_seq') AS indexes
           FROM information_schema.columns c
           WHERE c.table_schema = $1 AND c.table_name = 'full_text_entries' AND c.column_name = 'seq'`,
          [schema],
        )
      ).rows;
    // 'm' (main): kept in the row, 'x' (extended): PostgreSQL's default, which 0.1.0 left.
    const tsvStorage = async () =>
      (
        await client.query(
          `SELECT attstorage FROM pg_attribute WHERE attrelid = $1::regclass AND attname = 'tsv'`,
          [`${schema}.full_text_entries`],
        )
      ).rows;
    const pendingLimit = async () =>
      (
        await client.query<{ options: string[] }>(
          `SELECT reloptions AS options FROM pg_class WHERE oid = $1::regclass`,
          [`${schema}.full_text_entries_tsv`],
        )
      ).rows[0]!.options;
    try {
      expect(await seqColumn()).toEqual([{ is_identity: 'YES', indexes: '1' }]);
      expect(await tsvStorage()).toEqual([{ attstorage: 'm' }]);
      expect(await pendingLimit()).toBeNull();
      expect(await indexed()).toEqual(['gin (tsv, pairs)']);
      // As 0.1.0 made it (dropping the column drops the index over it):
      await client.query(`ALTER TABLE ${schema}.full_text_entries DROP COLUMN pairs`);
      await client.query(`CREATE INDEX full_text_entries_tsv ON ${schema}.full_text_entries USING gin (tsv)`);
      await client.query(`ALTER TABLE ${schema}.full_text_entries DROP COLUMN seq`);
      await client.query(`ALTER TABLE ${schema}.full_text_entries ALTER COLUMN tsv SET STORAGE EXTENDED`);
      await client.query(`ALTER INDEX ${schema}.full_text_entries_tsv SET (gin_pending_list_limit = 512)`);
      await Promise.all(stores.splice(0).map((s) => s.close()));
      const b = await migrated(await reopen());
      expect(await seqColumn()).toEqual([{ is_identity: 'YES', indexes: '1' }]);
      expect(await tsvStorage()).toEqual([{ attstorage: 'm' }]);
      expect(await pendingLimit()).toBeNull();
      expect(await indexed()).toEqual(['gin (tsv, pairs)']);
      // Rows written before pairs existed are still found by a phrase of pair words.
      await putDocs(b, [chunkDoc('new-phrase', [entry(0, 'user', 'Read the file!')])]);
      const phrase = await b.views.search({ q: '"read the file"', limit: 10, offset: 0 });
      expect(phrase.hits.map((h) => h.sessionId).sort()).toEqual(['new-phrase', 'old-phrase']);
      const found = await b.views.search({ q: 'word', limit: 1, offset: 0 });
      expect(found).toMatchObject({ total: RANK_WINDOW, totalExact: false });
      // New entries come after every upgraded one.
      await putDocs(b, [chunkDoc('new', [entry(0, 'user', 'word word word')])]);
      expect((await b.views.search({ q: 'word', limit: 1, offset: 0 })).hits[0]).toMatchObject({
        sessionId: 'new',
      });
    } finally {
      await client.end();
    }
  });
});

describePg('postgres: a search table made before CJK characters were tokens of their own', () => {
  it('gets the tsvectors of its CJK rows made again when the store is migrated up', async () => {
    const { a, reopen } = await firstProcess();
    await putDocs(a, [
      summaryDoc('cjk'),
      chunkDoc('cjk', [
        entry(0, 'user', '扫描文件时出错 scan failed'),
        entry(1, 'assistant', 'テストサーバーを起動'),
        entry(2, 'user', 'plain words, café'),
      ]),
    ]);
    const { client, schema } = await directClient(databaseUrl);
    const vectors = async () =>
      (
        await client.query<{ idx: number; tsv: string }>(
          `SELECT idx, tsv::text AS tsv FROM ${schema}.full_text_entries ORDER BY idx`,
        )
      ).rows;
    try {
      const current = await vectors();
      // As an older version made it: a CJK run one word, and no form in the table's comment.
      await client.query(
        `UPDATE ${schema}.full_text_entries SET tsv = to_tsvector('simple', regexp_replace(text, '[^[:alnum:]]+', ' ', 'g'))
         WHERE idx < 2`,
      );
      await client.query(`COMMENT ON TABLE ${schema}.full_text_entries IS NULL`);
      expect((await vectors())[0]!.tsv).toContain("'扫描文件时出错'");
      expect((await a.views.search({ q: '扫描', limit: 5, offset: 0 })).total).toBe(0);
      await Promise.all(stores.splice(0).map((s) => s.close()));

      const b = await migrated(await reopen());
      expect(await vectors()).toEqual(current);
      expect((await b.views.search({ q: '扫描', limit: 5, offset: 0 })).total).toBe(1);
      expect((await b.views.search({ q: 'サーバー', limit: 5, offset: 0 })).total).toBe(1);
    } finally {
      await client.end();
    }
  });
});

describePg('postgres: a search table made when tool inputs were indexed as JSON', () => {
  it('says search is behind when the store is migrated up, until a reindex rebuilds it', async () => {
    const { a, reopen } = await firstProcess();
    await putDocs(a, [
      summaryDoc('j'),
      chunkDoc('j', [
        entry(0, 'assistant', undefined, {
          toolUses: [{ id: 't', name: 'Bash', input: { command: 'cd /tmp\nzebraword' } }],
        }),
      ]),
    ]);
    expect(await a.docs.getLocal(SEARCH_STALE)).toBeNull();
    const { client, schema } = await directClient(databaseUrl);
    try {
      // As form 2 left it: the tool input indexed as JSON.
      const json = 'Bash\n{"command":"cd /tmp\\nzebraword"}';
      await client.query(
        `UPDATE ${schema}.full_text_entries SET text = $1, tsv = to_tsvector('simple', $1), pairs = '${UNPAIRED}'`,
        [json],
      );
      await client.query(
        `COMMENT ON TABLE ${schema}.full_text_entries IS 'transcripts full-text form 2: CJK characters are tokens of their own'`,
      );
      await Promise.all(stores.splice(0).map((s) => s.close()));

      const b = await migrated(await reopen());
      const total = async (q: string) => (await b.views.search({ q, limit: 5, offset: 0 })).total;
      expect(await total('zebraword')).toBe(0);
      expect(await b.docs.getLocal(SEARCH_STALE)).toMatchObject({ olderForm: OLDER_FORM });
      await b.views.reindex();
      expect(await b.docs.getLocal(SEARCH_STALE)).toBeNull();
      expect(await total('zebraword')).toBe(1);
      await Promise.all(stores.splice(0).map((s) => s.close()));
      const c = await reopen();
      expect(await c.docs.getLocal(SEARCH_STALE)).toBeNull();
      // Form 3 (terminal escape codes indexed with the words) is marked too, its CJK rows left alone.
      await Promise.all(stores.splice(0).map((s) => s.close()));
      await client.query(
        `COMMENT ON TABLE ${schema}.full_text_entries IS 'transcripts full-text form 3: tool inputs as keys and values'`,
      );
      const d = await migrated(await reopen());
      expect(await d.docs.getLocal(SEARCH_STALE)).toMatchObject({ olderForm: OLDER_FORM });
      expect(await d.views.search({ q: 'zebraword', limit: 5, offset: 0 })).toMatchObject({ total: 1 });
    } finally {
      await client.end();
    }
  });
});

describePg('postgres: a session rollup made before the text filter and the sorts', () => {
  it('gets each session its list text and sort values when the store is migrated up, from the summaries', async () => {
    const { a, reopen } = await firstProcess();
    await putDocs(a, [
      summaryDoc('t1', { title: 'Parser rewrite \u0000 nul', cwd: '/work/alpha', project: 'alpha' }),
      summaryDoc('t2', {
        title: 'Docs',
        cwd: '/work/beta',
        project: 'beta',
        counts: { ...summaryDoc('x').counts, entries: 9 },
      }),
    ]);
    const byEntries = async (s: Store) =>
      (await s.views.listSessions({}, { limit: 10, offset: 0 }, { by: 'entries', dir: 'desc' })).rows.map(
        (r) => r.summary.sessionId,
      );
    const ids = async (s: Store, text: string) =>
      (await s.views.listSessions({ text }, { limit: 10, offset: 0 })).rows.map((r) => r.summary.sessionId);
    const { client, schema } = await directClient(databaseUrl);
    try {
      const listTexts = async () =>
        (
          await client.query(
            `SELECT session_id, list_text, runtime_ms, tokens, entries FROM ${schema}.session_rollup ORDER BY session_id`,
          )
        ).rows;
      const current = await listTexts();
      expect(await ids(a, 'parser')).toEqual(['t1']);
      expect(await byEntries(a)).toEqual(['t2', 't1']);
      await Promise.all(stores.splice(0).map((s) => s.close()));
      // As an older version made it: no list_text column, no sort columns.
      for (const column of ['list_text', 'runtime_ms', 'tokens', 'entries'])
        await client.query(`ALTER TABLE ${schema}.session_rollup DROP COLUMN ${column}`);

      const b = await migrated(await reopen());
      expect(await listTexts()).toEqual(current);
      expect(await ids(b, 'parser')).toEqual(['t1']);
      expect(await ids(b, 'beta docs')).toEqual(['t2']);
      expect(await byEntries(b)).toEqual(['t2', 't1']);
    } finally {
      await client.end();
    }
  });
});

describePg('postgres: a session rollup made before the token totals', () => {
  it('gets each session its token split when the store is migrated up, from the summaries', async () => {
    const { a, reopen } = await firstProcess();
    const tokens = { input: 3, output: 4, cacheWrite: 0, cacheRead: 0 };
    await putDocs(a, [
      summaryDoc('t1', { models: ['m1'], tokens }),
      summaryDoc('t2', { models: ['m1', 'm2'], tokens, tokensByModel: { m2: tokens } }),
    ]);
    const before = await a.views.tokenTotals();
    expect(before.byModel).toEqual([
      { model: 'm1', sessions: 1, tokens },
      { model: 'm2', sessions: 1, tokens },
    ]);
    const { client, schema } = await directClient(databaseUrl);
    try {
      await Promise.all(stores.splice(0).map((s) => s.close()));
      await client.query(`ALTER TABLE ${schema}.session_rollup DROP COLUMN token_split`);
      const b = await migrated(await reopen());
      expect(await b.views.tokenTotals()).toEqual(before);
    } finally {
      await client.end();
    }
  });
});

describePg('postgres: a speaker split made before the turns across sessions', () => {
  it("gets the turns' times, the index that orders them and the counts per session when the store is migrated up, and reads the newest through it", async () => {
    const { a, reopen } = await firstProcess();
    await putDocs(a, [
      chunkDoc('s', [
        entry(0, 'user', 'first'),
        entry(1, 'assistant', 'second'),
        entry(2, 'user', 'third'),
        entry(3, 'user', 'trimmed', { timestamp: '[trimmed]' }),
      ]),
      chunkDoc('t', [entry(0, 'user', 'elsewhere', { timestamp: '2025-03-01T10:01:30.000Z' })]),
    ]);
    const { client, schema } = await directClient(databaseUrl);
    try {
      const indexes = async () =>
        (
          await client.query<{ indexname: string }>(
            `SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = 'speaker_turns'`,
            [schema],
          )
        ).rows.map((r) => r.indexname);
      await Promise.all(stores.splice(0).map((s) => s.close()));
      // As an older version made it: no times, no time index, no counts per session.
      await client.query(`ALTER TABLE ${schema}.speaker_turns DROP COLUMN at_ms`);
      await client.query(`DROP TABLE ${schema}.speaker_turn_counts`);
      expect(await indexes()).not.toContain('speaker_turns_newest');
      const b = await migrated(await reopen());
      expect(await indexes()).toContain('speaker_turns_newest');
      const newest = await b.views.allTurns({ limit: 10, offset: 0, role: 'user' });
      expect(newest.turns.map((t) => `${t.sessionId}#${t.index}`)).toEqual(['s#2', 't#0', 's#0', 's#3']);
      expect(newest.total).toBe(4);
      expect((await b.views.allTurns({ limit: 1, offset: 0 })).total).toBe(5);
      const range = { from: '2025-03-01T10:01:00Z', to: '2025-03-01T10:02:00Z' };
      expect((await b.views.allTurns({ limit: 10, offset: 0, ...range })).turns.map((t) => t.text)).toEqual([
        'third',
        'elsewhere',
        'second',
      ]);
      // The order the store asks for is the index's: the newest are read down it, not sorted.
      await client.query('BEGIN');
      await client.query('SET LOCAL enable_seqscan = off');
      const plan = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT t.* FROM ${schema}.speaker_turns t WHERE t.role = 'user'
        ORDER BY t.at_ms DESC NULLS LAST, t.session_id DESC, t.idx DESC LIMIT 20`,
      );
      await client.query('ROLLBACK');
      const steps = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(steps).toContain('speaker_turns_newest');
      expect(steps).not.toMatch(/\bSort\b/);
    } finally {
      await client.end();
    }
  });
});

describePg("postgres: the deployment guide's Citus steps", () => {
  it('name every table the engine makes, and distribute by session only tables keyed by session first', async () => {
    const { a } = await firstProcess();
    await putDocs(a, [summaryDoc('s'), chunkDoc('s', [entry(0, 'user', 'hello')])]);
    const guide = await readFile(path.join(repoRoot, 'docs/deployment.md'), 'utf8');
    const citus = guide.slice(guide.indexOf('## 7. Citus'));
    const named = (call: string) => {
      const at = citus.indexOf(call);
      expect(at, call).toBeGreaterThan(-1);
      const list = citus.slice(citus.indexOf('ARRAY[', at), citus.indexOf('AS t;', at));
      return [...list.matchAll(/'([a-z_]+)'/g)].map((m) => m[1]!);
    };
    const reference = named('create_reference_table(t)');
    const distributed = ['docs', ...named("create_distributed_table(t, 'session_id'")];
    const { client, schema } = await directClient(databaseUrl);
    try {
      const { rows } = await client.query<{ table: string; first: string | null }>(
        `SELECT c.relname AS table,
          (SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
           WHERE i.indrelid = c.oid AND i.indisprimary) AS first
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relkind = 'r' ORDER BY c.relname`,
        [schema],
      );
      expect([...reference, ...distributed].sort()).toEqual(rows.map((r) => r.table));
      for (const r of rows.filter((r) => distributed.includes(r.table)))
        expect([r.table, r.first]).toEqual([r.table, 'session_id']);
    } finally {
      await client.end();
    }
  });
});

describePg('postgres: phrases and word pairs', () => {
  it('keeps the word pairs of each entry and asks a phrase of common words for them', async () => {
    const env = await engine.serverEnv();
    const store = await openStore({ dataDir: path.join(tmpdir(), 'ct-unused'), env });
    stores.push(store);
    await materializeAll(store);
    await putDocs(store, [
      summaryDoc('ascii'),
      summaryDoc('accented'),
      summaryDoc('other'),
      chunkDoc('ascii', [entry(0, 'user', 'Read the file.')]),
      chunkDoc('accented', [entry(0, 'user', 'Café: read the file')]),
      chunkDoc('other', [entry(0, 'user', 'the file to read')]),
    ]);
    const { client, schema } = await directClient(env.CT_DATABASE_URL!);
    const phrase = async (filter: { cwd?: string } = {}) =>
      (await store.views.search({ q: '"read the file"', limit: 10, offset: 0, ...filter })).hits
        .map((h) => h.sessionId)
        .sort();
    try {
      const { rows } = await client.query<{ session_id: string; pairs: string }>(
        `SELECT session_id, pairs::text AS pairs FROM ${schema}.full_text_entries ORDER BY session_id`,
      );
      expect(rows).toEqual([
        { session_id: 'accented', pairs: `'read the' 'the file'` },
        { session_id: 'ascii', pairs: `'read the' 'the file'` },
        { session_id: 'other', pairs: `'file to' 'the file' 'to read'` },
      ]);
      expect(await phrase()).toEqual(['accented', 'ascii']);
      expect(await phrase({ cwd: '/work/project' })).toEqual(['accented', 'ascii']);
      // Without its pairs, a row is no longer a candidate for the phrase (its words still match);
      // a row an earlier version left unpaired still is.
      await client.query(`UPDATE ${schema}.full_text_entries SET pairs = '' WHERE session_id = 'ascii'`);
      await client.query(
        `UPDATE ${schema}.full_text_entries SET pairs = '${UNPAIRED}' WHERE session_id = 'accented'`,
      );
      expect(await phrase()).toEqual(['accented']);
      expect(await phrase({ cwd: '/work/project' })).toEqual(['accented']);
      const words = await store.views.search({ q: 'read the file', limit: 10, offset: 0 });
      expect(words.hits.map((h) => h.sessionId).sort()).toEqual(['accented', 'ascii', 'other']);
    } finally {
      await client.end();
    }
  });
});

describePg('postgres: unfiltered search with table statistics', () => {
  it('answers the same whether the statistics send it down the index or along the recent matches', async () => {
    const env = await engine.serverEnv();
    const open = () => openProcess(env);
    const a = await open();
    await materializeAll(a);
    // "beta" in 21,000 entries and "delta" in 7,000 of 28,000: once analyzed, the statistics send
    // "beta" down the recent matches and "delta" through the index; before, both are first
    // collected through the index, "delta" there and then (fewer than twice the window), "beta"
    // only until it has too many.
    const write = async (sessionId: string, n: number, text: (i: number) => string) => {
      for (let at = 0; at < n; at += 2000) {
        const entries = [];
        for (let i = at; i < Math.min(n, at + 2000); i++) entries.push(entry(i, 'user', text(i)));
        await putDocs(a, [chunkDoc(sessionId, entries)]);
      }
    };
    await write('b', 21_000, (i) => (i === 20_999 ? 'beta beta' : `beta ${i}`));
    // The oldest says it most but falls outside the window; the newest ranks first.
    await write('d', 7_000, (i) =>
      i === 0 ? 'delta delta delta delta' : i === 6_999 ? 'delta delta' : `delta ${i}`,
    );
    const search = (store: Store, q: string, offset = 0) => store.views.search({ q, limit: 20, offset });
    const before = hitPage(await search(a, 'beta'));
    expect(before).toMatchObject({ total: RANK_WINDOW, totalExact: false });
    expect(before.hits[0]).toBe('b#20999');
    const deepBefore = hitPage(await search(a, 'beta', 9000));
    const delta = hitPage(await search(a, 'delta'));
    expect(delta).toMatchObject({ total: RANK_WINDOW, totalExact: false });
    expect(delta.hits.slice(0, 3)).toEqual(['d#6999', 'd#2000', 'd#2001']);
    // A page past the window widens it to reach the oldest, which then ranks first.
    const deltaDeep = hitPage(await search(a, 'delta', 6_990));
    expect(deltaDeep).toMatchObject({ total: 7_000, totalExact: true });
    const all = await a.views.search({ q: 'delta', limit: 7_000, offset: 0 });
    expect(all.hits[0]).toMatchObject({ sessionId: 'd', index: 0 });

    const { client, schema } = await directClient(env.CT_DATABASE_URL!);
    try {
      await client.query(`ANALYZE ${schema}.full_text_entries`);
      const b = await open(); // reads the statistics afresh
      expect(hitPage(await search(b, 'beta'))).toEqual(before);
      expect(hitPage(await search(b, 'beta', 9000))).toEqual(deepBefore);
      expect(hitPage(await search(b, 'delta'))).toEqual(delta);
      expect(hitPage(await search(b, 'delta', 6_990))).toEqual(deltaDeep);
      // The statistics now promise far more than there are: the walk finds every match and
      // the total is exact again.
      await write('b', 21_000, (i) => (i % 1000 === 0 ? 'beta again' : `gamma ${i}`));
      const c = await open();
      expect(hitPage(await search(c, 'beta'))).toMatchObject({ total: 21, totalExact: true });
      expect((await search(c, 'beta')).hits).toHaveLength(20);
    } finally {
      await client.end();
    }
  }, 60_000);
});

describePg('postgres: search table statistics', () => {
  it('reads them again soon while the search table has none, and keeps a reading that found some', async () => {
    const env = await engine.serverEnv();
    const store = await openStore({ dataDir: path.join(tmpdir(), 'ct-unused'), env });
    stores.push(store);
    await materializeAll(store);
    await putDocs(store, [chunkDoc('s', [entry(0, 'user', 'alpha beta'), entry(1, 'user', 'alpha')])]);
    const db = await PostgresDatabase.open(postgresSettings(env.CT_DATABASE_URL!), { maxConnections: 1 });
    const { client, schema } = await directClient(env.CT_DATABASE_URL!);
    try {
      // Its own clock, so how long ANALYZE takes on a busy machine cannot move the test's time.
      let now = 0;
      const stats = new SearchTableStats(100, () => now);
      expect(await stats.get(db)).toBeNull(); // never analyzed
      await client.query(`ANALYZE ${schema}.full_text_entries`);
      now = 50;
      expect(await stats.get(db)).toBeNull(); // the reading is kept a little while
      now = 150;
      const found = await stats.get(db);
      expect(found).toMatchObject({ rows: 2 });
      expect(found!.shares.get('alpha')).toBe(1);
      // A reading with statistics is kept for a minute, whatever changes meanwhile.
      await putDocs(store, [chunkDoc('t', [entry(0, 'user', 'gamma')])]);
      await client.query(`ANALYZE ${schema}.full_text_entries`);
      now = 150 + 59_000;
      expect(await stats.get(db)).toBe(found);
      now = 150 + 61_000;
      const later = await stats.get(db);
      expect(later).toMatchObject({ rows: 3 });
      expect(later!.shares.get('gamma')).toBeCloseTo(1 / 3);
    } finally {
      await client.end();
      await db.close();
    }
  });
});

describePg('postgres: unfiltered search over a recent range', () => {
  it('answers as the walk does, and walks when the range turns out to hold too few', async () => {
    const env = await engine.serverEnv();
    const open = () => openProcess(env);
    const a = await open();
    await materializeAll(a);
    const { client, schema } = await directClient(env.CT_DATABASE_URL!);
    // Search reads only its table: filled here in bulk, a history large enough for the range
    // to be the cheapest way (80,000 entries; "kappa" in 16,000 of them).
    const fill = (sessionId: string, n: number, text: string) =>
      client.query(
        `INSERT INTO ${schema}.full_text_entries (session_id, file, idx, role, text, tsv)
        SELECT $1, 'transcript.jsonl', i, 'user', t, to_tsvector('simple', t)
        FROM generate_series(0, $2::int - 1) AS i, LATERAL (SELECT ${text} AS t) AS x`,
        [sessionId, n],
      );
    const search = async (store: Store, offset = 0) =>
      hitPage(await store.views.search({ q: 'kappa', limit: 20, offset }));
    try {
      // The oldest says it most but falls outside the window; the newest ranks first.
      await fill(
        'r',
        80_000,
        `CASE WHEN i = 0 THEN 'kappa kappa kappa' WHEN i = 79995 THEN 'rho kappa kappa'
          WHEN i % 5 = 0 THEN 'rho ' || i || ' kappa' ELSE 'rho ' || i END`,
      );
      // Never analyzed: collected until there are too many, then walked.
      const walked = await search(a);
      expect(walked).toMatchObject({ total: RANK_WINDOW, totalExact: false });
      expect(walked.hits.slice(0, 3)).toEqual(['r#79995', 'r#55000', 'r#55005']);
      const middle = await search(a, 4_990);
      const deep = await search(a, 15_990);
      expect(deep).toMatchObject({ total: 16_000, totalExact: true });

      await client.query(`ANALYZE ${schema}.full_text_entries`);
      const b = await open(); // reads the statistics afresh: the range
      expect(await search(b)).toEqual(walked);
      expect(await search(b, 15_990)).toEqual(deep);
      expect(await search(b, 4_990)).toEqual(middle);
      // Again, from where the window ended: the same pages.
      expect(await search(b)).toEqual(walked);
      expect(await search(b, 4_990)).toEqual(middle);

      // 40,000 newer entries without the word: the range the statistics promise now holds none
      // of its matches, and the walk finds the same window.
      await fill('s', 40_000, `'sigma ' || i`);
      const c = await open();
      expect(await search(c)).toEqual(walked);
      expect(await search(b)).toEqual(walked); // from its cutoff, past the new entries

      // The newest 1,000 matches deleted: the range from the cutoff holds too few, and is walked.
      await client.query(`DELETE FROM ${schema}.full_text_entries WHERE session_id = 'r' AND idx >= 75000`);
      const fresh = await search(await open());
      expect(fresh).toMatchObject({ total: RANK_WINDOW, totalExact: false });
      expect(fresh.hits).not.toContain('r#79995');
      expect(await search(b)).toEqual(fresh);
      expect(await search(b)).toEqual(fresh);
    } finally {
      await client.end();
    }
  }, 60_000);
});

describe('postgres: configuration errors', () => {
  it('gives up on a server that takes the connection but never answers, naming the setting', async () => {
    const silent = await startSilentServer();
    const dataDir = await mkdtemp(path.join(tmpdir(), 'ct-pg-silent-'));
    const err = await openStore({
      dataDir,
      settings: { database: { url: `postgres://root@127.0.0.1:${silent.port}/test` } },
    }).catch((e: unknown) => e);
    await silent.close();
    await rm(dataDir, { recursive: true, force: true });
    expect((err as Error).name).toBe('StoreConfigError');
    expect((err as Error).message).toMatch(/no answer from PostgreSQL at .* \(CT_DATABASE_URL\) within 10 s/);
  }, 30_000);

  it('names the unreachable server and the setting', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'ct-pg-config-'));
    const err = await openStore({
      dataDir,
      settings: { database: { url: 'postgres://postgres:secret@127.0.0.1:1/test' } },
    }).catch((e: unknown) => e);
    await rm(dataDir, { recursive: true, force: true });
    expect((err as Error).name).toBe('StoreConfigError');
    expect((err as Error).message).toMatch(
      /cannot reach PostgreSQL at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/test/,
    );
    expect((err as Error).message).toContain('CT_DATABASE_URL');
    expect((err as Error).message).not.toContain('secret');
  });
});
