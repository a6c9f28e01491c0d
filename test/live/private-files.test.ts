/**
 * The history is private (issue 42, src/config/private-files.ts): under the usual umask 022, every
 * file `transcripts` writes in the data dir — the database with its WAL and SHM, the objects, the
 * hook's log and outbox — and every bundle `export` writes is the owner's alone (0600, directories
 * 0700). An instance from before (its files 0644, directories 0755) is reported by `doctor` and
 * `install`, and repaired by `serve` at start, which says so in its log.
 */
import { appendFileSync, chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { looseModes } from '../../src/config/private-files.js';
import { backfillCorpus, runCli, startTestServer, type TestServer } from '../support/api-server.js';
import { callHook, hookEnv } from './play.js';

const SID = 'private-files-session';
let umaskBefore: number;
let server: TestServer;
let root: string;
let dataDir: string;
let transcript: string;

/** Every path under `dir` with its permission bits, `dir` itself first. */
function modes(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  const visit = (p: string) => {
    const st = lstatSync(p);
    out.set(path.relative(dir, p) || '.', st.mode & 0o777);
    if (st.isDirectory()) for (const n of readdirSync(p)) visit(path.join(p, n));
  };
  visit(dir);
  return out;
}

function expectPrivate(dir: string): Map<string, number> {
  const found = modes(dir);
  for (const [p, mode] of found) {
    const isDir = lstatSync(path.join(dir, p)).isDirectory();
    expect(mode.toString(8), `${p} in ${dir}`).toBe(isDir ? '700' : '600');
  }
  return found;
}

const stopPayload = () =>
  JSON.stringify({ session_id: SID, hook_event_name: 'Stop', transcript_path: transcript, cwd: '/w' });

beforeAll(async () => {
  // The usual umask of a login shell; every child below inherits it.
  umaskBefore = process.umask(0o022);
  server = await startTestServer({ args: ['--no-watch'], env: { CT_SPOOL_REPLAY_MS: '0' } });
  root = server.root;
  dataDir = path.join(root, 'ct', 'data');
  transcript = path.join(root, 'home', '.claude', 'projects', 'p', `${SID}.jsonl`);
  mkdirSync(path.dirname(transcript), { recursive: true });
  appendFileSync(
    transcript,
    `${JSON.stringify({ type: 'user', sessionId: SID, uuid: 'u0', timestamp: '2025-07-01T10:00:00.000Z', message: { role: 'user', content: 'hello' } })}\n`,
  );
}, 120_000);

afterAll(async () => {
  await server?.stop();
  process.umask(umaskBefore);
});

describe('private files under umask 022', () => {
  it('the store, its WAL, the objects, the hook log: 0600 in 0700 directories', async () => {
    expect((await backfillCorpus(server)).code).toBe(0);
    const hook = await callHook(stopPayload(), hookEnv(server.env, '2025-07-01T10:00:01.000Z'));
    expect(hook.code, hook.stderr).toBe(0);
    const found = expectPrivate(dataDir);
    for (const p of ['.', 'transcripts.db', 'transcripts.db-wal', 'objects', 'live', 'live/hook.log'])
      expect(found.has(p), `${p} among ${[...found.keys()].join(', ')}`).toBe(true);
    expect([...found.keys()].some((p) => p.startsWith(`objects${path.sep}`) && p.endsWith('.jsonl'))).toBe(
      true,
    );
  });

  it('a bundle written by export', async () => {
    const bundle = path.join(root, 'bundle');
    const r = await runCli(['export', bundle, '--webapi', server.url], { env: server.env });
    expect(r.code, r.stderr).toBe(0);
    const found = expectPrivate(bundle);
    expect(found.has('manifest.json')).toBe(true);
  });

  it("the hook's outbox, written while the API is down", async () => {
    await server.stop({ keep: true });
    const hook = await callHook(stopPayload(), hookEnv(server.env, '2025-07-01T10:00:02.000Z'));
    expect(hook.code, hook.stderr).toBe(0);
    const found = expectPrivate(dataDir);
    expect([...found.keys()].some((p) => p.startsWith(path.join('live', 'spool')))).toBe(true);
  });

  it('an older instance: doctor and install report it, serve repairs it at start and says so', async () => {
    // What an earlier version left under umask 022.
    for (const p of modes(dataDir).keys()) {
      const isDir = lstatSync(path.join(dataDir, p)).isDirectory();
      chmodSync(path.join(dataDir, p), isDir ? 0o755 : 0o644);
    }
    const loose = looseModes(dataDir).length;
    expect(loose).toBeGreaterThan(5);

    const doctor = await runCli(['doctor', '--json'], { env: server.env });
    const check = JSON.parse(doctor.stdout).checks.find((c: { id: string }) => c.id === 'data-modes');
    expect(check).toMatchObject({
      status: 'warn',
      fix: `chmod -R go-rwx ${dataDir} (transcripts serve also does it when it starts)`,
    });
    expect(check.message).toMatch(
      new RegExp(`^${loose} paths in the data dir other users can reach: ${dataDir} \\(0755\\)`),
    );

    const install = await runCli(['install', '--dry-run', '--no-hooks'], { env: server.env });
    expect(install.code, install.stderr).toBe(0);
    expect(install.stdout).toContain(
      `warning: ${loose} paths in ${dataDir} other users can reach: ${dataDir} (0755)`,
    );

    server = await startTestServer({ root, args: ['--no-watch'], env: { CT_SPOOL_REPLAY_MS: '0' } });
    expect(server.logs()).toContain(
      `file modes: made ${loose} paths in ${dataDir} private (0700 directories, 0600 files`,
    );
    expectPrivate(dataDir);
    const again = await runCli(['doctor', '--json'], { env: server.env });
    expect(JSON.parse(again.stdout).checks.find((c: { id: string }) => c.id === 'data-modes').status).toBe(
      'ok',
    );
  });
});
