/**
 * Exit codes (README: 0 ok, 1 failure, 2 usage error) when the value of a flag is refused by the
 * server rather than by the CLI: a 400 naming the query parameter or body field a flag was sent as
 * is a usage error (exit 2) whose message names the flag, on every command that forwards options to
 * the API — sessions, search, turns, migrate up, migrate down — through `main` and through the built bin.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/api-server.js';
import { runCommand, runCommandChild } from '../support/bundle-cli.js';
import { latestVersion } from '../../src/migrations/runner.js';

const LATEST = latestVersion();

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ args: ['--no-import', '--no-watch'] });
}, 60_000);
afterAll(async () => {
  await s?.stop();
});

/** 16 digits: a safe integer the CLI accepts, more digits than the API takes (at most 15). */
const HUGE = '1000000000000000';

function expectFlagRefused(r: { code: number; stderr: string }, flag: string, reason: RegExp) {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toMatch(new RegExp(`^error: ${flag} `));
  expect(r.stderr).toMatch(reason);
  expect(r.stderr).toContain(`(refused by the transcripts API at ${s.url})`);
  // Named as the user typed it, not as the API's parameter.
  expect(r.stderr).not.toMatch(/query parameter|body field|HTTP 400/);
}

describe('a flag value the server refuses is a usage error naming the flag (exit 2)', () => {
  it('sessions --offset and --limit', async () => {
    const offset = await runCommand(['sessions', '--offset', HUGE, '--webapi', s.url]);
    expectFlagRefused(offset, '--offset', new RegExp(`must be a non-negative integer, got "${HUGE}"`));
    const limit = await runCommand(['sessions', '--limit', HUGE, '--json', '--webapi', s.url]);
    expectFlagRefused(limit, '--limit', new RegExp(`got "${HUGE}"`));
    expect(limit.stdout).toBe('');
  });

  it('search --offset and --limit', async () => {
    const r = await runCommand(['search', 'deploy', '--offset', HUGE, '--webapi', s.url]);
    expectFlagRefused(r, '--offset', /must be a non-negative integer/);
    const limit = await runCommand(['search', 'deploy', '--limit', HUGE, '--webapi', s.url]);
    expectFlagRefused(limit, '--limit', /must be a non-negative integer/);
  });

  it('turns --offset and --limit', async () => {
    const offset = await runCommand(['turns', '--offset', HUGE, '--webapi', s.url]);
    expectFlagRefused(offset, '--offset', new RegExp(`must be a non-negative integer, got "${HUGE}"`));
    const limit = await runCommand(['turns', '--role', 'user', '--limit', HUGE, '--json', '--webapi', s.url]);
    expectFlagRefused(limit, '--limit', new RegExp(`got "${HUGE}"`));
    expect(limit.stdout).toBe('');
  });

  it('migrate up --to and migrate down --steps beyond the schema', async () => {
    const up = await runCommand(['migrate', 'up', '--to', '99', '--webapi', s.url]);
    expectFlagRefused(up, '--to', new RegExp(`must be an integer from 0 to ${LATEST}, got 99 `));
    const down = await runCommand(['migrate', 'down', '--steps', '99', '--dry-run', '--webapi', s.url]);
    expectFlagRefused(down, '--steps', new RegExp(`cannot be 99: the store is at version ${LATEST}`));
    expect(down.stderr).not.toMatch(/got "99"/); // the server's reason already says it
  });

  it('the built bin exits 2 as well', async () => {
    const r = await runCommandChild(['sessions', '--offset', HUGE, '--webapi', s.url], {
      killAfterMs: 30_000,
    });
    expect(r.killed).toBe(false);
    expectFlagRefused(r, '--offset', /must be a non-negative integer/);
  });

  it('a --from after --to is caught before asking (sessions, search and turns)', async () => {
    for (const cmd of [['sessions'], ['search', 'deploy'], ['turns']]) {
      const r = await runCommand([...cmd, '--from', '2025-09-01', '--to', '2025-08-01', '--webapi', s.url]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain('--from must not be after --to');
    }
    // A bare-date --to is that whole day, as on the server.
    const sameDay = await runCommand([
      'sessions',
      '--from',
      '2025-08-24T19:00:00Z',
      '--to',
      '2025-08-24',
      '--webapi',
      s.url,
    ]);
    expect(sameDay.code, sameDay.stderr).toBe(0);
  });

  it('values the server takes still work, and a failure that is not about a flag stays exit 1', async () => {
    const ok = await runCommand(['sessions', '--offset', '5', '--limit', '3', '--webapi', s.url]);
    expect(ok.code, ok.stderr).toBe(0);
    const none = await runCommand(['show', 'no-such-session', '--webapi', s.url]);
    expect(none.code).toBe(1);
  });
});
