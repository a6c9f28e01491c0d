import { execFile } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { SessionFile } from '../ingest/ingest-session.js';
import { watchTranscripts } from './watcher.js';

describe('watchTranscripts', () => {
  it('coalesces a burst of appends into few ingests per session, and reports removals', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'ct-watch-'));
    const calls: Array<{ sessionId: string; files: SessionFile[] }> = [];
    const removed: string[] = [];
    const w = watchTranscripts({
      root,
      delayMs: 100,
      ingest: async (sessionId, files) => {
        calls.push({ sessionId, files });
      },
      removed: async (p) => {
        removed.push(p);
      },
      log: () => undefined,
    });
    await w.ready;
    const main = path.join(root, 'proj', 's1.jsonl');
    const agent = path.join(root, 'proj', 's1', 'subagents', 'agent-a.jsonl');
    mkdirSync(path.dirname(agent), { recursive: true });
    writeFileSync(main, '');
    for (let i = 0; i < 30; i++) appendFileSync(main, `{"n":${i}}\n`);
    writeFileSync(agent, '{"sessionId":"s1"}\n');
    writeFileSync(path.join(root, 'proj', 'ignored.txt'), 'x');
    await waitFor(() =>
      calls.flatMap((c) => c.files.map((f) => f.objectName)).includes('subagents/agent-a.jsonl'),
    );
    await w.idle();
    expect(calls.every((c) => c.sessionId === 's1')).toBe(true);
    expect(calls.length).toBeLessThanOrEqual(4);
    expect(new Set(calls.flatMap((c) => c.files.map((f) => f.path)))).toEqual(new Set([main, agent]));

    rmSync(main);
    await waitFor(() => removed.includes(main));
    await w.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('records appends under a linked project folder by the path under the root, as backfill reads it', async () => {
    const tmp = mkdtempSync(path.join(tmpdir(), 'ct-watch-'));
    const root = path.join(tmp, 'projects');
    const moved = path.join(tmp, 'other-disk', 'proj');
    mkdirSync(root);
    mkdirSync(moved, { recursive: true });
    writeFileSync(path.join(moved, 's2.jsonl'), '{"n":0}\n');
    symlinkSync(moved, path.join(root, 'proj'));
    symlinkSync(root, path.join(moved, 'loop')); // a link back up: watched once, no endless walk
    const calls: Array<{ sessionId: string; files: SessionFile[] }> = [];
    const w = watchTranscripts({
      root,
      delayMs: 50,
      ingest: async (sessionId, files) => {
        calls.push({ sessionId, files });
      },
      removed: async () => undefined,
      log: () => undefined,
    });
    await w.ready;
    appendFileSync(path.join(moved, 's2.jsonl'), '{"n":1}\n');
    await waitFor(() => calls.length > 0);
    await w.idle();
    expect(calls[0]).toMatchObject({ sessionId: 's2' });
    expect(new Set(calls.flatMap((c) => c.files.map((f) => f.path)))).toEqual(
      new Set([path.join(root, 'proj', 's2.jsonl')]),
    );
    await w.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('records a transcript not named by its id in the session its lines name, or the one it was read into before', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'ct-watch-'));
    mkdirSync(path.join(root, 'proj'));
    const id = '967e501d-aa48-4eab-a21f-b17058bd78f0';
    const calls: Array<{ sessionId: string; path: string }> = [];
    const removed: Array<[string, string | null]> = [];
    const known = path.join(root, 'proj', 'read-before.jsonl');
    const w = watchTranscripts({
      root,
      delayMs: 50,
      ingest: async (sessionId, files) => {
        for (const f of files) calls.push({ sessionId, path: f.path });
      },
      removed: async (p, sessionId) => {
        removed.push([p, sessionId]);
      },
      knownSession: async (p) => (p === known ? 'session' : undefined),
      log: () => undefined,
    });
    await w.ready;
    const renamed = path.join(root, 'proj', 'session.jsonl');
    writeFileSync(renamed, `{"type":"user","sessionId":"${id}"}\n`);
    writeFileSync(known, `{"type":"user","sessionId":"${id}"}\n`);
    await waitFor(() => calls.length >= 2);
    await w.idle();
    expect(calls).toEqual(
      expect.arrayContaining([
        { sessionId: id, path: renamed },
        { sessionId: 'session', path: known },
      ]),
    );
    rmSync(known);
    await waitFor(() => removed.length > 0);
    expect(removed).toEqual([[known, 'session']]);
    await w.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('reports every file of folders made in a burst by another process, and watches those folders', async () => {
    // chokidar reads a new folder before it watches it; another process writing meanwhile (here
    // with pauses of a few ms, as a copy or Claude Code does) used to lose a file now and then,
    // or a whole folder whose later files then went unseen.
    const root = mkdtempSync(path.join(tmpdir(), 'ct-watch-'));
    const reported = new Set<string>();
    const w = watchTranscripts({
      root,
      delayMs: 20,
      rewalkDelayMs: 100,
      ingest: async (_sessionId, files) => {
        for (const f of files) reported.add(f.path);
      },
      removed: async () => undefined,
      log: () => undefined,
    });
    await w.ready;
    const folders = 60;
    const write = (names: string[]) => `
      const fs = require('node:fs'), path = require('node:path');
      const pause = () => { const until = Date.now() + Math.random() * 8; while (Date.now() < until); };
      for (let i = 0; i < ${folders}; i++) {
        const dir = path.join(process.argv[1], 'proj-' + i);
        fs.mkdirSync(dir, { recursive: true });
        pause();
        fs.mkdirSync(path.join(dir, 's' + i), { recursive: true });
        pause();
        fs.mkdirSync(path.join(dir, 's' + i, 'subagents'), { recursive: true });
        for (const name of ${JSON.stringify(names)}) {
          pause();
          fs.writeFileSync(path.join(dir, name.replace(/S/g, 's' + i)), '{"sessionId":"s' + i + '"}\\n');
        }
      }`;
    const expected = (names: string[]) =>
      Array.from({ length: folders }, (_, i) =>
        names.map((n) => path.join(root, `proj-${i}`, n.replace(/S/g, `s${i}`))),
      ).flat();
    const first = ['S.jsonl', 'S/subagents/agent-a.jsonl'];
    await promisify(execFile)(process.execPath, ['-e', write(first), root]);
    await waitFor(() => expected(first).every((f) => reported.has(f)));
    await w.idle();
    // Files written later into those folders are seen too: every folder is watched.
    const later = ['S/subagents/agent-b.jsonl'];
    await promisify(execFile)(process.execPath, ['-e', write(later), root]);
    await waitFor(() => expected(later).every((f) => reported.has(f)));
    await w.close();
    rmSync(root, { recursive: true, force: true });
  });
});

async function waitFor(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}
