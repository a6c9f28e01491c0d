import { execFileSync } from 'node:child_process';
import {
  appendFile,
  cp,
  mkdir,
  mkdtemp,
  readFile,
  rm,
  stat,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ChunkDoc } from '../core/documents.js';
import type { Store } from '../store/contract.js';
import { claudeCorpusDir, corpusDir } from '../../test/support/paths.js';
import { snapshotStore } from '../../test/support/store-snapshot.js';
import { treeIndexId, type IngestTreeOptions } from './ingest-tree.js';
import { UNFINISHED_LINE_WAIT_MS } from './ingest-session.js';
import { backfillInto, migratedStore, summaryOf } from '../../test/support/ingest-store.js';

/** The session claude-code-pomodoro-timer.jsonl's lines name (the file is not named by it). */
const POMODORO = '36d9e1bc-63bf-4e97-8a3e-2b20ba8583f2';

let tmp: string;
let store: Store;

const freshStore = (name: string) => migratedStore(tmp, name);
const run = (root: string, s: Store = store, extra: Partial<IngestTreeOptions> = {}) =>
  backfillInto(s, root, extra);

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'ct-ingest-'));
  store = await freshStore('a');
});
afterEach(async () => {
  await store.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('ingestTree over the whole corpus', () => {
  it('stores every transcript byte for byte and a valid summary per session', async () => {
    const result = await run(claudeCorpusDir);
    expect(result.failed).toEqual([]);
    expect(result.files).toBeGreaterThanOrEqual(33);

    // The 4 MB session: the object is the file, byte for byte.
    const id = '1b2c0332-e2dc-459f-88b9-1aad6e941e18';
    const file = path.join(claudeCorpusDir, 'SWORDIntel__claude-backups', `${id}.jsonl`);
    const obj = await store.objects.get(`${id}/transcript.jsonl`);
    const chunks: Buffer[] = [];
    for await (const c of obj!) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).equals(await readFile(file))).toBe(true);

    const summary = await summaryOf(store, id);
    expect(summary.counts.entries).toBe(812);
    expect(summary.transcriptBytes).toBe((await stat(file)).size);
    expect(summary.hostname).toBe('test-host');
    expect(summary.source).toBe('backfill');
    expect(summary.provenance).toBe('backfilled');
  });

  it('attaches subagent files to their parent session and never lists them as sessions', async () => {
    await run(claudeCorpusDir);
    const parent = 'cc1df109-4282-4321-8248-8bbcd471da78';
    const summary = await summaryOf(store, parent);
    expect(summary.subagents).toBe(1);
    expect(summary.files.map((f) => f.name)).toContain('subagents/agent-a0a2928875cb36a92.jsonl');
    const objects = (await store.objects.list(parent)).map((o) => o.key);
    expect(objects).toContain(`${parent}/subagents/agent-a0a2928875cb36a92.jsonl`);
    expect(await store.docs.get('summary:agent-a0a2928875cb36a92')).toBeNull();

    // Older layout: a project-level agent-*.jsonl carrying its parent's sessionId.
    const older = await summaryOf(store, '5c0375b4-57a5-4f26-b12d-d022ee4e51b7');
    expect(older.files.map((f) => f.name)).toContain('subagents/agent-test-hash-123.jsonl');
    expect(await store.docs.get('summary:agent-test-hash-123')).toBeNull();
  });

  it('keeps malformed lines as flagged entries, and the unfinished last line of a settled file', async () => {
    await run(claudeCorpusDir);
    const malformed = await store.views.transcriptPage('malformed', 'transcript.jsonl', {
      offset: 0,
      limit: 100,
    });
    expect(malformed.total).toBe(7);
    expect(malformed.entries.filter((e) => e.malformed)).toHaveLength(3);

    // The backup cut short mid-line: how its last line reads depends on the file's age, and a
    // fresh clone's files are minutes old, so the test sets the age itself on a copy.
    const truncatedId = 'fb4f7a6e-9d92-4292-8743-3a43a187bb1b';
    const project = path.join(tmp, 'truncated', 'proj');
    await mkdir(project, { recursive: true });
    const copy = path.join(project, `${truncatedId}.jsonl`);
    await cp(path.join(claudeCorpusDir, 'SWORDIntel__claude-backups', `${truncatedId}.jsonl`), copy);
    const other = await freshStore('truncated-store');
    const total = async () =>
      (await other.views.transcriptPage(truncatedId, 'transcript.jsonl', { offset: 0, limit: 1 })).total;

    // Just written: the unfinished last line may still be completed, so it waits.
    await utimes(copy, new Date(), new Date());
    await run(path.join(tmp, 'truncated'), other);
    expect(await total()).toBe(444);

    // Unchanged for longer than the wait: it never will be, and it is kept as a malformed entry.
    const settledAt = new Date(Date.now() - UNFINISHED_LINE_WAIT_MS - 60_000);
    await utimes(copy, settledAt, settledAt);
    await run(path.join(tmp, 'truncated'), other);
    expect(await total()).toBe(445);
    const last = await other.views.transcriptPage(truncatedId, 'transcript.jsonl', { offset: 444, limit: 1 });
    expect(last.entries[0]).toMatchObject({ index: 444, malformed: true, role: 'other' });
    const summary = await summaryOf(other, truncatedId);
    expect(summary.counts.malformed).toBe(1);
    await other.close();
  });

  it('does almost nothing on an unchanged tree', async () => {
    const first = await run(claudeCorpusDir);
    expect(first.docsWritten).toBeGreaterThan(0);
    const again = await run(claudeCorpusDir);
    expect(again.changedFiles).toBe(0);
    expect(again.bytesRead).toBe(0);
    expect(again.docsWritten).toBe(0);
  });

  it('a dry run reports and writes nothing', async () => {
    const dry = await run(claudeCorpusDir, store, { dryRun: true });
    expect(dry.changedFiles).toBe(dry.files);
    expect(dry.bytesPending).toBeGreaterThan(10_000_000);
    expect((await store.stats()).documents).toBe(0);
  });
});

describe('appending to a transcript', () => {
  it('ingests only the new bytes, extends the open chunk and equals a clean run', async () => {
    const root = path.join(tmp, 'tree');
    await cp(path.join(claudeCorpusDir, 'yoavf__ai-sessions'), path.join(root, 'proj'), { recursive: true });
    const file = path.join(root, 'proj', 'claude-code-pomodoro-timer.jsonl');
    const full = await readFile(file);
    const lines = full.toString('utf8').split('\n').filter(Boolean);
    // Start with the first 50 lines plus half of the 51st (still being written).
    const head = lines.slice(0, 50).join('\n') + '\n';
    const partial = lines[50]!.slice(0, Math.floor(lines[50]!.length / 2));
    await writeFile(file, head + partial);

    const r1 = await run(root);
    expect(r1.entries).toBe(50);
    const sid = POMODORO;
    expect((await store.views.transcriptPage(sid, 'transcript.jsonl', { offset: 0, limit: 1 })).total).toBe(
      50,
    );

    // Unchanged, the half-written line still waits; once the file has settled, it is taken as
    // the malformed entry it has become, and a re-run finds nothing more to do.
    expect((await run(root)).entries).toBe(0);
    const settledAt = new Date(Date.now() - UNFINISHED_LINE_WAIT_MS - 60_000);
    const copy = path.join(tmp, 'settled-tree');
    await cp(root, copy, { recursive: true });
    const other = await freshStore('settled');
    expect((await run(copy, other)).entries).toBe(50);
    await utimes(path.join(copy, 'proj', 'claude-code-pomodoro-timer.jsonl'), settledAt, settledAt);
    expect((await run(copy, other)).entries).toBe(1);
    const tail = await other.views.transcriptPage(sid, 'transcript.jsonl', { offset: 50, limit: 5 });
    expect(tail.entries).toEqual([expect.objectContaining({ index: 50, malformed: true })]);
    expect((await run(copy, other)).entries).toBe(0);
    await other.close();

    // Finish the line and append the rest.
    await writeFile(file, full);
    const r2 = await run(root);
    expect(r2.entries).toBe(lines.length - 50);
    expect(r2.bytesRead).toBe(full.length - Buffer.byteLength(head));

    const chunkIds = (
      await store.docs.allDocs({ startkey: `chunk:${sid}:`, endkey: `chunk:${sid}:\uffff` })
    ).rows.map((r) => r.id);
    expect(new Set(chunkIds).size).toBe(chunkIds.length);

    // Append one more line (a copy of an existing one) and compare with a clean run.
    await appendFile(file, lines[lines.length - 1]! + '\n');
    const r3 = await run(root);
    expect(r3.entries).toBe(1);

    const clean = await freshStore('clean');
    await run(root, clean);
    const [a, b] = [await snapshotStore(store), await snapshotStore(clean)];
    await clean.close();
    expect([...a.docs.keys()].sort()).toEqual([...b.docs.keys()].sort());
    for (const [id, doc] of a.docs) expect(doc, id).toBe(b.docs.get(id));
    expect(a.objects).toEqual(b.objects);

    const page = await store.views.transcriptPage(sid, 'transcript.jsonl', { offset: 0, limit: 1000 });
    expect(page.total).toBe(lines.length + 1);
    expect(page.entries.map((e) => e.index)).toEqual([...Array(lines.length + 1).keys()]);
    const chunks = await Promise.all(chunkIds.map((id) => store.docs.get(id)));
    for (const c of chunks as unknown as ChunkDoc[]) expect(c.entryCount).toBe(c.entries!.length);
  });
});

describe('a file that no longer continues what was stored', () => {
  it('keeps the stored history when the file shrinks or is replaced, and continues it when put back whole', async () => {
    const root = path.join(tmp, 'tree');
    await cp(path.join(claudeCorpusDir, 'yoavf__ai-sessions'), path.join(root, 'proj'), { recursive: true });
    const file = path.join(root, 'proj', 'claude-code-pomodoro-timer.jsonl');
    const sid = POMODORO;
    const full = await readFile(file);
    const lines = full.toString('utf8').split('\n').filter(Boolean);
    expect((await run(root)).kept).toEqual([]);
    const stored = await snapshotStore(store);
    const entries = async () =>
      (await store.views.transcriptPage(sid, 'transcript.jsonl', { offset: 0, limit: 1 })).total;
    expect(await entries()).toBe(lines.length);

    // Cut to half, then emptied, then another transcript under the same name, longer than the
    // stored one: none of it is read, and nothing stored changes.
    const other = Buffer.concat([full.subarray(1), Buffer.from(`${lines[0]}\n`)]);
    for (const [content, reason] of [
      [full.subarray(0, Math.floor(full.length / 2)), /shorter than the \d+ stored/],
      [Buffer.alloc(0), /it is 0 bytes, shorter than/],
      [other, /first \d+ bytes are no longer those stored/],
    ] as const) {
      await writeFile(file, content);
      const r = await run(root);
      expect(r.failed).toEqual([]);
      expect(r.kept).toEqual([{ file, reason: expect.stringMatching(reason) }]);
      const now = await snapshotStore(store);
      expect(now.objects).toEqual(stored.objects);
      expect([...now.docs.keys()].sort()).toEqual([...stored.docs.keys()].sort());
      for (const [id, doc] of now.docs)
        if (!id.startsWith('_local/')) expect(doc, id).toBe(stored.docs.get(id));
      expect(await entries()).toBe(lines.length);
      expect((await store.views.search({ q: 'pomodoro', offset: 0, limit: 5 })).total).toBeGreaterThan(0);
    }

    // The file put back whole, and grown: continued from where it was.
    const extra = `${lines[0]}\n`;
    await writeFile(file, Buffer.concat([full, Buffer.from(extra)]));
    const r = await run(root);
    expect(r.kept).toEqual([]);
    expect(r.entries).toBe(1);
    expect(await entries()).toBe(lines.length + 1);
    const obj = await store.objects.get(`${sid}/transcript.jsonl`);
    const chunks: Buffer[] = [];
    for await (const c of obj!) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).equals(Buffer.concat([full, Buffer.from(extra)]))).toBe(true);
  });
});

describe('transcripts not named by their session id', () => {
  it('reads a renamed copy or an export into the session its lines name, with its subagent files', async () => {
    // claude-history's export (session.jsonl beside agents/agent-*.jsonl), and, in one tree, a
    // Claude Code and a Codex fixture both called small.jsonl.
    const r = await run(corpusDir);
    expect(r.failed).toEqual([]);
    const exported = await summaryOf(store, '967e501d-aa48-4eab-a21f-b17058bd78f0');
    expect(exported.files.map((f) => f.name).sort()).toEqual([
      'subagents/agent-aae161c.jsonl',
      'subagents/agent-acompact-a94287.jsonl',
      'subagents/agent-aprompt_suggestion-aafb27.jsonl',
      'transcript.jsonl',
    ]);
    expect(exported.counts.entries).toBeGreaterThanOrEqual(591);
    expect(await store.docs.get('summary:session')).toBeNull();
    // Both small.jsonl files are sessions: the Codex one by its session_meta id, the Claude Code
    // fixture (whose lines name no uuid) by its stem.
    expect((await summaryOf(store, '019fc8be-3658-7ca3-9e29-000000000000')).counts.entries).toBe(118);
    expect((await summaryOf(store, 'small')).counts.entries).toBe(89);
    expect((await summaryOf(store, POMODORO)).counts.entries).toBe(127);
  });

  it('reads one of two copies that name the same session, and says why the other is not read', async () => {
    const src = path.join(claudeCorpusDir, 'yoavf__ai-sessions', 'claude-code-pomodoro-timer.jsonl');
    const root = path.join(tmp, 'copies');
    await mkdir(path.join(root, 'a'), { recursive: true });
    await mkdir(path.join(root, 'b'), { recursive: true });
    await cp(src, path.join(root, 'a', 'pomodoro.jsonl'));
    await cp(src, path.join(root, 'b', 'pomodoro-backup.jsonl'));
    const r = await run(root);
    expect(r.failed).toEqual([
      {
        file: path.join(root, 'b', 'pomodoro-backup.jsonl'),
        error: `not read: it would be transcript.jsonl of session ${POMODORO}, which is read from ${path.join(root, 'a', 'pomodoro.jsonl')}`,
      },
    ]);
    expect((await summaryOf(store, POMODORO)).counts.entries).toBe(127);

    // A later file claiming the stored session with other bytes: kept out, naming the first file.
    const later = path.join(tmp, 'later');
    await mkdir(path.join(later, 'p'), { recursive: true });
    const lines = (await readFile(src, 'utf8')).split('\n').filter(Boolean);
    await writeFile(path.join(later, 'p', 'other.jsonl'), lines.slice(1).join('\n') + '\n');
    const again = await run(later);
    expect(again.kept).toEqual([
      {
        file: path.join(later, 'p', 'other.jsonl'),
        reason: expect.stringContaining(
          `session ${POMODORO} was read from ${path.join(root, 'a', 'pomodoro.jsonl')}`,
        ),
      },
    ]);
    expect((await summaryOf(store, POMODORO)).counts.entries).toBe(127);
  });

  it('keeps a file in the session an earlier version read it into', async () => {
    // Before ids were read from content, session.jsonl was the session "session": a store that
    // holds it so goes on appending there rather than splitting the transcript in two.
    const root = path.join(tmp, 'old');
    await mkdir(path.join(root, 'p'), { recursive: true });
    const file = path.join(root, 'p', 'session.jsonl');
    const src = path.join(
      claudeCorpusDir,
      'randlee__claude-history',
      'claude-history-simple',
      'session.jsonl',
    );
    await cp(src, file);
    await store.docs.putLocal(treeIndexId('test-host', root), {
      v: 1,
      files: { [file]: { size: 0, mtimeMs: 0, sessionId: 'session' } },
    });
    await run(root);
    expect((await summaryOf(store, 'session')).counts.entries).toBe(591);
    expect(await store.docs.get('summary:967e501d-aa48-4eab-a21f-b17058bd78f0')).toBeNull();
  });
});

describe('links in the tree', () => {
  it('follows linked folders and files, walks a folder reached twice once, and passes over what is no file', async () => {
    const root = path.join(tmp, 'tree');
    const proj = path.join(root, 'proj');
    await mkdir(proj, { recursive: true });
    // A project folder moved to another disk and linked back.
    const moved = path.join(tmp, 'other-disk', 'happy');
    await cp(path.join(claudeCorpusDir, 'slopus__happy'), moved, { recursive: true });
    await symlink(moved, path.join(root, 'happy'));
    // One transcript linked in, a link back up the tree, a dangling link, a FIFO (never opened).
    const linkedId = 'd3ad4cdc-5657-435d-98fa-0035d53e383d';
    const linked = path.join(claudeCorpusDir, 'chiphuyen__sniffly', `${linkedId}.jsonl`);
    await symlink(linked, path.join(proj, `${linkedId}.jsonl`));
    await symlink(root, path.join(proj, 'loop'));
    await symlink(path.join(tmp, 'nowhere.jsonl'), path.join(proj, 'dangling.jsonl'));
    execFileSync('mkfifo', [path.join(proj, 'fifo.jsonl')]);

    const r = await run(root);
    expect(r.failed).toEqual([]);
    expect(r.files).toBe(5); // the four moved transcripts and the linked one, each once
    expect(r.sessions).toBe(5);
    const summary = await summaryOf(store, linkedId);
    expect(summary.transcriptBytes).toBe((await stat(linked)).size);
    const obj = await store.objects.get(`${linkedId}/transcript.jsonl`);
    const chunks: Buffer[] = [];
    for await (const c of obj!) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).equals(await readFile(linked))).toBe(true);
    expect((await summaryOf(store, 'f0b4ca22-f8e4-4c07-a952-8302b638e125')).counts.entries).toBe(187);

    // Appending through the link's target is seen through the link.
    await appendFile(
      path.join(moved, 'rate-limit.jsonl'),
      (await readFile(path.join(moved, 'rate-limit.jsonl'), 'utf8')).split('\n')[0] + '\n',
    );
    const again = await run(root);
    expect(again).toMatchObject({ files: 5, changedFiles: 1, entries: 1, failed: [] });
  });
});
