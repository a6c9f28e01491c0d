/**
 * OpenCode sessions through the real ingest (ingestTree into a SQLite store), from both of its
 * layouts: the `storage/` JSON files of the fixtures, and an `opencode.db` built from them. The
 * root session and its child (a subagent) are one session; reading again after OpenCode added a
 * message and a part adds exactly those, as a clean read gives them; a bad file is reported and
 * what was stored is kept.
 */
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { databaseFromFiles } from '../../test/support/opencode-db.js';
import { repoRoot } from '../../test/support/paths.js';
import { snapshotStore } from '../../test/support/store-snapshot.js';
import { type SummaryDoc } from '../core/documents.js';
import type { Store } from '../store/contract.js';
import { cursorId, type SessionCursor } from './ingest-session.js';
import type { IngestTreeOptions } from './ingest-tree.js';
import { backfillInto, migratedStore, storedEntries, summaryOf } from '../../test/support/ingest-store.js';

const FIXTURE = path.join(repoRoot, 'test', 'fixtures', 'opencode', 'storage');
const ROOT = 'ses_52a0d1b3effeQ7nV2kLx9TfWcA';
const CHILD = 'ses_52a0c9e21ffeR4mZ8pYq1HsDuB';
const LAST_USER = 'msg_ad4f5c9a6001Ph7Xy3JfWg6Cv7';
const NEW_MESSAGE = 'msg_ad4f6d0b8001Rk3Ab7LmYj1Ex9';

let tmp: string;
let store: Store;

const freshStore = (name: string) => migratedStore(tmp, name);
const run = (root: string, s: Store = store, extra: Partial<IngestTreeOptions> = {}) =>
  backfillInto(s, root, extra);

const countBy = (entries: Array<{ file: string }>) =>
  entries.reduce<Record<string, number>>((m, e) => ({ ...m, [e.file]: (m[e.file] ?? 0) + 1 }), {});

/** OpenCode's data folder with the fixtures' `storage/` in it. */
async function dataDir(name: string): Promise<string> {
  const dir = path.join(tmp, name, 'opencode');
  await mkdir(dir, { recursive: true });
  await cp(FIXTURE, path.join(dir, 'storage'), { recursive: true });
  return dir;
}

const newPart = (id: string, messageID: string, text: string) => ({
  type: 'text',
  text,
  time: { start: 1764000500000, end: 1764000500000 },
  id,
  sessionID: ROOT,
  messageID,
});
const newMessage = {
  role: 'user',
  time: { created: 1764000500000 },
  agent: 'build',
  id: NEW_MESSAGE,
  sessionID: ROOT,
};

/** What OpenCode writes when the user adds a line to a prompt and sends another one. */
async function addMessageAndParts(storage: string): Promise<void> {
  await writeFile(
    path.join(storage, 'part', LAST_USER, 'prt_ad4f5c9a6001031Zp31kQ.json'),
    JSON.stringify(newPart('prt_ad4f5c9a6001031Zp31kQ', LAST_USER, 'and the checkout module')),
  );
  await writeFile(
    path.join(storage, 'message', ROOT, `${NEW_MESSAGE}.json`),
    JSON.stringify(newMessage, null, 2),
  );
  await mkdir(path.join(storage, 'part', NEW_MESSAGE));
  await writeFile(
    path.join(storage, 'part', NEW_MESSAGE, 'prt_ad4f6d0b8001032Zp32kQ.json'),
    JSON.stringify(newPart('prt_ad4f6d0b8001032Zp32kQ', NEW_MESSAGE, 'now write the test')),
  );
}

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'ct-opencode-ingest-'));
  store = await freshStore('store');
});
afterEach(async () => {
  await store.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('ingest of OpenCode sessions', () => {
  it('makes one session of a root session and its child: entries, tokens, tools, subagent, agent', async () => {
    const r = await run(await dataDir('a'));
    expect(r.failed).toEqual([]);
    expect(r.sessions).toBe(1);
    const s = await summaryOf(store, ROOT);
    expect(s).toMatchObject({
      agent: 'opencode',
      title: 'Fix the failing checkout test',
      cwd: '/home/dev/shop',
      version: '1.0.85',
      subagents: 1,
      models: ['claude-sonnet-4-5', 'gemini-2.5-pro', 'claude-haiku-4-5'],
      tokens: {
        input: 4800 + 410 + 5210 + 22000 + 3000 + 900,
        output: 120 + 140 + 380 + 600 + (200 + 150) + 60,
        cacheRead: 11200 + 20480 + 1000 + 3000,
        cacheWrite: 9000 + 310,
      },
      toolCallsByName: { bash: 3, edit: 2, read: 1, task: 1, grep: 1 },
    });
    expect(s.counts).toMatchObject({ prompts: 3, toolCalls: 8, toolErrors: 1, malformed: 0 });
    // 1 session line, 8 messages and 36 parts; the child: 1 + 2 + 5.
    expect(countBy(await storedEntries(store, ROOT))).toEqual({
      'transcript.jsonl': 45,
      [`subagents/agent-${CHILD}.jsonl`]: 8,
    });
    expect(await store.docs.get(`summary:${CHILD}`)).toBeNull();
    const cursor = await store.docs.getLocal<SessionCursor>(cursorId(ROOT));
    expect(cursor?.init.agent).toBe('opencode');
    // The stored object is the JSONL the projection read.
    const object = await store.objects.get(`${ROOT}/transcript.jsonl`);
    const chunks: Buffer[] = [];
    for await (const c of object!) chunks.push(c as Buffer);
    const lines = Buffer.concat(chunks).toString('utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(45);
    expect(JSON.parse(lines[0]!)).toMatchObject({ type: 'opencode.session' });
    // Nothing changed: nothing read.
    const again = await run(path.join(tmp, 'a', 'opencode'));
    expect(again.changedFiles).toBe(0);
  });

  it('adds exactly a new message and part on the next read, as a clean read gives them', async () => {
    const dir = await dataDir('a');
    await run(dir);
    await addMessageAndParts(path.join(dir, 'storage'));
    const r = await run(dir);
    expect(r.failed).toEqual([]);
    expect(r.changedFiles).toBe(3);
    const entries = await storedEntries(store, ROOT);
    expect(countBy(entries)['transcript.jsonl']).toBe(45 + 3);
    const ids = entries.map((e) => `${e.file}#${e.index}`);
    expect(new Set(ids).size).toBe(ids.length);
    expect(entries.filter((e) => e.text === 'now write the test')).toHaveLength(1);

    // A part alone, in an existing message: its path names only the message.
    await writeFile(
      path.join(dir, 'storage', 'part', NEW_MESSAGE, 'prt_ad4f6d0b8001033Zp33kQ.json'),
      JSON.stringify(newPart('prt_ad4f6d0b8001033Zp33kQ', NEW_MESSAGE, 'with a fixture')),
    );
    const third = await run(dir);
    expect([third.changedFiles, third.sessions, third.failed]).toEqual([1, 1, []]);
    expect(countBy(await storedEntries(store, ROOT))['transcript.jsonl']).toBe(45 + 4);

    const clean = await freshStore('clean');
    try {
      await run(dir, clean);
      const [a, b] = [await snapshotStore(store), await snapshotStore(clean)];
      expect([...a.docs.keys()].sort()).toEqual([...b.docs.keys()].sort());
      expect(a).toEqual(b);
    } finally {
      await clean.close();
    }
  });

  it('reads the database layout to the same session, and what a new row adds', async () => {
    const files = await dataDir('files');
    await run(files);
    const fromFiles = await snapshotStore(store);
    const dir = path.join(tmp, 'db', 'opencode');
    await mkdir(dir, { recursive: true });
    const dbFile = path.join(dir, 'opencode.db');
    await databaseFromFiles(FIXTURE, dbFile);
    const db = await freshStore('db');
    try {
      const r = await run(dir, db);
      expect(r.failed).toEqual([]);
      expect(r.sessions).toBe(1);
      const [s, t] = [await summaryOf(db, ROOT), await summaryOf(store, ROOT)];
      // The session row lacks only what the table does not keep (summary, share): its line is
      // shorter, and nothing else differs.
      const but = (d: SummaryDoc) => ({
        ...d,
        _rev: undefined,
        files: undefined,
        transcriptBytes: undefined,
      });
      expect(but(s)).toEqual(but(t));
      expect(s.files.map((f) => [f.name, f.entries])).toEqual(t.files.map((f) => [f.name, f.entries]));
      const [x, y] = [await storedEntries(db, ROOT), await storedEntries(store, ROOT)];
      expect(x.length).toBe(y.length);
      // Entries alike but for their byte positions, which the shorter session line moves.
      const place = ({ byteStart: _s, byteEnd: _e, ...e }: (typeof x)[number]) => e;
      expect(x.slice(1).map(place)).toEqual(y.slice(1).map(place));
      expect(fromFiles.docs.size).toBe((await snapshotStore(db)).docs.size);

      // OpenCode adds a message and its part as rows.
      const w = new Database(dbFile);
      w.prepare('INSERT INTO message VALUES (?, ?, 0, 0, ?)').run(
        NEW_MESSAGE,
        ROOT,
        JSON.stringify({ role: 'user', time: { created: 1764000500000 } }),
      );
      w.prepare('INSERT INTO part VALUES (?, ?, ?, 0, 0, ?)').run(
        'prt_ad4f6d0b8001032Zp32kQ',
        NEW_MESSAGE,
        ROOT,
        JSON.stringify({ type: 'text', text: 'now write the test' }),
      );
      w.close();
      await run(dir, db);
      const after = await storedEntries(db, ROOT);
      expect(after.length).toBe(x.length + 2);
      expect(after.filter((e) => e.text === 'now write the test')).toHaveLength(1);
    } finally {
      await db.close();
    }
  });

  it('reports a bad session file and keeps what was stored of it', async () => {
    const dir = await dataDir('a');
    await run(dir);
    const before = await snapshotStore(store);
    const info = path.join(
      dir,
      'storage',
      'session',
      '4b0ea68d7af9a6031a7ffda7ad66e0cb83315750',
      `${ROOT}.json`,
    );
    await writeFile(info, '{"id": "ses_52a0d1b3eff');
    await addMessageAndParts(path.join(dir, 'storage'));
    const r = await run(dir);
    expect(r.failed).toEqual([
      { file: info, error: expect.stringMatching(new RegExp(`OpenCode session .*${ROOT}\\.json: not JSON`)) },
    ]);
    expect(await snapshotStore(store)).toEqual(before);
  });
});
