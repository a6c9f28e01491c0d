/**
 * `transcripts doctor` through the built CLI, in a sandbox: a temporary HOME (with a Claude Code
 * projects tree holding one corpus transcript) and CT_HOME, a real server over them that also
 * holds the whole corpus, the hooks registered in that HOME's settings.json. Healthy, every check
 * is ok; then one thing at a time is broken and the right line turns warn or fail, with its fix
 * and the exit code, and is mended again. Never reaches the real ~/.claude, systemd or launchd:
 * HOME is a temp dir and the environment has no user bus.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  backfillCorpus,
  binPath,
  cleanEnv,
  getJson,
  runCli,
  startTestServer,
  type TestServer,
} from '../support/api-server.js';
import { claudeCorpusDir } from '../support/paths.js';
import { MIGRATIONS } from '../../src/migrations/index.js';

const SID = '5c0375b4-57a5-4f26-b12d-d022ee4e51b7';
let s: TestServer;
let root: string;
let ctHome: string;
let home: string;
let transcript: string;

/** The user's shell: this CT_HOME and HOME, no WEBAPI_*, no user bus. */
const userEnv = (extra: Record<string, string | undefined> = {}) =>
  cleanEnv({ CT_HOME: ctHome, HOME: home, DBUS_SESSION_BUS_ADDRESS: undefined, ...extra });

interface Check {
  id: string;
  status: 'ok' | 'warn' | 'fail' | 'skip';
  title: string;
  message: string;
  fix?: string;
}

async function doctor(args: string[] = [], extra: Record<string, string | undefined> = {}) {
  const r = await runCli(['doctor', '--json', ...args], { env: userEnv(extra) });
  const report = JSON.parse(r.stdout) as { checks: Check[]; summary: Record<string, number> };
  const byId = new Map(report.checks.map((c) => [c.id, c]));
  return { code: r.code, report, check: (id: string) => byId.get(id)!, stderr: r.stderr };
}

/** Every check that is not ok, as `id: status message` (what a failing expectation prints). */
const notOk = (checks: Check[]) =>
  checks.filter((c) => c.status !== 'ok').map((c) => `${c.id}: ${c.status} ${c.message}`);

/** Runs the registered hook command as Claude Code would: through /bin/sh, in its own environment. */
function runHook(payload: object, extra: Record<string, string> = {}) {
  const settings = JSON.parse(readFileSync(path.join(home, '.claude', 'settings.json'), 'utf8'));
  const command = settings.hooks.Stop[0].hooks[0].command as string;
  const r = spawnSync('/bin/sh', ['-c', command], {
    env: cleanEnv({ HOME: home, ...extra }),
    input: JSON.stringify(payload),
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
}

const stopPayload = () => ({
  session_id: SID,
  hook_event_name: 'Stop',
  transcript_path: transcript,
  cwd: home,
});

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const p = (srv.address() as { port: number }).port;
      srv.close(() => resolve(p));
    });
  });
}

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'ct-doctor-'));
  ctHome = path.join(root, 'ct');
  home = path.join(root, 'home');
  // The user's own Claude Code tree: one corpus transcript, imported by the server at first start.
  const project = path.join(home, '.claude', 'projects', '-home-me-viewer');
  mkdirSync(project, { recursive: true });
  transcript = path.join(project, `${SID}.jsonl`);
  copyFileSync(path.join(claudeCorpusDir, 'd-kimuson__claude-code-viewer', `${SID}.jsonl`), transcript);
  const past = new Date(Date.now() - 3600_000);
  utimesSync(transcript, past, past);
  // No periodic spool replay: a backlog stays until a hook call delivers it.
  s = await startTestServer({ root, env: { CT_SPOOL_REPLAY_MS: '0' } });
  for (let i = 0; i < 600; i++) {
    if ((await getJson(s, '/api/health')).body.import.state === 'done') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  expect((await backfillCorpus(s)).code).toBe(0);
  const hooks = await runCli(['hooks', 'install'], { env: userEnv() });
  expect(hooks.code, hooks.stderr).toBe(0);
  runHook(stopPayload());
}, 180_000);

afterAll(async () => {
  await s?.stop({ keep: true });
  rmSync(root, { recursive: true, force: true });
});

describe('transcripts doctor', () => {
  it('a healthy setup: every check ok, exit 0; the text report says so line by line', async () => {
    const d = await doctor();
    expect(notOk(d.report.checks)).toEqual([]);
    expect(d.code).toBe(0);
    expect(d.report.summary).toEqual({ ok: d.report.checks.length, warn: 0, fail: 0, skip: 0 });
    expect(d.check('api').message).toContain(
      `${s.url} (from the installed instance's ${ctHome}/config/instance.env) answers`,
    );
    expect(d.check('instance-env').message).toContain(`names ${s.url}, which answers`);
    expect(d.check('hooks').message).toContain('all 11 events registered');
    expect(d.check('hook-calls').message).toMatch(/1 of the last 1 calls reached the API/);
    expect(d.check('recording').message).toContain(`${transcript} (changed`);
    expect(d.check('recording').message).toContain('is stored to its last line');
    expect(d.check('claude-tree').message).toContain(`the server at ${s.url} imports it`);

    const text = await runCli(['doctor'], { env: userEnv({ COLUMNS: '100' }) });
    expect(text.code).toBe(0);
    const lines = text.stdout.trimEnd().split('\n');
    // Lines wrap to the width; only a path longer than the room left runs past it, whole.
    for (const l of lines)
      if ([...l].length > 100) expect(l.split(' ').at(-1)!.length, l).toBeGreaterThan(50);
    for (const section of ['This machine', 'The API', 'Live recording']) expect(lines).toContain(section);
    expect(text.stdout).toMatch(/^ {2}ok {4}API {11}http:\/\/127\.0\.0\.1:\d+ \(from the installed/m);
    expect(text.stdout).not.toMatch(/^ {2}(warn|fail|skip) /m);
    expect(lines.at(-1)).toBe(`${d.report.checks.length} ok: all well`);
  });

  it('says which trees the server watches; a server here with --no-watch: watch warns, exit 0', async () => {
    const d = await doctor();
    expect(d.check('watch')).toMatchObject({
      status: 'ok',
      message:
        `watching ${path.join(home, '.claude', 'projects')}, ${path.join(home, '.codex', 'sessions')} once it exists, ` +
        `${path.join(home, '.gemini', 'tmp')} once it exists ` +
        `and ${path.join(home, '.local', 'share', 'opencode')} once it exists`,
    });
    const off = await startTestServer({ args: ['--no-watch', '--no-import'] });
    try {
      const o = await doctor(['--webapi', off.url]);
      expect(o.code).toBe(0);
      expect(o.check('watch')).toMatchObject({ status: 'warn', title: 'watching' });
      expect(o.check('watch').message).toMatch(
        /^off \(serve --no-watch\): .*\.claude\/projects, .*\.codex\/sessions, .*\.gemini\/tmp and .*\/opencode not watched/,
      );
      expect(o.check('watch').fix).toMatch(/^restart the server without --no-watch/);
      const text = await runCli(['doctor', '--webapi', off.url], { env: userEnv({ COLUMNS: '200' }) });
      expect(text.stdout).toMatch(/^ {2}warn {2}watching +off \(serve --no-watch\)/m);
    } finally {
      await off.stop();
    }
  });

  it('pending migrations after `migrate down`: schema fails with `transcripts migrate up`, exit 1', async () => {
    expect((await runCli(['migrate', 'down', '--webapi', s.url], { env: userEnv() })).code).toBe(0);
    try {
      const d = await doctor();
      expect(d.code).toBe(1);
      expect(d.check('schema')).toMatchObject({ status: 'fail', fix: 'transcripts migrate up' });
      const last = MIGRATIONS.at(-1)!;
      expect(d.check('schema').message).toMatch(
        new RegExp(
          `^version ${last.version - 1} of ${last.version}: 1 pending migration \\(${last.version} ${last.name}\\)`,
        ),
      );
      expect(notOk(d.report.checks).map((l) => l.split(':')[0])).toEqual(['schema']);
      const text = await runCli(['doctor'], { env: userEnv() });
      expect(text.code).toBe(1);
      expect(text.stdout).toMatch(
        new RegExp(`^ {2}fail {2}schema {8}version ${last.version - 1} of ${last.version}`, 'm'),
      );
      expect(text.stdout).toMatch(/^ {22}fix: transcripts migrate up$/m);
      expect(text.stdout.trimEnd().split('\n').at(-1)).toMatch(/^1 failed, \d+ ok$/);
    } finally {
      expect((await runCli(['migrate', 'up', '--webapi', s.url], { env: userEnv() })).code).toBe(0);
    }
  });

  it('hooks not registered: warn with `transcripts hooks install`, exit 0', async () => {
    expect((await runCli(['hooks', 'uninstall'], { env: userEnv() })).code).toBe(0);
    try {
      const d = await doctor();
      expect(d.code).toBe(0);
      expect(d.check('hooks')).toMatchObject({ status: 'warn', fix: 'transcripts hooks install' });
      expect(d.check('hooks').message).toMatch(/^not registered in .*settings\.json/);
      expect(d.check('hook-dirs').status).toBe('skip');
      expect(notOk(d.report.checks).map((l) => l.split(':')[0])).toEqual(['hooks', 'hook-dirs']);
    } finally {
      expect((await runCli(['hooks', 'install'], { env: userEnv() })).code).toBe(0);
    }
  });

  it('hooks that run a binary that is gone: fail with `transcripts hooks install`, exit 1', async () => {
    const gone = "'/nonexistent/bin/node' '/nonexistent/transcripts/bin/transcripts.js' hook";
    expect((await runCli(['hooks', 'install', '--command', gone], { env: userEnv() })).code).toBe(0);
    try {
      const d = await doctor();
      expect(d.code).toBe(1);
      expect(d.check('hooks')).toMatchObject({ status: 'fail', fix: 'transcripts hooks install' });
      expect(d.check('hooks').message).toContain(
        'runs /nonexistent/bin/node, /nonexistent/transcripts/bin/transcripts.js, which does not exist',
      );
    } finally {
      expect((await runCli(['hooks', 'install'], { env: userEnv() })).code).toBe(0);
    }
    expect((await doctor()).code).toBe(0);
  });

  it('hooks that carry another CT_HOME: hook dirs warn, naming both data dirs and the fix', async () => {
    const other = path.join(root, 'other-ct');
    expect((await runCli(['hooks', 'install'], { env: userEnv({ CT_HOME: other }) })).code).toBe(0);
    try {
      const d = await doctor();
      expect(d.code).toBe(0);
      expect(d.check('hook-dirs')).toMatchObject({
        status: 'warn',
        fix: `CT_HOME=${ctHome} transcripts hooks install (from the shell whose CT_HOME is the instance's)`,
      });
      expect(d.check('hook-dirs').message).toContain(`the hooks record into ${other}/data`);
      expect(d.check('hook-dirs').message).toContain(`their command sets CT_HOME=${other}`);
      expect(d.check('hook-dirs').message).toContain(`this CLI uses ${ctHome}/data`);
    } finally {
      expect((await runCli(['hooks', 'install'], { env: userEnv() })).code).toBe(0);
    }
  });

  it('a spool backlog: spool warns (the API answers, so a hook call delivers it), exit 0', async () => {
    runHook(stopPayload(), { WEBAPI_PORT: String(await closedPort()) });
    const d = await doctor();
    expect(d.code).toBe(0);
    expect(d.check('spool').status).toBe('warn');
    expect(d.check('spool').message).toMatch(
      new RegExp(`^1 hook record \\(.*\\) wait in ${ctHome}/data/live/spool`),
    );
    expect(d.check('spool').fix).toMatch(/next hook call/);
    expect(d.check('hook-calls')).toMatchObject({ status: 'ok' });
    expect(d.check('hook-calls').message).toMatch(/\(.*, Stop\) was spooled: .*; the API answers now/);
    // The next call reaches the API: it replays the backlog first; all is well again.
    runHook(stopPayload());
    const after = await doctor();
    expect(notOk(after.report.checks)).toEqual([]);
    expect(after.check('hook-calls').message).toMatch(/was replayed$/);
  });

  it('an installed service that runs a node that is gone: fail with `transcripts install`', async () => {
    const unit = path.join(home, '.config', 'systemd', 'user', 'transcripts.service');
    mkdirSync(path.dirname(unit), { recursive: true });
    const text = (node: string) =>
      [
        '# Written by `transcripts install`; `transcripts uninstall` removes it.',
        '[Service]',
        `ExecStart="${node}" "${binPath}" "serve" "--host" "127.0.0.1" "--port" "${s.port}"`,
        `Environment="CT_HOME=${ctHome}"`,
        '',
      ].join('\n');
    writeFileSync(unit, text('/nonexistent/node'));
    try {
      const d = await doctor();
      expect(d.code).toBe(1);
      expect(d.check('service')).toMatchObject({ status: 'fail', fix: 'transcripts install' });
      expect(d.check('service').message).toBe(
        `${unit} runs /nonexistent/node, which does not exist: the service cannot start`,
      );
      // With a node that exists, systemd is asked (read-only); without a user bus it cannot say.
      writeFileSync(unit, text(process.execPath));
      const asked = await doctor();
      expect(asked.check('service').status, asked.check('service').message).toBe(
        process.platform === 'linux' ? 'ok' : 'skip',
      );
    } finally {
      rmSync(unit);
    }
  });

  it.runIf(process.getuid?.() !== 0)(
    'a data dir this user cannot write: fail with the chmod that fixes it',
    async () => {
      const data = path.join(ctHome, 'data');
      chmodSync(data, 0o500);
      try {
        const d = await doctor();
        expect(d.code).toBe(1);
        expect(d.check('data-dir')).toMatchObject({ status: 'fail', fix: `chmod -R u+rwX ${data}` });
      } finally {
        chmodSync(data, 0o700);
      }
    },
  );

  it('a stale instance.env: instance.env fails (and the API it leads to), even when --webapi finds the server', async () => {
    const file = path.join(ctHome, 'config', 'instance.env');
    const before = readFileSync(file, 'utf8');
    const port = await closedPort();
    writeFileSync(file, `WEBAPI_HOST=127.0.0.1\nWEBAPI_PORT=${port}\n`);
    try {
      const bare = await doctor();
      expect(bare.code).toBe(1);
      expect(bare.check('api').status).toBe('fail');
      expect(bare.check('api').message).toContain(`http://127.0.0.1:${port} (from the installed instance's`);
      expect(bare.check('api').message).toMatch(/nothing answers \(ECONNREFUSED\)/);
      expect(bare.check('instance-env').status).toBe('fail');
      expect(bare.check('instance-env').fix).toMatch(
        /^transcripts serve .*\(it writes instance\.env again at start\)$/,
      );

      const flagged = await doctor(['--webapi', s.url]);
      expect(flagged.code).toBe(1);
      expect(flagged.check('api').status).toBe('ok');
      expect(flagged.check('instance-env').status).toBe('fail');
      expect(flagged.check('instance-env').message).toContain(
        `names http://127.0.0.1:${port}, where nothing answers (ECONNREFUSED)`,
      );
      expect(flagged.check('instance-env').message).toContain(`this CLI uses ${s.url}`);
      expect(notOk(flagged.report.checks).map((l) => l.split(':')[0])).toEqual(['instance-env']);
    } finally {
      writeFileSync(file, before);
    }
  });

  it('the server stopped: the API fails with the command that starts it; what needs it is not checked; exit 1', async () => {
    await s.stop({ keep: true });
    const d = await doctor();
    expect(d.code).toBe(1);
    expect(d.check('api')).toMatchObject({ status: 'fail' });
    expect(d.check('api').message).toMatch(/nothing answers \(ECONNREFUSED\)$/);
    expect(d.check('api').fix).toBe(
      'transcripts serve (or `transcripts install` to run it as a service at login)',
    );
    expect(d.check('instance-env').status).toBe('fail');
    expect(d.check('health').status).toBe('skip');
    expect(d.check('recording').status).toBe('skip');
    // The machine's own checks still run.
    for (const id of ['node', 'config-dir', 'data-dir', 'hooks', 'hook-dirs', 'spool'])
      expect(d.check(id).status, id).toBe('ok');
    const text = await runCli(['doctor'], { env: userEnv() });
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^ {2}fail {2}API {11}/m);
    expect(text.stdout).toMatch(
      /^ {2}skip {2}the rest {6}version, store, schema, search index, first import and watching not checked/m,
    );
  });
});
