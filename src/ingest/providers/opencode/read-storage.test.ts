/**
 * Both of OpenCode's layouts read to the same session: the JSON files of the fixtures, and a real
 * SQLite database with OpenCode's tables (session.sql.ts) filled from those files the way
 * OpenCode's json-migration.ts fills it. Bad files and rows are kept, naming what was wrong.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseFromFiles } from '../../../../test/support/opencode-db.js';
import { emptyOpenCodeCursor, openCodeLines } from '../../../core/transcript/opencode-session.js';
import { listDbSessions, openOpenCodeDb, readDbSession } from './read-db.js';
import { listFileSessions, readFileSession } from './read-files.js';

const STORAGE = path.resolve('test/fixtures/opencode/storage');
const tmp = await mkdtemp(path.join(os.tmpdir(), 'ct-opencode-'));
afterAll(() => rm(tmp, { recursive: true, force: true }));

describe('OpenCode storage readers', () => {
  it('read the same lines from the files and from the database', async () => {
    const dbFile = path.join(tmp, 'opencode.db');
    await databaseFromFiles(STORAGE, dbFile);
    const db = await openOpenCodeDb(dbFile);
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
