/**
 * `transcripts migrate status|up|down` against a real API: the flags map to `to`, `steps` and
 * `dryRun`; a dry run changes nothing; the table and `--json` both tell the state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, startTestServer, type TestServer } from '../support/api-server.js';
import { runCommand } from '../support/bundle-cli.js';
import { latestVersion } from '../../src/migrations/runner.js';

const LATEST = latestVersion();
/** Steps down to 8, the version before full-text search. */
const TO_8 = LATEST - 8;

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
    expect(lines[0]).toBe(`schema version ${LATEST} of ${LATEST}, up to date`);
    expect(lines[1]).toMatch(/^VERSION\s+NAME\s+STATE\s+APPLIED AT$/);
    expect(lines).toHaveLength(LATEST + 2);
    expect(lines[2]).toMatch(/^\s+1\s+session-rollup\s+applied\s+\d{4}-\d{2}-\d{2}T/);
    expect(await status()).toMatchObject({ currentVersion: LATEST, latestVersion: LATEST, pending: [] });
  });

  it('down --steps N --dry-run changes nothing', async () => {
    const r = await runCommand(['migrate', 'down', '--steps', String(TO_8), '--dry-run', '--webapi', s.url]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(
        `dry run: migrate down would revert ${TO_8} migrations, version ${LATEST} → 8; nothing changed`,
      ),
    );
    expect((await status()).currentVersion).toBe(LATEST);
  });

  it('down to 8, then status shows the reverted ones pending', async () => {
    const r = await runCommand(['migrate', 'down', '--steps', String(TO_8), '--webapi', s.url]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`migrate down: version ${LATEST} → 8`));
    // Each reverted step says so (not "applied"), newest first.
    const rows = r.stdout.trimEnd().split('\n').slice(2);
    expect(rows).toHaveLength(TO_8);
    rows.forEach((row, i) => expect(row).toMatch(new RegExp(`^\\s+${LATEST - i}\\s+\\S+\\s+reverted$`)));
    const st = await status();
    expect(st.currentVersion).toBe(8);
    expect(st.pending.map((p: { version: number }) => p.version)).toEqual(
      Array.from({ length: TO_8 }, (_, i) => 9 + i),
    );
    const table = await runCommand(['migrate', 'status', '--webapi', s.url]);
    expect(table.stdout).toMatch(new RegExp(`schema version 8 of ${LATEST}, ${TO_8} pending`));
    expect(table.stdout.match(/ pending /g)).toHaveLength(TO_8);
    // The API keeps answering; what needs a reverted view says so.
    expect((await getJson(s, '/api/health')).body.status).toBe('degraded');
  });

  it('up --to stops where asked, and its dry run changes nothing', async () => {
    const dry = await runCommand(['migrate', 'up', '--to', '9', '--dry-run', '--webapi', s.url]);
    expect(dry.stdout).toMatch(/dry run: migrate up would apply 1 migration, version 8 → 9/);
    expect(dry.stdout.trimEnd().split('\n')[2]).toMatch(/^\s+9\s+\S+\s+planned$/);
    expect((await status()).currentVersion).toBe(8);
    const r = await runCommand(['migrate', 'up', '--to', '9', '--webapi', s.url]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/migrate up: version 8 → 9\n/);
    expect(r.stdout.trimEnd().split('\n')[2]).toMatch(/^\s+9\s+\S+\s+applied$/);
    expect((await status()).currentVersion).toBe(9);
  });

  it('up applies the rest; --json gives the run', async () => {
    const r = await runCommand(['migrate', 'up', '--json', '--webapi', s.url]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      dryRun: false,
      from: 9,
      to: LATEST,
      steps: Array.from({ length: LATEST - 9 }, (_, i) => ({ version: 10 + i, status: 'applied' })),
    });
    const again = await runCommand(['migrate', 'up', '--webapi', s.url]);
    expect(again.stdout).toMatch(new RegExp(`nothing to do; schema version ${LATEST}`));
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
      new RegExp(`--to must be an integer from 0 to ${LATEST}, got 99 \\(refused by the transcripts API at `),
    );
    expect((await status()).currentVersion).toBe(LATEST);
  });
});
