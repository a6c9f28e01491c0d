/**
 * `transcripts serve` as a newcomer meets it: migrations applied and said so, the first-start
 * import of ~/.claude/projects in the background with progress in /api/health, instance.env for
 * clients to find it, no second import on restart, --no-import, graceful shutdown on SIGTERM.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanEnv, getJson, runCli, startTestServer, type TestServer } from '../support/api-server.js';
import { claudeCorpusDir, corpusDir } from '../support/paths.js';
import { POMODORO } from '../support/corpus-sessions.js';
import { latestVersion } from '../../src/migrations/runner.js';

const LATEST = latestVersion();

let servers: TestServer[] = [];

afterEach(async () => {
  for (const s of servers) await s.stop();
  servers = [];
});

/** A temp root whose HOME holds a small ~/.claude/projects. */
function rootWithProjects(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'ct-serve-'));
  const projects = path.join(root, 'home', '.claude', 'projects');
  mkdirSync(path.join(projects, '-Users-chip-dev-ai-music'), { recursive: true });
  cpSync(path.join(claudeCorpusDir, 'chiphuyen__sniffly'), path.join(projects, '-Users-chip-dev-ai-music'), {
    recursive: true,
  });
  cpSync(path.join(claudeCorpusDir, 'yoavf__ai-sessions'), path.join(projects, '-Users-yoav-dev-pomodoro'), {
    recursive: true,
  });
  return root;
}

async function waitFor<T>(fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting; last value ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('transcripts serve', () => {
  it('imports ~/.claude/projects on first start, in the background, and only once', async () => {
    const root = rootWithProjects();
    const first = await startTestServer({ root });
    servers.push(first);
    expect(first.logs()).toContain(`migrations: applied ${latestVersion()} pending`);
    const health = await waitFor(
      () => getJson(first, '/api/health'),
      (r) => r.body.import.state === 'done',
    );
    expect(health.body.import).toMatchObject({
      state: 'done',
      filesDone: health.body.import.filesTotal,
      failedFiles: 0,
    });
    expect(health.body.import.sessions).toBeGreaterThanOrEqual(3);
    expect(first.logs()).toMatch(/import: done/);
    const sessions = await getJson(first, '/api/sessions');
    expect(sessions.body.sessions.map((s: { id: string }) => s.id)).toContain(POMODORO);
    expect(sessions.body.sessions[0].provenance).toBe('backfilled');

    // instance.env tells clients where it listens; a CLI without --webapi finds it there.
    const instanceEnv = readFileSync(path.join(root, 'ct', 'config', 'instance.env'), 'utf8');
    expect(instanceEnv).toContain(`WEBAPI_PORT=${first.port}`);
    const cli = await runCli(['backfill', '--dir', path.join(root, 'home', '.claude', 'projects')], {
      env: { ...first.env, WEBAPI_PORT: '' },
    });
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toMatch(/0 documents written/);

    expect(await first.stop({ keep: true })).toBe(0);
    expect(first.logs()).toMatch(/SIGTERM: shutting down[\s\S]*stopped/);
    servers = [];

    const second = await startTestServer({ root });
    servers.push(second);
    expect(second.logs()).toMatch(new RegExp(`schema version ${LATEST} is current`));
    const again = await waitFor(
      () => getJson(second, '/api/health'),
      (r) => r.body.import.state !== 'idle',
    );
    expect(again.body.import.state).toBe('skipped');
    expect(again.body.import.reason).toMatch(/already imported/);
  });

  it("imports Codex's ~/.codex/sessions too, after ~/.claude/projects, with its progress in the same counts", async () => {
    const root = rootWithProjects();
    const home = path.join(root, 'home');
    const rollout = 'rollout-2026-03-13T10-33-37-019ce50a-d285-7a52-b98a-6a3a66a48547.jsonl';
    const day = path.join(home, '.codex', 'sessions', '2026', '03', '13');
    mkdirSync(day, { recursive: true });
    cpSync(path.join(corpusDir, 'codex', 'aaaAlexanderaaa__cchistory', rollout), path.join(day, rollout));
    // No watcher: the import alone must bring Codex's history in (the watcher's catch-up would too).
    const server = await startTestServer({ root, args: ['--no-watch'] });
    servers.push(server);
    const health = await waitFor(
      () => getJson(server, '/api/health'),
      (r) => r.body.import.state === 'done',
    );
    const claude = path.join(home, '.claude', 'projects');
    const codex = path.join(home, '.codex', 'sessions');
    expect(health.body.import).toMatchObject({ roots: [claude, codex], root: codex, failedFiles: 0 });
    const files = (readdirSync(claude, { recursive: true }) as string[]).filter((f) =>
      f.endsWith('.jsonl'),
    ).length;
    expect(health.body.import.filesTotal).toBe(files + 1);
    expect(health.body.import.filesDone).toBe(files + 1);
    expect(server.logs()).toContain(`importing ${claude} and ${codex} in the background`);
    const codexSession = await getJson(server, '/api/sessions/019ce50a-d285-7a52-b98a-6a3a66a48547');
    expect(codexSession.status).toBe(200);
    expect(codexSession.body.provenance).toBe('backfilled');
  });

  it('--no-import leaves the history alone', async () => {
    const root = rootWithProjects();
    const server = await startTestServer({ root, args: ['--no-import'] });
    servers.push(server);
    const h = await waitFor(
      () => getJson(server, '/api/health'),
      (r) => r.body.import.state !== 'idle',
    );
    expect(h.body.import).toMatchObject({ state: 'skipped', reason: expect.stringMatching(/--no-import/) });
    expect(h.body.counts.sessions).toBe(0);
  });

  it('keeps its data in CT_HOME', async () => {
    const server = await startTestServer();
    servers.push(server);
    expect(existsSync(path.join(server.root, 'ct', 'data'))).toBe(true);
    expect(existsSync(path.join(server.root, 'home', '.local'))).toBe(false);
  });

  it.each([
    [
      { CT_S3_BUCKET: 'b', CT_S3_FORCE_PATH_STYLE: 'yesplease' },
      /CT_S3_FORCE_PATH_STYLE must be true or false, got "yesplease"/,
    ],
    [{ CT_SPOOL_MAX_BYTES: '64MB' }, /CT_SPOOL_MAX_BYTES must be a whole number of bytes, got "64MB"/],
  ])(
    'refuses a malformed setting as a configuration error (exit 2), naming it: %o',
    async (setting, message) => {
      const root = mkdtempSync(path.join(tmpdir(), 'ct-bad-setting-'));
      const r = await runCli(['serve', '--no-import', '--no-watch'], {
        env: cleanEnv({ CT_HOME: path.join(root, 'ct'), HOME: root, WEBAPI_PORT: '0', ...setting }),
      });
      rmSync(root, { recursive: true, force: true });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
    },
  );

  it('hands instance.env back to the server that was there before, when a second one on its config dir stops', async () => {
    const first = await startTestServer({ args: ['--no-import', '--no-watch'] });
    servers.push(first);
    const file = path.join(first.root, 'ct', 'config', 'instance.env');
    expect(readFileSync(file, 'utf8')).toContain(`WEBAPI_PORT=${first.port}`);
    const second = await startTestServer({ root: first.root, args: ['--no-import', '--no-watch'] });
    expect(second.logs()).toContain(`another transcripts serve answers at http://127.0.0.1:${first.port}`);
    expect(readFileSync(file, 'utf8')).toContain(`WEBAPI_PORT=${second.port}`);
    await second.stop({ keep: true });
    expect(readFileSync(file, 'utf8'), second.logs()).toContain(`WEBAPI_PORT=${first.port}`);
    const status = await runCli(['status'], { env: { ...first.env, WEBAPI_PORT: '' } });
    expect(status.code, status.stderr).toBe(0);

    // The first one stopped (an installed service that is down for now): a server started and
    // stopped meanwhile still gives the file back, rather than leaving its own dead port there.
    await first.stop({ keep: true });
    const third = await startTestServer({ root: first.root, args: ['--no-import', '--no-watch'] });
    expect(readFileSync(file, 'utf8')).toContain(`WEBAPI_PORT=${third.port}`);
    await third.stop({ keep: true });
    expect(readFileSync(file, 'utf8'), third.logs()).toContain(`WEBAPI_PORT=${first.port}`);
  });

  it('reports a port in use as a usage error', async () => {
    const server = await startTestServer();
    servers.push(server);
    const r = await runCli(['serve', '--port', String(server.port), '--no-import'], {
      env: { ...server.env, CT_HOME: path.join(server.root, 'other') },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/already in use/);
  });
});
