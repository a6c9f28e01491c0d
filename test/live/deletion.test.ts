/**
 * Deletion detection: a transcript the instance holds that disappears from ~/.claude/projects
 * (Claude Code's cleanup) leaves its session stored and marked "kept after deletion" — noticed by
 * the watcher while running, and by the scan at start for deletions made while it was down. A
 * file that comes back clears the mark.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getJson, startTestServer, type TestServer } from '../support/api-server.js';
import { claudeCorpusDir } from '../support/paths.js';

const A = '1af7fc5e-8455-4414-9ccd-011d40f70b2a';
const B = 'f0b4ca22-f8e4-4c07-a952-8302b638e125';
const sources: Record<string, string> = {
  [A]: path.join(claudeCorpusDir, 'd-kimuson__claude-code-viewer', `${A}.jsonl`),
  [B]: path.join(claudeCorpusDir, 'slopus__happy', `${B}.jsonl`),
};

const root = mkdtempSync(path.join(tmpdir(), 'ct-deleted-'));
const projects = path.join(root, 'home', '.claude', 'projects', 'demo');
const fileOf = (id: string) => path.join(projects, `${id}.jsonl`);
let server: TestServer | undefined;

afterAll(async () => {
  await server?.stop();
  rmSync(root, { recursive: true, force: true });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const session = async (id: string) => (await getJson(server!, `/api/sessions/${id}`)).body;

describe('deletion detection', () => {
  it('keeps and marks a session whose transcript was deleted, and unmarks it when it returns', async () => {
    mkdirSync(projects, { recursive: true });
    for (const id of [A, B]) copyFileSync(sources[id]!, fileOf(id));
    server = await startTestServer({ root });
    await waitFor(async () => /watch: recording changes/.test(server!.logs()));
    expect((await session(A)).sourceDeleted).toBeNull();

    rmSync(fileOf(A));
    await waitFor(async () => (await session(A)).sourceDeleted !== null);
    const s = await session(A);
    expect(s.sourceDeleted).toMatchObject({ files: [{ path: fileOf(A), objectName: 'transcript.jsonl' }] });
    expect(Date.parse(s.sourceDeleted.detectedAt)).not.toBeNaN();
    // Nothing was lost: the transcript is all there.
    expect((await getJson(server, `/api/sessions/${A}/transcript?limit=1`)).body.total).toBe(
      s.counts.entries,
    );
    expect(server.logs()).toContain(`session ${A} is kept`);

    copyFileSync(sources[A]!, fileOf(A));
    await waitFor(async () => (await session(A)).sourceDeleted === null);
  });

  it('notices at start what was deleted while the server was down', async () => {
    await server!.stop({ keep: true });
    rmSync(fileOf(B));
    server = await startTestServer({ root });
    await waitFor(async () => (await session(B)).sourceDeleted !== null);
    expect((await session(B)).sourceDeleted.files).toEqual([
      { path: fileOf(B), objectName: 'transcript.jsonl' },
    ]);
    expect((await session(A)).sourceDeleted).toBeNull();
    expect(server.logs()).toMatch(/watch: 1 session\(s\) kept after their transcript was deleted/);
  });
});

describe('deletion detection of several files, and of a moved folder', () => {
  const C = 'cc1df109-4282-4321-8248-8bbcd471da78';
  const cchistory = path.join(claudeCorpusDir, 'aaaAlexanderaaa__cchistory');
  const agent = path.join(cchistory, C, 'subagents', 'agent-a0a2928875cb36a92.jsonl');
  const tree = mkdtempSync(path.join(tmpdir(), 'ct-deleted-many-'));
  const projectsDir = path.join(tree, 'home', '.claude', 'projects');
  let s: TestServer | undefined;
  afterAll(async () => {
    await s?.stop();
    rmSync(tree, { recursive: true, force: true });
  });
  const get = async (id: string) => (await getJson(s!, `/api/sessions/${id}`)).body;

  /** A project folder holding session C with two subagent files. */
  function writeProject(name: string): string {
    const dir = path.join(projectsDir, name);
    mkdirSync(path.join(dir, C, 'subagents'), { recursive: true });
    copyFileSync(path.join(cchistory, `${C}.jsonl`), path.join(dir, `${C}.jsonl`));
    for (const a of ['agent-a1.jsonl', 'agent-a2.jsonl'])
      copyFileSync(agent, path.join(dir, C, 'subagents', a));
    return dir;
  }

  it('marks every file of a session removed at once', async () => {
    const dir = writeProject('one');
    s = await startTestServer({ root: tree });
    await waitForOn(() => /watch: recording changes/.test(s!.logs()));
    await waitForOn(async () => (await get(C)).files?.length === 3);
    rmSync(dir, { recursive: true });
    await waitForOn(async () => (await get(C)).sourceDeleted?.files.length === 3);
    const names = (await get(C)).sourceDeleted.files.map((f: { objectName: string }) => f.objectName).sort();
    expect(names).toEqual(['subagents/agent-a1.jsonl', 'subagents/agent-a2.jsonl', 'transcript.jsonl']);
  });

  it('clears the mark when the removed files turn up in another folder (a folder moved or renamed)', async () => {
    // After the first test every file of C is marked; the same transcripts appear under a new name.
    writeProject('moved-here');
    await waitForOn(async () => (await get(C)).sourceDeleted === null);
    await s!.stop({ keep: true });
    s = await startTestServer({ root: tree });
    await waitForOn(() => /watch: recording changes/.test(s!.logs()));
    expect((await get(C)).sourceDeleted).toBeNull();
  });

  async function waitForOn(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (
      !(await Promise.resolve()
        .then(check)
        .catch(() => false))
    ) {
      if (Date.now() > deadline)
        throw new Error(`timed out waiting; the server said:\n${s?.logs().slice(-4000) ?? '(no server)'}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
});
