/**
 * Scans say what they skipped (issue 42): a project folder or a transcript the user cannot read,
 * and a symbolic link that loops, are named by `backfill` (which then exits 1), by the first-start
 * import in the server's log, and by `doctor` (the claude-tree check warns and lists them).
 *
 * Permission bits do not stop root, and the tests run as root here: the CLI and the server are
 * then run as the unprivileged user `nobody` through `setpriv`, so a folder of mode 000 really is
 * unreadable to them. Run as another user, they run directly. As root without `setpriv`, only the
 * looping link (unreadable to anyone) is tested, and the test says so.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binPath, cleanEnv, type CliResult } from '../support/api-server.js';
import { claudeCorpusDir } from '../support/paths.js';

const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;
const hasSetpriv = spawnSync('setpriv', ['--version']).status === 0;
/** Whether permission bits bind whoever runs the CLI below. */
const permissionsBind = !isRoot || hasSetpriv;
if (!permissionsBind)
  console.log(
    'skip: running as root without setpriv, so mode-000 paths stay readable; only the looping link is tested',
  );

const DEMO = '5c0375b4-57a5-4f26-b12d-d022ee4e51b7';
let root: string;
let home: string;
let projects: string;

/** `node bin/transcripts.js …` as `nobody` when root (through setpriv), else as this user. */
function command(args: string[]): [string, string[]] {
  const node = [binPath, ...args];
  return isRoot && hasSetpriv
    ? [
        'setpriv',
        [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--', process.execPath, ...node],
      ]
    : [process.execPath, node];
}

const env = () => cleanEnv({ HOME: home, CT_HOME: path.join(home, 'ct'), WEBAPI_PORT: '0' });

function run(args: string[]): Promise<CliResult> {
  const [cmd, argv] = command(args);
  return new Promise((resolve) => {
    const child = spawn(cmd, argv, { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(() => {
  // Under /tmp itself: the test run's own temp dir is 0700, which `nobody` could not even enter.
  root = mkdtempSync(path.join(isRoot && hasSetpriv ? '/tmp' : tmpdir(), 'ct-unreadable-'));
  chmodSync(root, 0o755);
  home = path.join(root, 'home');
  projects = path.join(home, '.claude', 'projects');
  const readable = path.join(projects, '-home-me-readable');
  mkdirSync(readable, { recursive: true, mode: 0o755 });
  copyFileSync(
    path.join(claudeCorpusDir, 'd-kimuson__claude-code-viewer', `${DEMO}.jsonl`),
    path.join(readable, `${DEMO}.jsonl`),
  );
  // A folder nobody but its owner (root) may list, with a transcript in it.
  const closed = path.join(projects, '-home-me-closed');
  mkdirSync(closed);
  copyFileSync(
    path.join(claudeCorpusDir, 'd-kimuson__claude-code-viewer', '1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl'),
    path.join(closed, '1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl'),
  );
  chmodSync(closed, 0o000);
  // A transcript its reader may not open, in a folder it may list.
  const locked = path.join(projects, '-home-me-locked');
  mkdirSync(locked, { mode: 0o755 });
  const lockedFile = path.join(locked, '00000000-0000-4000-8000-00000000a11c.jsonl');
  copyFileSync(path.join(readable, `${DEMO}.jsonl`), lockedFile);
  chmodSync(lockedFile, 0o000);
  // A link to itself: unreadable to anyone, root included.
  symlinkSync('loop.jsonl', path.join(readable, 'loop.jsonl'));
  // Everything above is root's (or this user's); `nobody` gets a home it can write in.
  for (const d of [root, home, path.join(home, '.claude'), projects, readable, locked]) chmodSync(d, 0o755);
  if (isRoot && hasSetpriv) {
    mkdirSync(path.join(home, 'ct'));
    chownSync(path.join(home, 'ct'), NOBODY, NOBODY);
  }
});

afterAll(() => {
  chmodSync(path.join(projects, '-home-me-closed'), 0o755);
  rmSync(root, { recursive: true, force: true });
});

/** A running `serve` (as `nobody` when root), its log, and how to stop it. */
async function serve(): Promise<{ url: string; log: () => string; stop: () => Promise<void> }> {
  const [cmd, argv] = command(['serve', '--no-watch']);
  const child = spawn(cmd, argv, { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const url = await new Promise<string>((resolve, reject) => {
    const check = () => {
      const m = / UI (http:\/\/\S+)\/app\//.exec(out);
      if (m) resolve(m[1]!);
    };
    child.stdout.on('data', check);
    void exited.then(() => reject(new Error(`serve exited:\n${out}`)));
  });
  return {
    url,
    log: () => out,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

describe('unreadable paths in a transcript tree', () => {
  it('the first-start import names them in the log; backfill names them and exits 1; doctor lists them', async () => {
    const server = await serve();
    try {
      await expect.poll(() => server.log(), { timeout: 60_000, interval: 200 }).toMatch(/import: done/);
      const log = server.log();
      expect(log).toContain(`import:   ${path.join(projects, '-home-me-readable', 'loop.jsonl')}: ELOOP`);
      if (permissionsBind) {
        expect(log).toMatch(/import: 3 path\(s\) could not be read, nothing of them stored:/);
        expect(log).toContain(
          `import:   ${path.join(projects, '-home-me-closed')}: EACCES: permission denied`,
        );
        expect(log).toContain(
          `import:   ${path.join(projects, '-home-me-locked', '00000000-0000-4000-8000-00000000a11c.jsonl')}: EACCES: permission denied`,
        );
      }

      const b = await run(['backfill', '--webapi', server.url, '--host', 'test-host']);
      expect(b.code, b.stderr).toBe(1);
      expect(b.stdout).toMatch(/^backfill: 1 files /m);
      expect(b.stderr).toContain(`${path.join(projects, '-home-me-readable', 'loop.jsonl')}: ELOOP`);
      if (permissionsBind) {
        expect(b.stderr).toContain('3 path(s) could not be read, nothing of them stored:');
        expect(b.stderr).toContain(`  ${path.join(projects, '-home-me-closed')}: EACCES: permission denied`);
        expect(b.stderr).toContain(
          `-home-me-locked${path.sep}00000000-0000-4000-8000-00000000a11c.jsonl: EACCES`,
        );
      }

      const d = await run(['doctor', '--json', '--webapi', server.url]);
      const tree = JSON.parse(d.stdout).checks.find((c: { id: string }) => c.id === 'claude-tree');
      expect(tree.status).toBe('warn');
      expect(tree.message).toContain(`${path.join(projects, '-home-me-readable', 'loop.jsonl')} (ELOOP`);
      if (permissionsBind) {
        expect(tree.message).toMatch(
          /3 paths this user cannot read, so backfill, the import and the watcher skip them/,
        );
        expect(tree.message).toContain(
          `${path.join(projects, '-home-me-closed')} (EACCES: permission denied)`,
        );
      }
    } finally {
      await server.stop();
    }
  });
});
