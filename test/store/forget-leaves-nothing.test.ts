/**
 * Forget leaves nothing (issue 39), looked for in the raw store rather than through its API: after
 * `forgetSession`, every row of every table — the SQLite file's (FTS5 shadow tables included) or
 * the PostgreSQL schema's — and every file of the objects directory is read, and neither the
 * session's id nor a phrase unique to it may appear. The one exception is the tombstone, which
 * keeps the id as it is (not hashed): the document `tombstone:<id>` (`session_id` = the id), its
 * place in the change sequence, and the session's count of live documents, which is 1 (the
 * tombstone); a row is allowed only when it is one of those.
 * A real corpus transcript is ingested, with every kind of annotation, before the forget.
 */
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { annotationId, tombstoneId } from '../../src/core/annotation-rules.js';
import { emptyAnnotation } from '../../src/core/annotations.js';
import { ingestTree } from '../../src/ingest/ingest-tree.js';
import { storeSink } from '../../src/ingest/sink.js';
import { createMigrator } from '../../src/migrations/runner.js';
import type { Store } from '../../src/store/contract.js';
import { forgetSession } from '../../src/store/forget.js';
import { openStore } from '../../src/store/open-store.js';
import { claudeCorpusDir } from '../support/paths.js';
import { POMODORO } from '../support/corpus-sessions.js';
import { TEST_DATABASE_URL } from '../support/postgres-probe.js';

const PHRASE = 'quokka-zanzibar-marmalade';
/**
 * Each word of the phrase alone too (a search index keeps words, not phrases), and a word of the
 * transcript that no other session of the store holds.
 */
const NEEDLES = [POMODORO, PHRASE, ...PHRASE.split('-'), 'pomodoro'];
const AT = '2025-04-01T00:00:00.000Z';
const dirs: string[] = [];

afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

/** The Pomodoro session (a real transcript), annotated with the phrase everywhere a person can write. */
async function seed(store: Store, dataDir: string): Promise<void> {
  const migrated = await createMigrator(store).up();
  expect(migrated.error).toBeUndefined();
  const tree = path.join(dataDir, 'tree');
  await mkdir(path.join(tree, 'p'), { recursive: true });
  for (const f of ['yoavf__ai-sessions/claude-code-pomodoro-timer.jsonl', 'slopus__happy/rate-limit.jsonl'])
    await copyFile(path.join(claudeCorpusDir, f), path.join(tree, 'p', path.basename(f)));
  await ingestTree({
    root: tree,
    sink: storeSink(store),
    hostname: 'h',
    source: 'backfill',
    provenance: 'backfilled',
  });
  const [w] = await store.docs.bulkUpsert([
    {
      ...emptyAnnotation(POMODORO, AT),
      starred: true,
      tags: ['quokka'],
      note: `a note on ${PHRASE}`,
      bookmarks: [{ file: 'transcript.jsonl', index: 1, note: `marked ${PHRASE}`, at: AT }],
    },
  ]);
  expect(w!.status).toBe('written');
  // The phrase is searchable before: the test would find a leak.
  expect((await store.views.search({ q: `"${PHRASE}"`, limit: 10, offset: 0 })).total).toBe(2);
  expect((await store.views.getSession(POMODORO))?.summary.sessionId).toBe(POMODORO);
}

/** `table: row` for every row holding a needle, the tombstone's rows aside. */
function findings(table: string, rows: string[]): string[] {
  const holds = (r: string, needles: string[]) =>
    needles.some((n) => r.toLowerCase().includes(n.toLowerCase()));
  // A tombstone's row names `tombstone:<id>` and nothing of the phrase; its session's count of
  // live documents is its own (1).
  const tombstoneRow = (r: string) =>
    (r.includes(tombstoneId(POMODORO)) && !holds(r, NEEDLES.slice(1))) ||
    (table === 'session_doc_counts' &&
      [`${POMODORO} | 1`, `{"session_id":"${POMODORO}","live":1}`].includes(r));
  return rows.filter((r) => holds(r, NEEDLES) && !tombstoneRow(r)).map((r) => `${table}: ${r.slice(0, 200)}`);
}

/** Every file under `dir` whose path or bytes hold a needle. */
async function filesHolding(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const text = (await readFile(file)).toString('latin1') + file;
    if (NEEDLES.some((n) => text.toLowerCase().includes(n.toLowerCase()))) found.push(file);
  }
  return found;
}

function rowText(row: Record<string, unknown>): string {
  return Object.values(row)
    .map((v) => (Buffer.isBuffer(v) ? v.toString('latin1') : typeof v === 'string' ? v : JSON.stringify(v)))
    .join(' | ');
}

describe('forget leaves nothing in the raw store', () => {
  it('sqlite: no table of the database file and no object file holds the id or the phrase', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ct-forget-raw-'));
    dirs.push(dataDir);
    const store = await openStore({ dataDir, settings: {} });
    try {
      await seed(store, dataDir);
      expect(await filesHolding(path.join(dataDir, 'objects'))).not.toEqual([]);
      const r = await forgetSession(store, POMODORO);
      expect(r.tombstoned).toBe(true);
    } finally {
      await store.close();
    }
    const db = new Database(path.join(dataDir, 'transcripts.db'), { readonly: true });
    const found: string[] = [];
    try {
      const tables = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .all() as Array<{ name: string }>;
      expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['docs', 'note_text_index_data']));
      for (const { name } of tables) {
        const rows = db.prepare(`SELECT * FROM "${name}"`).all() as Array<Record<string, unknown>>;
        found.push(...findings(name, rows.map(rowText)));
      }
      // The tombstone itself is there, the id as it is.
      expect(db.prepare('SELECT session_id FROM docs WHERE id = ?').get(tombstoneId(POMODORO))).toEqual({
        session_id: POMODORO,
      });
      expect(db.prepare('SELECT 1 FROM docs WHERE id = ?').get(annotationId(POMODORO))).toBeUndefined();
    } finally {
      db.close();
    }
    expect(found).toEqual([]);
    expect(await filesHolding(path.join(dataDir, 'objects'))).toEqual([]);
  });

  const pgSkip = inject('postgresSkip');
  it.skipIf(Boolean(pgSkip))(
    `postgres: no table of the schema and no object file holds the id or the phrase${pgSkip ? ` (skipped: ${pgSkip})` : ''}`,
    async () => {
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ct-forget-raw-pg-'));
      dirs.push(dataDir);
      const schema = `ct_test_forget_${process.pid}_${randomBytes(3).toString('hex')}`;
      // PostgreSQL documents and views, objects in a directory (so there is a directory to read).
      const store = await openStore({ dataDir, settings: { database: { url: TEST_DATABASE_URL, schema } } });
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      try {
        try {
          await seed(store, dataDir);
          const r = await forgetSession(store, POMODORO);
          expect(r.tombstoned).toBe(true);
        } finally {
          await store.close();
        }
        const { rows: tables } = await client.query<{ table_name: string }>(
          `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`,
          [schema],
        );
        expect(tables.map((t) => t.table_name)).toEqual(
          expect.arrayContaining(['docs', 'note_text_entries']),
        );
        const found: string[] = [];
        for (const { table_name } of tables) {
          const { rows } = await client.query<{ t: string }>(
            `SELECT row_to_json(x)::text AS t FROM "${schema}"."${table_name}" x`,
          );
          found.push(
            ...findings(
              table_name,
              rows.map((r) => r.t),
            ),
          );
        }
        expect(found).toEqual([]);
        const { rows: tomb } = await client.query(`SELECT session_id FROM "${schema}".docs WHERE id = $1`, [
          tombstoneId(POMODORO),
        ]);
        expect(tomb).toEqual([{ session_id: POMODORO }]);
        expect(await filesHolding(path.join(dataDir, 'objects'))).toEqual([]);
      } finally {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await client.end();
      }
    },
  );
});
