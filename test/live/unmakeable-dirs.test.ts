/**
 * Directories that cannot be made fail at once, naming the path — not a hang. Node's recursive
 * mkdir spins for ever where a parent answers ENOENT for a new entry (any path under /proc on
 * Linux); the settings file's folder, the config and data dirs (instance.env, the hook's spool
 * and log, the service's store) are all made through config/make-dirs.ts, one level at a time.
 * The built CLI, as users run it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../support/api-server.js';
import { callHook } from './play.js';

const home = mkdtempSync(path.join(tmpdir(), 'ct-unmakeable-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** Well under what a hang would take: the call is given 20 s, it needs well under one. */
const QUICK_MS = 20_000;

describe.runIf(process.platform === 'linux')('paths under /proc', () => {
  it('`hooks install --settings /proc/…` exits 1 at once, naming the path', async () => {
    const settings = '/proc/ct-hooks-test/deeper/settings.json';
    const r = await runCli(['hooks', 'install', '--settings', settings], {
      env: cleanEnv({ HOME: home, CT_HOME: path.join(home, 'ct') }),
      timeoutMs: QUICK_MS,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^error: cannot create \/proc\/ct-hooks-test\/deeper: \/proc\/ct-hooks-test: \/proc does not take new directories/m,
    );
  });

  it('`install` with a config dir under /proc exits 1 at once, naming the path', async () => {
    const r = await runCli(['install', '--no-start', '--no-hooks', '--port', '7999'], {
      env: cleanEnv({
        HOME: home,
        CT_HOME: '/proc/ct-install-test',
        XDG_CONFIG_HOME: path.join(home, 'xdg'),
      }),
      timeoutMs: QUICK_MS,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/error: cannot create \/proc\/ct-install-test\/(config|data)/);
  });

  it('`serve` with its data dir under /proc exits at once, naming the path', async () => {
    const r = await runCli(['serve', '--port', '0', '--no-watch', '--no-import'], {
      env: cleanEnv({ HOME: home, CT_HOME: '/proc/ct-serve-test' }),
      timeoutMs: QUICK_MS,
    });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(
      /cannot create \/proc\/ct-serve-test\/data: \/proc\/ct-serve-test: \/proc does not/,
    );
  });

  it('the hook with its spool and log under /proc exits 0 at once (it never fails Claude Code)', async () => {
    const payload = JSON.stringify({
      session_id: 'proc-session',
      hook_event_name: 'Stop',
      transcript_path: '/nowhere/proc-session.jsonl',
    });
    const call = await callHook(
      payload,
      // No API answers on port 1: the record goes to the spool, which cannot be made.
      cleanEnv({ HOME: home, CT_HOME: '/proc/ct-hook-test', WEBAPI_PORT: '1', CT_HOOK_DEBUG: '1' }),
    );
    expect(call.code).toBe(0);
    expect(call.stdout).toBe('');
    expect(call.ms).toBeLessThan(QUICK_MS);
    expect(call.stderr).toMatch(/cannot create \/proc\/ct-hook-test\/data\/live\/spool/);
  });
});
