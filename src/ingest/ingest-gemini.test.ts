/**
 * Gemini CLI sessions through the real ingest (ingestTree into a SQLite store): the summary of a
 * session with a subagent, a rewritten file saved three times against one clean read, a resumed
 * `.json` session beside the `.jsonl` it became, and bad files.
 */
import { cp, mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../../test/support/paths.js';
import { snapshotStore } from '../../test/support/store-snapshot.js';
import type { Store } from '../store/contract.js';
import { cursorId, type SessionCursor } from './ingest-session.js';
import type { IngestTreeOptions } from './ingest-tree.js';
import { plantedSecrets } from '../../test/support/planted-secrets.js';
import { backfillInto, migratedStore, storedEntries, summaryOf } from '../../test/support/ingest-store.js';

const fixtures = path.join(repoRoot, 'test', 'fixtures', 'gemini');
const HASH = '02226788d1ed76a8b8cbb0990426125cbb3b10fa2afcdb390d2aea3dc7708dff';
const LEGACY_ID = '7a0c1e2b-5d3f-4c1a-9e8b-2f4a6c8d0e1f';
const LEGACY_NAME = 'session-2025-11-03T01-41-7a0c1e2b.json';
const MAIN_ID = '5f0c2d1e-8a9b-4c7d-b6e5-0a1b2c3d4e5f';
const RESUMED_ID = '3c4d5e6f-7081-4920-a3b4-c5d6e7f80910';

let tmp: string;
let store: Store;

const freshStore = (name: string) => migratedStore(tmp, name);
const run = (root: string, s: Store = store, extra: Partial<IngestTreeOptions> = {}) =>
  backfillInto(s, root, extra);

interface Raw {
  messages: Array<{
    type: string;
    tokens?: { input: number; output: number; cached: number; thoughts?: number; tool?: number } | null;
  }>;
}
const tokensOf = (raws: Raw[]) => {
  const t = { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 };
  for (const m of raws.flatMap((r) => r.messages))
    if (m.tokens) {
      t.input += m.tokens.input - m.tokens.cached + (m.tokens.tool ?? 0);
      t.output += m.tokens.output + (m.tokens.thoughts ?? 0);
      t.cacheRead += m.tokens.cached;
    }
  return t;
};

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'ct-gemini-'));
  store = await freshStore('a');
});
afterEach(async () => {
  await store.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('ingest of Gemini CLI sessions', () => {
  it('makes one session of a JSON session and its subagent: prompts, tools, tokens, title, agent', async () => {
    const r = await run(path.join(fixtures, 'json'));
    expect(r.failed).toEqual([]);
    expect(r.sessions).toBe(1);
    const s = await summaryOf(store, LEGACY_ID);
    const dir = path.join(fixtures, 'json', HASH, 'chats');
    const main = JSON.parse(await readFile(path.join(dir, LEGACY_NAME), 'utf8')) as Raw;
    const sub = JSON.parse(
      await readFile(path.join(dir, LEGACY_ID, '4e3d2c1b-aaaa-4bbb-8ccc-0123456789ab.json'), 'utf8'),
    ) as Raw;
    expect(s).toMatchObject({
      title: 'Fix the login token length check',
      titleSource: 'ai',
      models: ['gemini-2.5-pro', 'gemini-2.5-flash'],
      subagents: 1,
      cwd: null,
      firstActivity: '2025-11-03T01:41:02.940Z',
      tokens: tokensOf([main, sub]),
      toolCallsByName: { read_file: 1, run_shell_command: 2, replace: 1 },
    });
    expect(s.counts).toMatchObject({ prompts: 4, toolCalls: 4, toolErrors: 1, images: 1, malformed: 0 });
    expect(s.counts.assistantMessages).toBe(
      [...main.messages, ...sub.messages].filter((m) => m.type === 'gemini').length,
    );
    const cursor = await store.docs.getLocal<SessionCursor>(cursorId(LEGACY_ID));
    expect(cursor?.init.agent).toBe('gemini');
    // The raw file is kept byte for byte.
    const object = await store.objects.get(`${LEGACY_ID}/transcript.jsonl`);
    const bytes: Buffer[] = [];
    for await (const c of object!) bytes.push(c as Buffer);
    expect(Buffer.concat(bytes).equals(await readFile(path.join(dir, LEGACY_NAME)))).toBe(true);
  });

  it('reads a JSONL session: its cwd from .project_root, a rewind undone, the subagent linked', async () => {
    const r = await run(path.join(fixtures, 'jsonl'));
    expect(r.failed).toEqual([]);
    const s = await summaryOf(store, MAIN_ID);
    expect(s).toMatchObject({
      cwd: '/home/dev/my-app',
      project: 'my-app',
      title: 'Map the reading-list app and its API',
      subagents: 1,
      toolCallsByName: { glob: 1, codebase_investigator: 1, grep_search: 1 },
    });
    expect(s.counts).toMatchObject({ prompts: 2, toolCalls: 3, toolErrors: 0 });
    expect(s.models[0]).toBe('gemini-3-pro-preview');
    const entries = await storedEntries(store, MAIN_ID);
    expect(entries.filter((e) => e.file === 'transcript.jsonl')).toHaveLength(13);
  });

  it('gives, for a JSON file saved three times as it grows, what one clean read gives, and no duplicate', async () => {
    const full = JSON.parse(
      await readFile(path.join(fixtures, 'json', HASH, 'chats', LEGACY_NAME), 'utf8'),
    ) as {
      messages: unknown[];
    };
    const chats = path.join(tmp, 'gemini', 'tmp', HASH, 'chats');
    await mkdir(chats, { recursive: true });
    const file = path.join(chats, LEGACY_NAME);
    // Gemini CLI's own writes: the whole conversation, pretty-printed, each time.
    const save = async (n: number, second: number) => {
      await writeFile(file, JSON.stringify({ ...full, messages: full.messages.slice(0, n) }, null, 2));
      const at = new Date(Date.UTC(2025, 10, 3, 2, 0, second));
      await utimes(file, at, at);
    };
    const root = path.join(tmp, 'gemini', 'tmp');
    for (const [n, second] of [
      [3, 1],
      [8, 2],
      [full.messages.length, 3],
    ] as const) {
      await save(n, second);
      const r = await run(root);
      expect(r.failed).toEqual([]);
    }
    const clean = await freshStore('clean');
    try {
      await run(root, clean);
      const [a, b] = [await snapshotStore(store), await snapshotStore(clean)];
      expect([...a.docs.keys()].sort()).toEqual([...b.docs.keys()].sort());
      expect(a).toEqual(b);
      const entries = await storedEntries(store, LEGACY_ID);
      expect(entries).toHaveLength(17);
      expect(new Set(entries.map((e) => e.index)).size).toBe(entries.length);
    } finally {
      await clean.close();
    }
    // Unchanged since: nothing read.
    const again = await run(root);
    expect(again.changedFiles).toBe(0);
  });

  it('empties what a rewind removed from a JSONL file, and reads a touched but equal file as unchanged', async () => {
    const root = path.join(tmp, 'tree');
    await cp(path.join(fixtures, 'jsonl'), root, { recursive: true });
    const file = path.join(root, 'my-app', 'chats', 'session-2026-05-11T13-22-5f0c2d1e.jsonl');
    await run(root);
    const before = await storedEntries(store, MAIN_ID);
    const u2 = 'e1000000-0007-4000-8000-000000000007';
    await writeFile(file, `${await readFile(file, 'utf8')}${JSON.stringify({ $rewindTo: u2 })}\n`);
    const r = await run(root);
    expect(r.entries).toBeGreaterThan(0);
    const after = (await storedEntries(store, MAIN_ID)).filter((e) => e.file === 'transcript.jsonl');
    expect(after.map((e) => e.kind)).toEqual([
      'user',
      'gemini',
      'gemini:tool_results',
      'user:function_response',
      'gemini',
      'ai-title',
    ]);
    expect(before.length).toBeGreaterThan(after.length);
    expect((await summaryOf(store, MAIN_ID)).counts.prompts).toBe(1);
    // Same bytes, new mtime: read, found equal by its hash, nothing written.
    const now = new Date();
    await utimes(file, now, now);
    const touched = await run(root);
    expect(touched.changedFiles).toBe(1);
    expect(touched.docsWritten).toBe(0);
  });

  it('reads a resumed session from the .jsonl Gemini CLI copied its .json into, and says nothing of the .json', async () => {
    const r = await run(path.join(fixtures, 'resumed'));
    expect(r.failed).toEqual([]);
    expect(r.sessions).toBe(1);
    const s = await summaryOf(store, RESUMED_ID);
    expect(s.counts.prompts).toBe(2);
    expect(s.title).toBe('Add a health route');
    const cursor = await store.docs.getLocal<SessionCursor>(cursorId(RESUMED_ID));
    expect(cursor?.files['transcript.jsonl']?.path).toMatch(/\.jsonl$/);
  });

  it('counts the likely secrets of a rewritten file whole each time, never twice', async () => {
    const full = JSON.parse(
      await readFile(path.join(fixtures, 'json', HASH, 'chats', LEGACY_NAME), 'utf8'),
    ) as {
      messages: Array<{ type: string; content: unknown }>;
    };
    const github = plantedSecrets().find((p) => p.rule === 'github')!;
    const chats = path.join(tmp, 'gemini', 'tmp', HASH, 'chats');
    await mkdir(chats, { recursive: true });
    const file = path.join(chats, LEGACY_NAME);
    const root = path.join(tmp, 'gemini', 'tmp');
    // The last user prompt pastes a token; Gemini CLI writes the whole file again with each message.
    const messages = full.messages.map((m, i) =>
      i === 3 && m.type === 'user' ? { ...m, content: `Fix it and run the whole suite, ${github.text}` } : m,
    );
    for (const [n, second] of [
      [4, 1],
      [messages.length, 2],
    ] as const) {
      await writeFile(file, JSON.stringify({ ...full, messages: messages.slice(0, n) }, null, 2));
      const at = new Date(Date.UTC(2025, 10, 3, 2, 0, second));
      await utimes(file, at, at);
      await run(root);
      expect((await summaryOf(store, LEGACY_ID)).secrets).toMatchObject({ total: 1, byRule: { github: 1 } });
    }
    const marked = (await storedEntries(store, LEGACY_ID)).filter((e) => e.secrets);
    expect(marked.map((e) => e.secrets)).toEqual([{ github: 1 }]);
    // The count keeps no secret: only rule ids and numbers are stored.
    expect(JSON.stringify(await summaryOf(store, LEGACY_ID))).not.toContain(github.secret);
  });

  it('keeps bad files as malformed entries, and names a file without a session id', async () => {
    const root = path.join(tmp, 'bad');
    await cp(path.join(fixtures, 'bad'), root, { recursive: true });
    // Settled long ago: the half-written ends are final.
    const old = new Date('2025-11-04T00:00:00Z');
    for (const f of [
      'p/chats/session-2025-11-03T01-41-0badf11e.json',
      'r/chats/session-2026-05-11T13-22-0badf120.jsonl',
    ])
      await utimes(path.join(root, f), old, old);
    await writeFile(path.join(root, 'q', 'chats', 'session-2025-11-03T01-41-0badf11f.json'), '[1, 2]');
    await utimes(path.join(root, 'q', 'chats', 'session-2025-11-03T01-41-0badf11f.json'), old, old);
    const r = await run(root);
    expect(r.failed.map((f) => [path.basename(f.file), f.error])).toEqual([
      ['session-2025-11-03T01-41-0badf11f.json', 'the file names no session id'],
    ]);
    const truncated = await summaryOf(store, LEGACY_ID);
    expect(truncated.counts).toMatchObject({ entries: 1, malformed: 1 });
    const jsonl = await summaryOf(store, '0badf120-0000-4000-8000-000000000000');
    expect(jsonl.counts).toMatchObject({ entries: 3, malformed: 2, prompts: 1 });
  });
});
