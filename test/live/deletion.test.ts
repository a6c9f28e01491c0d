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
