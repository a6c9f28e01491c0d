/**
 * What only the embedded engine promises about its views: dependency rules between views, a
 * registry that survives a restart, and an FTS index that stays consistent with its content
 * table through replacements, overlaps and deletions.
 */
import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreInputError, VIEW_NAMES, ViewMissingError, type Store, type ViewName } from '../contract.js';
import { chunkDoc, deleteDoc, entry, eventDoc, putDocs, summaryDoc } from '../contract/view-fixtures.js';
import { openStore } from '../open-store.js';

let dir: string;
let store: Store;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ct-sqlite-views-'));
  store = await openStore({ dataDir: dir });
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

async function materializeAll(s: Store): Promise<void> {
  for (const name of VIEW_NAMES) await s.views.materialize(name);
}

describe('sqlite views: dependencies', () => {
  it('needs the rollup before its indexes and the calendar, and keeps it while they exist', async () => {
    for (const name of ['sessions_by_cwd', 'sessions_by_model', 'daily_activity'] as const) {
      const err = await store.views.materialize(name).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ViewMissingError);
      expect((err as ViewMissingError).view).toBe('session_rollup');
    }
    await store.views.materialize('session_rollup');
    await store.views.materialize('daily_activity');
    await expect(store.views.drop('session_rollup')).rejects.toBeInstanceOf(StoreInputError);
    await store.views.drop('daily_activity');
    await store.views.drop('session_rollup');
    expect(await store.views.materialized()).toEqual([]);
  });

  it('rejects unknown view names', async () => {
    await expect(store.views.materialize('nope' as ViewName)).rejects.toBeInstanceOf(StoreInputError);
    await expect(store.views.drop('nope' as ViewName)).rejects.toBeInstanceOf(StoreInputError);
  });

  it('needs the rollup for filtered search, not for plain search', async () => {
    await store.views.materialize('full_text');
    await putDocs(store, [chunkDoc('s', [entry(0, 'user', 'hello world')])]);
    expect((await store.views.search({ q: 'hello', limit: 5, offset: 0 })).total).toBe(1);
    expect((await store.views.search({ q: 'hello', idPrefix: 's', limit: 5, offset: 0 })).total).toBe(1);
    await expect(store.views.search({ q: 'hello', cwd: '/x', limit: 5, offset: 0 })).rejects.toBeInstanceOf(
      ViewMissingError,
    );
  });
});

describe('sqlite views: persistence', () => {
  it('keeps the registry across a restart and goes on maintaining the views', async () => {
    await materializeAll(store);
    await putDocs(store, [
      summaryDoc('a', { span: ['2025-03-01T10:00:00.000Z', '2025-03-01T11:00:00.000Z'] }),
    ]);
    await store.close();
    store = await openStore({ dataDir: dir });
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
    const other = await openStore({ dataDir: dir });
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
      store = await openStore({ dataDir: dir });
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
      store = await openStore({ dataDir: dir });
    }
  });

  it('tolerates malformed session documents without failing the write', async () => {
    await materializeAll(store);
    const results = await store.docs.bulkUpsert([
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
    expect(await store.views.getSession('m')).toMatchObject({
      activity: [],
      firstActivity: null,
      eventCount: 1,
      hookRecorded: true,
    });
    expect(await store.views.transcriptPage('m', 'transcript.jsonl', { offset: 0, limit: 5 })).toEqual({
      total: 2,
      entries: [],
    });
  });
});
