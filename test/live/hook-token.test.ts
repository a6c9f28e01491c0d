/**
 * The hook against a shared instance that needs CT_API_TOKEN, from a second machine: Claude Code
 * starts the hook with its own environment, which does not hold the token. `CT_API_TOKEN=…
 * transcripts hooks install` keeps the token in `<config>/api-token` (mode 600, not in
 * settings.json); the registered command, run through a shell with an environment that lacks the
 * token, then delivers its events — and the ones spooled before, while it had no token. The
 * environment's token still wins; `hooks uninstall` removes the stored one. A real server (the
 * built CLI), the hook run as Claude Code runs it.
 */
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, getJson, runCli, startTestServer, type TestServer } from '../support/api-server.js';

const TOKEN = 'shared-instance-token-0123456789';
const SID = 'hook-token-machine-b';

let server: TestServer;
/** The second machine: its own HOME and config dir, the API named in its instance.env. */
let machine: { home: string; settings: string; configDir: string; transcript: string };

beforeAll(async () => {
  server = await startTestServer({
    args: ['--no-watch'],
    env: { CT_API_TOKEN: TOKEN, CT_SPOOL_REPLAY_MS: '0' },
  });
  const home = mkdtempSync(path.join(tmpdir(), 'ct-machine-b-'));
  const configDir = path.join(home, '.config', 'transcripts');
  mkdirSync(configDir, { recursive: true });
  writeFileSync(path.join(configDir, 'instance.env'), `WEBAPI_HOST=127.0.0.1\nWEBAPI_PORT=${server.port}\n`);
  const transcript = path.join(home, '.claude', 'projects', 'p', `${SID}.jsonl`);
  mkdirSync(path.dirname(transcript), { recursive: true });
  appendFileSync(
    transcript,
    `${JSON.stringify({ type: 'user', sessionId: SID, uuid: 'u0', timestamp: '2025-07-01T10:00:00.000Z', message: { role: 'user', content: 'hello' } })}\n`,
  );
  machine = { home, settings: path.join(home, '.claude', 'settings.json'), configDir, transcript };
});

afterAll(async () => {
  await server?.stop();
  if (machine) rmSync(machine.home, { recursive: true, force: true });
});

/** Claude Code's environment on machine B: its HOME, no CT_API_TOKEN, no CT_HOME. */
const claudeEnv = (extra: Record<string, string> = {}) => cleanEnv({ HOME: machine.home, ...extra });

/** The command `hooks install` registered for an event, run the way Claude Code runs it. */
function runRegistered(event: string, env: Record<string, string>) {
  return runRegisteredIn(machine.settings, event, env);
}

/** The same, for the hooks registered in `settingsFile`. */
function runRegisteredIn(settingsFile: string, event: string, env: Record<string, string>) {
  const settings = JSON.parse(readFileSync(settingsFile, 'utf8'));
  const command = settings.hooks[event][0].hooks[0].command as string;
  const payload = JSON.stringify({
    session_id: SID,
    transcript_path: machine.transcript,
    cwd: '/w',
    hook_event_name: event,
    prompt: `prompt at ${event}`,
  });
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', command], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(payload);
  });
}

const lastLog = () =>
  JSON.parse(
    readFileSync(path.join(machine.home, '.local', 'share', 'transcripts', 'live', 'hook.log'), 'utf8')
      .trim()
      .split('\n')
      .at(-1)!,
  ) as { outcome: string; error?: string; replayed?: number };

async function storedEvents(): Promise<string[]> {
  const { status, body } = await getJson(
    server,
    `/api/store/docs?startkey=${encodeURIComponent(JSON.stringify(`event:${SID}:`))}&endkey=${encodeURIComponent(JSON.stringify(`event:${SID}:\uffff`))}&include_docs=true`,
    { headers: { authorization: `Bearer ${TOKEN}` } },
  );
  expect(status).toBe(200);
  return (body.rows as Array<{ doc: { event: string; reconstructed?: boolean } }>)
    .map((r) => r.doc)
    .filter((d) => d.reconstructed !== true)
    .map((d) => d.event)
    .sort();
}

describe('the hook on a second machine, against an instance with CT_API_TOKEN', () => {
  const tokenFile = () => path.join(machine.configDir, 'api-token');

  it('without the token anywhere, spools (a 401 is not the record’s fault)', async () => {
    const plain = await runCli(['hooks', 'install'], { env: claudeEnv() });
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).not.toMatch(/api-token/);
    expect(existsSync(tokenFile())).toBe(false);

    const r = await runRegistered('SessionStart', claudeEnv());
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(lastLog().outcome).toBe('spooled');
    expect(lastLog().error).toMatch(/401|token/i);
  });

  it('`CT_API_TOKEN=… hooks install` stores the token (mode 600), not in settings.json', async () => {
    const dry = await runCli(['hooks', 'install', '--dry-run'], { env: claudeEnv({ CT_API_TOKEN: TOKEN }) });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(
      `dry run: would store CT_API_TOKEN in ${tokenFile()} (mode 600) for the hook, for ${server.url}`,
    );
    expect(existsSync(tokenFile())).toBe(false);

    const r = await runCli(['hooks', 'install'], { env: claudeEnv({ CT_API_TOKEN: TOKEN }) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`stored CT_API_TOKEN in ${tokenFile()} (mode 600) for ${server.url}`);
    expect(readFileSync(tokenFile(), 'utf8')).toBe(`${TOKEN}\n${server.url}\n`);
    expect(statSync(tokenFile()).mode & 0o777).toBe(0o600);
    expect(readFileSync(machine.settings, 'utf8')).not.toContain(TOKEN);

    const again = await runCli(['hooks', 'install'], { env: claudeEnv({ CT_API_TOKEN: TOKEN }) });
    expect(again.stdout).toContain(`${tokenFile()}: CT_API_TOKEN already stored for ${server.url}`);
  });

  it('the registered hook, run without the token in its environment, replays the spool and sends', async () => {
    const r = await runRegistered('UserPromptSubmit', claudeEnv());
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(lastLog()).toMatchObject({ outcome: 'replayed', replayed: 1 });
    expect(await storedEvents()).toEqual(['SessionStart', 'UserPromptSubmit']);
    const session = await getJson(server, `/api/sessions/${SID}`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(session.status).toBe(200);
  });

  it('the environment’s token wins over the stored one', async () => {
    const r = await runRegistered('Stop', claudeEnv({ CT_API_TOKEN: 'a-wrong-token' }));
    expect(r.code).toBe(0);
    expect(lastLog().outcome).toBe('spooled');
    const next = await runRegistered('Notification', claudeEnv());
    expect(next.code).toBe(0);
    expect(lastLog()).toMatchObject({ outcome: 'replayed', replayed: 1 });
    expect(await storedEvents()).toEqual(['Notification', 'SessionStart', 'Stop', 'UserPromptSubmit']);
  });

  it('`hooks install --webapi URL` points the hook at an instance no instance.env names', async () => {
    const elsewhere = mkdtempSync(path.join(tmpdir(), 'ct-machine-c-'));
    try {
      const env = (extra: Record<string, string> = {}) => cleanEnv({ HOME: elsewhere, ...extra });
      const settings = path.join(elsewhere, '.claude', 'settings.json');
      const r = await runCli(['hooks', 'install', '--webapi', `${server.url}/api/`], {
        env: env({ CT_API_TOKEN: TOKEN }),
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(`for ${server.url}`);
      const registered = readFileSync(settings, 'utf8');
      expect(registered).toContain(`CT_API_URL=${server.url}`);
      expect(registered).not.toContain(TOKEN);
      expect(existsSync(path.join(elsewhere, '.config', 'transcripts', 'instance.env'))).toBe(false);

      const before = (await storedEvents()).length;
      const sent = await runRegisteredIn(settings, 'PreCompact', env());
      expect(sent.code).toBe(0);
      expect(await storedEvents()).toHaveLength(before + 1);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('the CLI sends the stored token too, to that host alone; `hooks uninstall` removes it', async () => {
    const status = await runCli(['status'], { env: claudeEnv() });
    expect(status.code, status.stderr).toBe(0);
    // localhost is the same machine as the 127.0.0.1 it was stored for.
    const viaName = await runCli(['status', '--webapi', `http://localhost:${server.port}`], {
      env: claudeEnv(),
    });
    expect(viaName.code, viaName.stderr).toBe(0);
    // Another host gets no token: the unit test (src/config/api-token.test.ts) checks what is sent where.

    const r = await runCli(['hooks', 'uninstall'], { env: claudeEnv() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`removed the stored API token ${tokenFile()}`);
    expect(existsSync(tokenFile())).toBe(false);
    const refused = await runCli(['status'], { env: claudeEnv() });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('CT_API_TOKEN');
  });
});
