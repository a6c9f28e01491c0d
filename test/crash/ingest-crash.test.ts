/**
 * Crash safety: a child process ingesting the corpus is killed (SIGKILL) at several moments; a
 * final uninterrupted run must then reach exactly the state of a clean run — the same documents
 * (revision markers aside) and byte-identical objects, nothing duplicated, nothing lost.
 */
import { spawn } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { claudeCorpusDir, repoRoot } from '../support/paths.js';
import { snapshotStore, type StoreSnapshot } from '../support/store-snapshot.js';

const child = path.join(repoRoot, 'dist/test/support/ingest-child.js');
let tmp: string;
let root: string;

function runChild(dataDir: string, killAfterMs?: number): Promise<{ code: number | null; killed: boolean }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [child, dataDir, root], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    proc.stderr.on('data', (d) => (stderr += d));
    let killed = false;
    const timer =
      killAfterMs === undefined
        ? undefined
        : setTimeout(() => {
            killed = proc.kill('SIGKILL');
          }, killAfterMs);
    proc.on('error', reject);
    proc.on('exit', (code) => {
      if (timer) clearTimeout(timer);
      if (!killed && code !== 0) reject(new Error(`ingest child failed (${code}): ${stderr}`));
      else resolve({ code, killed });
    });
  });
}

async function snapshot(dataDir: string): Promise<StoreSnapshot> {
  const store = await openStore({ dataDir });
  try {
    return await snapshotStore(store);
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'ct-crash-'));
  // Two copies of the corpus under different project folders: more sessions, longer run.
  root = path.join(tmp, 'projects');
  await cp(claudeCorpusDir, path.join(root, 'copy-a'), { recursive: true });
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('ingest killed mid-way', () => {
  it('reaches the clean-run state after being killed several times', async () => {
    const cleanDir = path.join(tmp, 'clean');
    await runChild(cleanDir);
    const clean = await snapshot(cleanDir);
    expect(clean.docs.size).toBeGreaterThan(100);

    const crashDir = path.join(tmp, 'crashed');
    // Kill at increasing moments: during start-up and migrations, and several times mid-ingest.
    let kills = 0;
    for (const ms of [150, 300, 450, 600, 800, 1000, 1300]) {
      const r = await runChild(crashDir, ms);
      if (r.killed) kills++;
    }
    expect(kills).toBeGreaterThan(0);
    await runChild(crashDir);
    const after = await snapshot(crashDir);

    expect([...after.docs.keys()].sort()).toEqual([...clean.docs.keys()].sort());
    for (const [id, doc] of clean.docs) expect(after.docs.get(id), id).toBe(doc);
    expect(after.objects).toEqual(clean.objects);
  });
});
