/**
 * `transcripts migrate status|up|down` against a real API: the flags map to `to`, `steps` and
 * `dryRun`; a dry run changes nothing; the table and `--json` both tell the state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, startTestServer, type TestServer } from '../support/api-server.js';
import { runCommand } from '../support/bundle-cli.js';
import { latestVersion } from '../../src/migrations/runner.js';

/** The latest schema version, and the one three steps down from it. */
const L = latestVersion();
const D = L - 3;

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.stop();
});

const status = async () =>
  JSON.parse((await runCommand(['migrate', 'status', '--json', '--webapi', s.url])).stdout);

describe('migrate', () => {
  it('status prints a table and --json the API answer', async () => {
    const r = await runCommand(['migrate', 'status', '--webapi', s.url]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`schema version ${L} of ${L}, up to date`);
    expect(lines[1]).toMatch(/^VERSION\s+NAME\s+STATE\s+APPLIED AT$/);
    expect(lines).toHaveLength(L + 2);
    expect(lines[2]).toMatch(/^\s+1\s+session-rollup\s+applied\s+\d{4}-\d{2}-\d{2}T/);
    expect(await status()).toMatchObject({ currentVersion: L, latestVersion: L, pending: [] });
  });

  it('down --steps 3 --dry-run changes nothing', async () => {
    const r = await runCommand(['migrate', 'down', '--steps', '3', '--dry-run', '--webapi', s.url]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      `dry run: migrate down would revert 3 migrations, version ${L} → ${D}; nothing changed`,
    );
    expect((await status()).currentVersion).toBe(L);
  });

  it('down --steps 3, then status shows three pending', async () => {
    const r = await runCommand(['migrate', 'down', '--steps', '3', '--webapi', s.url]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`migrate down: version ${L} → ${D}`);
    // Each reverted step says so (not "applied"), newest first.
    const rows = r.stdout.trimEnd().split('\n').slice(2);
    expect(rows).toHaveLength(3);
    rows.forEach((row, i) => expect(row).toMatch(new RegExp(`^\\s+${L - i}\\s+\\S+\\s+reverted$`)));
    const st = await status();
    expect(st.currentVersion).toBe(D);
    expect(st.pending.map((p: { version: number }) => p.version)).toEqual([D + 1, D + 2, D + 3]);
    const table = await runCommand(['migrate', 'status', '--webapi', s.url]);
    expect(table.stdout).toContain(`schema version ${D} of ${L}, 3 pending`);
    expect(table.stdout.match(/ pending /g)).toHaveLength(3);
    // The API keeps answering; what needs a reverted view says so.
    expect((await getJson(s, '/api/health')).body.status).toBe('degraded');
  });

  it('up --to stops where asked, and its dry run changes nothing', async () => {
    const to = String(D + 1);
    const dry = await runCommand(['migrate', 'up', '--to', to, '--dry-run', '--webapi', s.url]);
    expect(dry.stdout).toContain(`dry run: migrate up would apply 1 migration, version ${D} → ${to}`);
    expect(dry.stdout.trimEnd().split('\n')[2]).toMatch(new RegExp(`^\\s+${to}\\s+\\S+\\s+planned$`));
    expect((await status()).currentVersion).toBe(D);
    const r = await runCommand(['migrate', 'up', '--to', to, '--webapi', s.url]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`migrate up: version ${D} → ${to}\n`);
    expect(r.stdout.trimEnd().split('\n')[2]).toMatch(new RegExp(`^\\s+${to}\\s+\\S+\\s+applied$`));
    expect((await status()).currentVersion).toBe(D + 1);
  });

  it('up applies the rest; --json gives the run', async () => {
    const r = await runCommand(['migrate', 'up', '--json', '--webapi', s.url]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      dryRun: false,
      from: D + 1,
      to: L,
      steps: [
        { version: D + 2, status: 'applied' },
        { version: L, status: 'applied' },
      ],
    });
    const again = await runCommand(['migrate', 'up', '--webapi', s.url]);
    expect(again.stdout).toContain(`nothing to do; schema version ${L}`);
  });

  it('bad values are usage errors (exit 2), an impossible target refused by the API too', async () => {
    for (const args of [
      ['up', '--to', 'x'],
      ['up', '--to', '-1'],
      ['down', '--steps', '1.5'],
    ]) {
      const r = await runCommand(['migrate', ...args, '--webapi', s.url]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/must be a non-negative integer/);
    }
    const r = await runCommand(['migrate', 'up', '--to', '99', '--webapi', s.url]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(`--to must be an integer from 0 to ${L}, got 99 \\(refused by the transcripts API at `),
    );
    expect((await status()).currentVersion).toBe(L);
  });
});
