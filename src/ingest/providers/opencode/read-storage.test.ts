/**
 * Both of OpenCode's layouts read to the same session: the JSON files of the fixtures, and a real
 * SQLite database with OpenCode's tables (session.sql.ts) filled from those files the way
 * OpenCode's json-migration.ts fills it. Bad files and rows are kept, naming what was wrong.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { emptyOpenCodeCursor, openCodeLines } from '../../../core/transcript/opencode-session.js';
import { listDbSessions, openOpenCodeDb, readDbSession } from './read-db.js';
import { listFileSessions, readFileSession } from './read-files.js';

const STORAGE = path.resolve('test/fixtures/opencode/storage');
const tmp = await mkdtemp(path.join(os.tmpdir(), 'ct-opencode-'));
afterAll(() => rm(tmp, { recursive: true, force: true }));

/** A database laid out as OpenCode's (its session, message and part tables), from the files. */
async function databaseFromFiles(file: string): Promise<void> {
  const db = new Database(file);
  db.exec(`
    CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, parent_id TEXT, slug TEXT NOT NULL,
      directory TEXT NOT NULL, title TEXT NOT NULL, version TEXT NOT NULL, time_created INTEGER NOT NULL,
      time_updated INTEGER NOT NULL);
    CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL,
      time_updated INTEGER NOT NULL, data TEXT NOT NULL);
    CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL,
      time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);`);
  for (const ref of await listFileSessions(STORAGE)) {
    const s = await readFileSession(STORAGE, ref);
    const i = s.info as {
      id: string;
      projectID: string;
      parentID?: string;
      slug: string;
      directory: string;
      title: string;
      version: string;
      time: { created: number; updated: number };
    };
    db.prepare('INSERT INTO session VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)').run(
      i.id,
      i.projectID,
      i.parentID ?? null,
      i.slug,
      i.directory,
      i.title,
      i.version,
      i.time.created,
      i.time.updated,
    );
    for (const m of s.messages) {
      const { id, sessionID: _s, ...data } = m.info as { id: string; sessionID: string };
      db.prepare('INSERT INTO message VALUES (?, ?, 0, 0, ?)').run(id, i.id, JSON.stringify(data));
      for (const p of m.parts) {
        const {
          id: pid,
          messageID: _m,
          sessionID: _ps,
          ...pdata
        } = p as { id: string; messageID: string; sessionID: string };
        db.prepare('INSERT INTO part VALUES (?, ?, ?, 0, 0, ?)').run(pid, id, i.id, JSON.stringify(pdata));
      }
    }
  }
  db.close();
}

describe('OpenCode storage readers', () => {
  it('read the same lines from the files and from the database', async () => {
    const dbFile = path.join(tmp, 'opencode.db');
    await databaseFromFiles(dbFile);
    const db = openOpenCodeDb(dbFile);
    try {
      const listed = listDbSessions(db);
      expect(listed.map((s) => [s.id, s.parentId])).toEqual([
        ['ses_52a0c9e21ffeR4mZ8pYq1HsDuB', 'ses_52a0d1b3effeQ7nV2kLx9TfWcA'],
        ['ses_52a0d1b3effeQ7nV2kLx9TfWcA', null],
      ]);
      for (const ref of await listFileSessions(STORAGE)) {
        const fromFiles = openCodeLines(await readFileSession(STORAGE, ref), emptyOpenCodeCursor()).lines;
        const fromDb = openCodeLines(readDbSession(db, ref.id)!, emptyOpenCodeCursor()).lines;
        // The session line differs only in what the table does not keep (summary, share).
        const parse = (ls: string[]) => ls.map((l) => JSON.parse(l) as unknown);
        expect(parse(fromDb.slice(1))).toEqual(parse(fromFiles.slice(1)));
        expect(JSON.parse(fromDb[0]!).session).toMatchObject({
          title: JSON.parse(fromFiles[0]!).session.title,
        });
      }
      expect(readDbSession(db, 'ses_missing')).toBeNull();
    } finally {
      db.close();
    }
  });

  it('keeps a truncated or wrongly typed file as an unreadable message or part', async () => {
    const dir = path.join(tmp, 'bad');
    await cp(STORAGE, dir, { recursive: true });
    const partDir = path.join(dir, 'part', 'msg_ad4f3a7e2001Kc6Pq4DxSz7Yr3');
    const [partFile] = (await import('node:fs')).readdirSync(partDir);
    const full = path.join(partDir, partFile!);
    await writeFile(full, (await readFile(full, 'utf8')).slice(0, 40));
    await writeFile(
      path.join(dir, 'message', 'ses_52a0d1b3effeQ7nV2kLx9TfWcA', 'msg_ad4f5c9a7001Qj5Za5KhXi8Dw8.json'),
      '[1, 2]',
    );
    const ref = (await listFileSessions(dir)).find((r) => r.id === 'ses_52a0d1b3effeQ7nV2kLx9TfWcA')!;
    const s = await readFileSession(dir, ref);
    const part = s.messages.find((m) => m.info.id === 'msg_ad4f3a7e2001Kc6Pq4DxSz7Yr3')!.parts[0]!;
    expect(part.type).toBe('unreadable');
    expect(part.unreadable).toMatch(new RegExp(`${partFile}: not JSON \\(40 characters\\)`));
    const last = s.messages.at(-1)!;
    expect(last.info).toMatchObject({
      role: 'unreadable',
      unreadable: expect.stringMatching(/not a JSON object: an array$/),
    });

    const info = path.join(
      dir,
      'session',
      '4b0ea68d7af9a6031a7ffda7ad66e0cb83315750',
      'ses_52a0d1b3effeQ7nV2kLx9TfWcA.json',
    );
    await writeFile(info, '{"id": "ses_52a0d1b3eff');
    await expect(readFileSession(dir, ref)).rejects.toThrow(
      /OpenCode session .*ses_52a0d1b3effeQ7nV2kLx9TfWcA\.json: not JSON/,
    );
  });
});
