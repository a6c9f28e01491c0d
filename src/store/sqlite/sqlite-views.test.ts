/**
 * What only the embedded engine promises about its views: a registry that survives a restart and
 * is shared by every connection to the file, and an FTS index that stays consistent with its
 * content table through replacements, overlaps and deletions. (Dependency rules and malformed
 * documents are engine-neutral: they are in the views contract.)
 */
import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SEARCH_STALE, VIEW_NAMES, ViewMissingError, type Store } from '../contract.js';
import { chunkDoc, deleteDoc, entry, eventDoc, putDocs, summaryDoc } from '../contract/view-fixtures.js';
import { MIGRATIONS } from '../../migrations/index.js';
import { createMigrator } from '../../migrations/runner.js';
import { openStore } from '../open-store.js';
import { OLDER_FORM } from '../views-common/entry-search-text.js';
import { spaceCjk } from '../views-common/search-tokens.js';

const BEFORE_RESHAPES = MIGRATIONS.find((m) => m.name === 'session-annotations')!.version;

let dir: string;
let store: Store;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ct-sqlite-views-'));
  store = await openStore({ dataDir: dir, settings: {} });
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

/**
 * Opens the store as an older version left it (schema version 11, the last before views were
 * reshaped by migrations; its tables as each test made them) and migrates it up, as `serve` does.
 */
async function openMigrated(): Promise<Store> {
  const s = await openStore({ dataDir: dir, settings: {} });
  await s.docs.setSchemaMarker({ version: BEFORE_RESHAPES, history: [] });
  expect((await createMigrator(s).up()).error).toBeUndefined();
  return s;
}

async function materializeAll(s: Store): Promise<void> {
  for (const name of VIEW_NAMES) await s.views.materialize(name);
}

describe('sqlite views: persistence', () => {
  it('keeps the registry across a restart and goes on maintaining the views', async () => {
    await materializeAll(store);
    await putDocs(store, [
      summaryDoc('a', { span: ['2025-03-01T10:00:00.000Z', '2025-03-01T11:00:00.000Z'] }),
    ]);
    await store.close();
    store = await openStore({ dataDir: dir, settings: {} });
    expect(await store.views.materialized()).toEqual([...VIEW_NAMES]);
    await putDocs(store, [
      summaryDoc('b', { span: ['2025-03-02T10:00:00.000Z', '2025-03-02T11:00:00.000Z'] }),
      eventDoc('a', '2025-03-03T00:00:00.000Z', 'SessionEnd', { reason: 'exit' }),
      chunkDoc('b', [entry(0, 'user', 'persisted search')]),
    ]);
    const list = await store.views.listSessions({}, { limit: 5, offset: 0 });
    expect(list.rows.map((r) => [r.summary.sessionId, r.endReason])).toEqual([
      ['a', 'exit'],
      ['b', null],
    ]);
    expect((await store.views.search({ q: 'persisted', limit: 5, offset: 0 })).total).toBe(1);
    expect(await store.stats()).toMatchObject({ documents: 4, sessions: 2 });
  });

  it('maintains views another connection to the same file materialised', async () => {
    const other = await openStore({ dataDir: dir, settings: {} });
    try {
      await materializeAll(store);
      await putDocs(other, [
        summaryDoc('x', { span: ['2025-03-01T10:00:00.000Z', '2025-03-01T11:00:00.000Z'] }),
        chunkDoc('x', [entry(0, 'user', 'written elsewhere')]),
      ]);
      expect((await store.views.listSessions({}, { limit: 5, offset: 0 })).total).toBe(1);
      expect((await store.views.search({ q: 'elsewhere', limit: 5, offset: 0 })).total).toBe(1);
      await store.views.drop('daily_activity');
      await expect(other.views.dailyActivity('2025-03-01', '2025-03-02', {})).rejects.toBeInstanceOf(
        ViewMissingError,
      );
      expect(await other.views.materialized()).not.toContain('daily_activity');
    } finally {
      await other.close();
    }
  });

  it('uses one WAL-mode database file in the data directory', async () => {
    await store.close();
    const db = new Database(join(dir, 'transcripts.db'), { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{
        name: string;
      }>;
      expect(tables.map((t) => t.name)).toEqual(
        expect.arrayContaining(['docs', 'local_docs', 'schema_marker', 'view_registry']),
      );
    } finally {
      db.close();
      store = await openStore({ dataDir: dir, settings: {} });
    }
  });
});

describe('sqlite views: full-text consistency', () => {
  it('keeps the FTS index equal to its content through replacements, overlaps and deletions', async () => {
    await materializeAll(store);
    await putDocs(store, [
      chunkDoc('s', [entry(0, 'user', 'alpha one'), entry(1, 'assistant', 'beta two')]),
      chunkDoc('s', [entry(2, 'user', 'gamma three')]),
    ]);
    // Re-emitted with more entries, then a chunk with another id overlapping entry 2.
    await putDocs(store, [
      chunkDoc('s', [entry(2, 'user', 'gamma three'), entry(3, 'assistant', 'delta four')]),
    ]);
    await putDocs(store, [chunkDoc('s', [entry(2, 'user', 'epsilon overlap')], 'transcript.jsonl', 250)]);
    expect((await store.views.search({ q: 'gamma', limit: 5, offset: 0 })).total).toBe(0);
    expect(
      (await store.views.search({ q: 'epsilon', limit: 5, offset: 0 })).hits.map((h) => h.index),
    ).toEqual([2]);
    await deleteDoc(store, chunkDoc('s', [entry(0, 'user', 'x')])._id);
    expect((await store.views.search({ q: 'alpha', limit: 5, offset: 0 })).total).toBe(0);
    expect((await store.views.search({ q: 'delta', limit: 5, offset: 0 })).total).toBe(1);

    await store.close();
    const db = new Database(join(dir, 'transcripts.db'));
    try {
      // rank = 1 also compares the index with the external content table.
      db.prepare("INSERT INTO full_text_index (full_text_index, rank) VALUES ('integrity-check', 1)").run();
      const rows = db.prepare('SELECT idx, text FROM full_text_entries ORDER BY idx').all();
      expect(rows).toEqual([
        { idx: 2, text: 'epsilon overlap' },
        { idx: 3, text: 'delta four' },
      ]);
    } finally {
      db.close();
      store = await openStore({ dataDir: dir, settings: {} });
    }
  });
});

describe('sqlite views: an index made before CJK characters were tokens of their own', () => {
  /** Every term the FTS index holds, with the number of rows holding it. */
  function vocabulary(db: Database.Database): Array<{ term: string; doc: number }> {
    db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.vocab USING fts5vocab(main, 'full_text_index', 'row')");
    return db.prepare('SELECT term, doc FROM temp.vocab ORDER BY term').all() as Array<{
      term: string;
      doc: number;
    }>;
  }

  it('is indexed again when the store is migrated up, so CJK words are found and later writes stay consistent', async () => {
    await materializeAll(store);
    await putDocs(store, [
      summaryDoc('c'),
      chunkDoc('c', [
        entry(0, 'user', '扫描文件时出错 scan failed'),
        entry(1, 'assistant', 'plain words only'),
      ]),
    ]);
    await store.close();

    // Put the index back in the old form: the CJK row indexed as written, and no format marker.
    let db = new Database(join(dir, 'transcripts.db'));
    try {
      const row = db.prepare('SELECT rowid, text FROM full_text_entries WHERE idx = 0').get() as {
        rowid: number;
        text: string;
      };
      const set = db.prepare(
        "INSERT INTO full_text_index (full_text_index, rowid, text) VALUES ('delete', ?, ?)",
      );
      set.run(row.rowid, spaceCjk(row.text));
      db.prepare('INSERT INTO full_text_index (rowid, text) VALUES (?, ?)').run(row.rowid, row.text);
      db.exec('DROP TABLE full_text_format');
      expect(vocabulary(db).map((v) => v.term)).toContain('扫描文件时出错');
    } finally {
      db.close();
    }

    store = await openMigrated();
    expect((await store.views.search({ q: '扫描', limit: 5, offset: 0 })).total).toBe(1);
    // The row is replaced: its old tokens must leave the index, which needs the upgrade's delete
    // to have been told the text the row was indexed with.
    await putDocs(store, [
      chunkDoc('c', [entry(0, 'user', '文件已经扫描完毕'), entry(1, 'assistant', 'plain words only')]),
    ]);
    expect((await store.views.search({ q: '出错', limit: 5, offset: 0 })).total).toBe(0);
    expect((await store.views.search({ q: '扫描', limit: 5, offset: 0 })).total).toBe(1);
    await store.close();

    db = new Database(join(dir, 'transcripts.db'));
    let upgraded: Array<{ term: string; doc: number }>;
    try {
      db.prepare("INSERT INTO full_text_index (full_text_index) VALUES ('integrity-check')").run();
      upgraded = vocabulary(db);
      expect(upgraded.map((v) => v.term)).not.toContain('扫描文件时出错');
    } finally {
      db.close();
    }
    store = await openStore({ dataDir: dir, settings: {} });
    await store.views.reindex();
    await store.close();
    db = new Database(join(dir, 'transcripts.db'));
    try {
      expect(vocabulary(db)).toEqual(upgraded);
    } finally {
      db.close();
      store = await openStore({ dataDir: dir, settings: {} });
    }
  });
});

describe('sqlite views: an index made when tool inputs were indexed as JSON', () => {
  const bash = (command: string) =>
    chunkDoc('j', [
      entry(0, 'assistant', undefined, { toolUses: [{ id: 't', name: 'Bash', input: { command } }] }),
    ]);

  it('says search is behind when the store is migrated up, until a reindex rebuilds it', async () => {
    await materializeAll(store);
    await putDocs(store, [summaryDoc('j'), bash('cd /tmp\nzebraword')]);
    await store.close();
    // As form 2 left it: the row indexed with its tool input as JSON.
    const db = new Database(join(dir, 'transcripts.db'));
    try {
      const row = db.prepare('SELECT rowid, text FROM full_text_entries').get() as {
        rowid: number;
        text: string;
      };
      const json = 'Bash\n{"command":"cd /tmp\\nzebraword"}';
      db.prepare("INSERT INTO full_text_index (full_text_index, rowid, text) VALUES ('delete', ?, ?)").run(
        row.rowid,
        row.text,
      );
      db.prepare('UPDATE full_text_entries SET text = ? WHERE rowid = ?').run(json, row.rowid);
      db.prepare('INSERT INTO full_text_index (rowid, text) VALUES (?, ?)').run(row.rowid, json);
      db.exec('UPDATE full_text_format SET version = 2');
    } finally {
      db.close();
    }
    store = await openMigrated();
    const total = async (q: string) => (await store.views.search({ q, limit: 5, offset: 0 })).total;
    expect(await total('zebraword')).toBe(0);
    expect(await store.docs.getLocal(SEARCH_STALE)).toMatchObject({ olderForm: OLDER_FORM });
    // Opening again does not mark it again once the form is current; a reindex clears it.
    await store.close();
    store = await openStore({ dataDir: dir, settings: {} });
    expect(await store.docs.getLocal(SEARCH_STALE)).not.toBeNull();
    await store.views.reindex();
    expect(await store.docs.getLocal(SEARCH_STALE)).toBeNull();
    expect(await total('zebraword')).toBe(1);
    await store.close();
    store = await openStore({ dataDir: dir, settings: {} });
    expect(await store.docs.getLocal(SEARCH_STALE)).toBeNull();
  });

  it('says so of an index made before terminal escape codes were left out (form 3) too', async () => {
    await materializeAll(store);
    await putDocs(store, [summaryDoc('j'), bash('ls')]);
    await store.close();
    const db = new Database(join(dir, 'transcripts.db'));
    try {
      db.exec('UPDATE full_text_format SET version = 3');
    } finally {
      db.close();
    }
    store = await openMigrated();
    expect(await store.docs.getLocal(SEARCH_STALE)).toMatchObject({ olderForm: OLDER_FORM });
    await store.views.reindex();
    expect(await store.docs.getLocal(SEARCH_STALE)).toBeNull();
  });

  it('leaves an empty index of that form unmarked', async () => {
    await materializeAll(store);
    await store.close();
    const db = new Database(join(dir, 'transcripts.db'));
    try {
      db.exec('UPDATE full_text_format SET version = 2');
    } finally {
      db.close();
    }
    store = await openMigrated();
    expect(await store.docs.getLocal(SEARCH_STALE)).toBeNull();
    await putDocs(store, [summaryDoc('j'), bash('cd /tmp\nzebraword')]);
    expect((await store.views.search({ q: 'zebraword', limit: 5, offset: 0 })).total).toBe(1);
  });
});

describe('sqlite views: search over a word that matches a large share of the history', () => {
  it('counts every match and ranks the 5,000 most recently indexed ones', async () => {
    await materializeAll(store);
    await putDocs(store, [summaryDoc('old'), summaryDoc('new')]);
    // 100 old entries that mention the word three times (the most relevant), indexed first…
    const old = Array.from({ length: 100 }, (_, i) => entry(i, 'assistant', `alpha alpha alpha ${i}`));
    await putDocs(store, [chunkDoc('old', old)]);
    // …then 5,000 newer ones that mention it once.
    const docs = [];
    for (let c = 0; c < 25; c++) {
      const entries = Array.from({ length: 200 }, (_, i) =>
        entry(c * 200 + i, 'assistant', `alpha once ${c}-${i}`),
      );
      docs.push(chunkDoc('new', entries));
    }
    await putDocs(store, docs);

    const page = await store.views.search({ q: 'alpha', limit: 20, offset: 0 });
    expect(page.total).toBe(5100);
    expect(page.hits).toHaveLength(20);
    expect(page.hits.every((h) => h.sessionId === 'new')).toBe(true);
    expect(page.hits[0]!.snippet.some((s) => s.mark && s.text === 'alpha')).toBe(true);

    // Paging past the window still reaches every match, in a stable order.
    const deep = await store.views.search({ q: 'alpha', limit: 20, offset: 5090 });
    expect(deep.hits).toHaveLength(10);
    expect(new Set(deep.hits.map((h) => `${h.sessionId}:${h.index}`)).size).toBe(10);
  });
});

describe('sqlite views: search snippets', () => {
  it("gives every hit its own entry's snippet", async () => {
    await materializeAll(store);
    await putDocs(store, [summaryDoc('s')]);
    const entries = Array.from({ length: 30 }, (_, i) =>
      entry(i, 'assistant', `marker${i} shares the word beta`),
    );
    await putDocs(store, [chunkDoc('s', entries)]);
    const page = await store.views.search({ q: 'beta', limit: 30, offset: 0 });
    expect(page.hits).toHaveLength(30);
    for (const hit of page.hits) {
      expect(hit.snippet.map((s) => s.text).join('')).toContain(`marker${hit.index} `);
    }
  });
});

describe('sqlite views: a session rollup made before the text filter and the sorts', () => {
  const entries = summaryDoc('x').counts;
  it('gets each session its list text and sort values when the store is migrated up, from the summaries', async () => {
    await materializeAll(store);
    await putDocs(store, [
      summaryDoc('t1', { title: 'Parser rewrite', cwd: '/work/alpha', project: 'alpha' }),
      summaryDoc('t2', {
        title: 'Docs',
        cwd: '/work/beta',
        project: 'beta',
        counts: { ...entries, entries: 9 },
      }),
    ]);
    const ids = async (text: string) =>
      (await store.views.listSessions({ text }, { limit: 10, offset: 0 })).rows.map(
        (r) => r.summary.sessionId,
      );
    expect(await ids('parser')).toEqual(['t1']);
    const byEntries = async () =>
      (await store.views.listSessions({}, { limit: 10, offset: 0 }, { by: 'entries', dir: 'desc' })).rows.map(
        (r) => r.summary.sessionId,
      );
    await store.close();
    // As an older version made it: no list_text column, no sort columns.
    const db = new Database(join(dir, 'transcripts.db'));
    try {
      for (const column of ['list_text', 'runtime_ms', 'tokens', 'entries'])
        db.exec(`ALTER TABLE session_rollup DROP COLUMN ${column}`);
    } finally {
      db.close();
    }
    store = await openMigrated();
    expect(await ids('parser')).toEqual(['t1']);
    expect(await ids('beta docs')).toEqual(['t2']);
    expect(await ids('t')).toEqual(['t1', 't2']);
    expect(await byEntries()).toEqual(['t2', 't1']);
    // Writes after the upgrade keep it.
    await putDocs(store, [summaryDoc('t2', { title: 'Parser docs', cwd: '/work/beta', project: 'beta' })]);
    expect(await ids('parser')).toEqual(['t1', 't2']);
    expect(await byEntries()).toEqual(['t1', 't2']);
  });
});

describe('sqlite views: a session rollup made before the token totals', () => {
  it('gets each session its token split when the store is migrated up, from the summaries', async () => {
    await materializeAll(store);
    const tokens = { input: 3, output: 4, cacheWrite: 0, cacheRead: 0 };
    await putDocs(store, [
      summaryDoc('t1', { models: ['m1'], tokens }),
      summaryDoc('t2', { models: ['m1', 'm2'], tokens, tokensByModel: { m2: tokens } }),
    ]);
    const before = await store.views.tokenTotals();
    expect(before.byModel).toEqual([
      { model: 'm1', sessions: 1, tokens },
      { model: 'm2', sessions: 1, tokens },
    ]);
    await store.close();
    const db = new Database(join(dir, 'transcripts.db'));
    try {
      db.exec('ALTER TABLE session_rollup DROP COLUMN token_split');
    } finally {
      db.close();
    }
    store = await openMigrated();
    expect(await store.views.tokenTotals()).toEqual(before);
  });
});

describe('sqlite views: a speaker split made before the turns across sessions', () => {
  it("gets the turns' times and the index that orders them when the store is migrated up, and reads the newest through it", async () => {
    await materializeAll(store);
    await putDocs(store, [
      chunkDoc('s', [
        entry(0, 'user', 'first'),
        entry(1, 'assistant', 'second'),
        entry(2, 'user', 'third'),
        entry(3, 'user', 'trimmed', { timestamp: '[trimmed]' }),
      ]),
      chunkDoc('t', [entry(0, 'user', 'elsewhere', { timestamp: '2025-03-01T10:01:30.000Z' })]),
    ]);
    await store.close();
    const indexes = () => {
      const db = new Database(join(dir, 'transcripts.db'), { readonly: true });
      try {
        return db
          .prepare("SELECT name FROM sqlite_master WHERE tbl_name = 'speaker_turns' AND type = 'index'")
          .pluck()
          .all();
      } finally {
        db.close();
      }
    };
    // As an older version made it: no times, no time index.
    const db = new Database(join(dir, 'transcripts.db'));
    try {
      db.exec('DROP INDEX speaker_turns_newest; ALTER TABLE speaker_turns DROP COLUMN at_ms');
    } finally {
      db.close();
    }
    expect(indexes()).not.toContain('speaker_turns_newest');
    store = await openMigrated();
    expect(indexes()).toContain('speaker_turns_newest');
    const newest = await store.views.allTurns({ limit: 10, offset: 0, role: 'user' });
    expect(newest.turns.map((t) => `${t.sessionId}#${t.index}`)).toEqual(['s#2', 't#0', 's#0', 's#3']);
    const range = { from: '2025-03-01T10:01:00Z', to: '2025-03-01T10:02:00Z' };
    expect((await store.views.allTurns({ limit: 10, offset: 0, ...range })).turns.map((t) => t.text)).toEqual(
      ['third', 'elsewhere', 'second'],
    );
    // The newest page is read down the index, not sorted after reading every turn.
    const plan = new Database(join(dir, 'transcripts.db'), { readonly: true });
    try {
      const steps = plan
        .prepare(
          `EXPLAIN QUERY PLAN SELECT t.* FROM speaker_turns t WHERE t.role = 'user'
          ORDER BY t.at_ms DESC, t.session_id DESC, t.idx DESC LIMIT 20`,
        )
        .all()
        .map((r) => (r as { detail: string }).detail)
        .join('\n');
      expect(steps).toContain('speaker_turns_newest');
      expect(steps).not.toContain('TEMP B-TREE');
    } finally {
      plan.close();
    }
  });
});
