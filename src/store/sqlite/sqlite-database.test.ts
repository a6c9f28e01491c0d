/**
 * The file the embedded engine opens: new databases get 16 KiB pages, and a database created
 * earlier with another page size opens as it is and keeps its documents.
 */
import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openStore } from '../open-store.js';
import { openSqliteDatabase } from './sqlite-database.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ct-sqlite-db-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('creates a new database with 16 KiB pages in WAL mode', () => {
  const db = openSqliteDatabase(join(dir, 'new.db'));
  try {
    expect(db.pragma('page_size', { simple: true })).toBe(16384);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
  } finally {
    db.close();
  }
});

it('opens a database made with 4 KiB pages unchanged, documents and all', async () => {
  const first = await openStore({ dataDir: dir, settings: {} });
  await first.docs.bulkUpsert([{ _id: 'summary:s1', type: 'summary', sessionId: 's1', title: 'kept' }]);
  await first.close();
  // Rebuild the file as an older version made it: 4 KiB pages (VACUUM rewrites it outside WAL).
  const file = join(dir, 'transcripts.db');
  const raw = new Database(file);
  raw.pragma('journal_mode = DELETE');
  raw.pragma('page_size = 4096');
  raw.exec('VACUUM');
  raw.pragma('journal_mode = WAL');
  expect(raw.pragma('page_size', { simple: true })).toBe(4096);
  raw.close();

  const again = await openStore({ dataDir: dir, settings: {} });
  try {
    expect(await again.docs.get('summary:s1')).toMatchObject({ title: 'kept' });
    await again.docs.bulkUpsert([{ _id: 'summary:s2', type: 'summary', sessionId: 's2', title: 'new' }]);
    expect(await again.docs.get('summary:s2')).toMatchObject({ title: 'new' });
  } finally {
    await again.close();
  }
  const check = new Database(file, { readonly: true });
  expect(check.pragma('page_size', { simple: true })).toBe(4096);
  check.close();
});
