/**
 * `transcripts turns` against a real API holding the corpus: the turns across sessions as
 * GET /api/turns has them, newest first — one side, the session filters, the turns' own time
 * range, pages, `--json`, rows that fit a terminal, and the usage errors of bad values.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, startTestServer, type TestServer } from '../support/api-server.js';
import { testEngine } from '../support/engines.js';
import { runCommand, runCommandChild } from '../support/bundle-cli.js';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer({ args: ['--no-import', '--no-watch'], corpus: testEngine('sqlite') });
}, 120_000);
afterAll(async () => {
  await s?.stop();
});

const cli = (args: string[], opts: { tty?: boolean; columns?: number; env?: Record<string, string> } = {}) =>
  runCommand(['turns', ...args, '--webapi', s.url], opts);

interface ApiTurn {
  sessionId: string;
  index: number;
  file: string;
  role: 'user' | 'assistant';
  timestamp: string | null;
  text: string;
  session: { project: string | null } | null;
}

/** The table's rows (header left out), split into their cells (cells hold no double spaces). */
function rows(stdout: string): string[][] {
  const lines = stdout.trimEnd().split('\n');
  expect(lines[0]).toMatch(/^TIME\s+SESSION\s+ENTRY\s+PROJECT\s+ROLE\s+TEXT$/);
  return lines.slice(1).map((l) => l.split(/ {2,}/));
}

/** Each row names the API's turn at the same place: session prefix, entry, project, side. */
function expectSameTurns(stdout: string, turns: ApiTurn[]) {
  const cells = rows(stdout);
  expect(cells).toHaveLength(turns.length);
  turns.forEach((t, i) => {
    const [, session, entry, project, role] = cells[i]!;
    expect(t.sessionId.startsWith(session!), `${session} of ${t.sessionId}`).toBe(true);
    expect(session!.length).toBeGreaterThanOrEqual(Math.min(12, t.sessionId.length));
    expect(entry).toBe(`#${t.index}`);
    expect(project).toBe(t.session?.project ?? '—');
    expect(role).toBe(t.role === 'user' ? 'You' : 'Claude');
  });
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

describe('transcripts turns', () => {
  it('lists the turns the API has, newest first, and says how to see more; --json is the API answer', async () => {
    const api = (await getJson(s, '/api/turns?limit=10')).body;
    expect(api.total).toBeGreaterThan(10);
    const r = await cli(['--limit', '10']);
    expect(r.code, r.stderr).toBe(0);
    expectSameTurns(r.stdout, api.turns);
    const times = rows(r.stdout)
      .map((c) => c[0]!)
      .filter((t) => /^\d{4}-\d\d-\d\d \d\d:\d\d$/.test(t));
    expect(times.length).toBeGreaterThan(1);
    expect([...times].sort().reverse()).toEqual(times);
    expect(r.stderr).toBe(`1–10 of ${api.total} turns; --offset 10 for more\n`);
    const json = await cli(['--limit', '10', '--json']);
    expect(JSON.parse(json.stdout)).toEqual(api);
    // The API's default page (50).
    expect(JSON.parse((await cli(['--json'])).stdout)).toEqual((await getJson(s, '/api/turns')).body);
  });

  it('--role takes one side', async () => {
    const users = (await getJson(s, '/api/turns?role=user&limit=20')).body;
    const you = await cli(['--role', 'user', '--limit', '20']);
    expect(you.code, you.stderr).toBe(0);
    expectSameTurns(you.stdout, users.turns);
    expect(rows(you.stdout).every((c) => c[4] === 'You')).toBe(true);
    const claude = await cli(['--role', 'assistant', '--limit', '20', '--json']);
    const answers = (await getJson(s, '/api/turns?role=assistant&limit=20')).body;
    expect(JSON.parse(claude.stdout)).toEqual(answers);
    expect(answers.turns.every((t: ApiTurn) => t.role === 'assistant')).toBe(true);
    const all = (await getJson(s, '/api/turns?limit=1')).body.total;
    expect(users.total + answers.total).toBe(all);
  });

  it('takes the session filters, as the API does', async () => {
    const all = (await getJson(s, '/api/turns?limit=1')).body.total;
    const project = (await getJson(s, '/api/turns?project=claude-history&limit=1000')).body;
    expect(project.total).toBeGreaterThan(0);
    expect(project.total).toBeLessThan(all);
    const r = await cli(['--project', 'claude-history', '--limit', '1000']);
    expect(r.code, r.stderr).toBe(0);
    expectSameTurns(r.stdout, project.turns);
    const host = await cli(['--host', 'test-host', '--role', 'user', '--json']);
    expect(JSON.parse(host.stdout)).toEqual(
      (await getJson(s, '/api/turns?hostname=test-host&role=user')).body,
    );
    const none = await cli(['--host', 'elsewhere']);
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('no turns match\n');
    expect(none.stderr).toBe('');
  });

  it("--from and --to bound the turns' own times; a bare-date --to is that whole day", async () => {
    const api = (await getJson(s, '/api/turns?from=2026-01-01&to=2026-03-31&limit=1000')).body;
    expect(api.total).toBeGreaterThan(0);
    const r = await cli(['--from', '2026-01-01', '--to', '2026-03-31', '--limit', '1000', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(api);
    for (const t of api.turns as ApiTurn[]) {
      expect(t.timestamp! >= '2026-01-01').toBe(true);
      expect(t.timestamp! < '2026-04-01').toBe(true);
    }
    // One day: the day of a turn the range above holds, from its start to its (whole) end.
    const day = (api.turns[0] as ApiTurn).timestamp!.slice(0, 10);
    const oneDay = await cli(['--from', day, '--to', day, '--limit', '1000', '--json']);
    const turns = JSON.parse(oneDay.stdout).turns as ApiTurn[];
    expect(turns.length).toBeGreaterThan(0);
    expect(turns.every((t) => t.timestamp!.startsWith(day))).toBe(true);
    expect(turns).toContainEqual(api.turns[0]);
  });

  it('pages: --limit and --offset walk the list the API has, and the last page says no more', async () => {
    const first10 = (await getJson(s, '/api/turns?limit=10')).body.turns;
    const a = await cli(['--limit', '5', '--json']);
    const b = await cli(['--limit', '5', '--offset', '5', '--json']);
    expect([...JSON.parse(a.stdout).turns, ...JSON.parse(b.stdout).turns]).toEqual(first10);
    const text = await cli(['--limit', '5', '--offset', '5']);
    expectSameTurns(text.stdout, first10.slice(5));
    expect(text.stderr).toMatch(/^6–10 of \d+ turns; --offset 10 for more\n$/);
    const total = (await getJson(s, '/api/turns?limit=1')).body.total as number;
    const last = await cli(['--limit', '5', '--offset', String(total - 2)]);
    expect(rows(last.stdout)).toHaveLength(2);
    expect(last.stderr).toBe(`${total - 1}–${total} of ${total} turns\n`);
    const past = await cli(['--offset', String(total + 10)]);
    expect(past.code).toBe(0);
    expect(past.stdout).toBe(`no turns at offset ${total + 10} (of ${total})\n`);
  });

  it('fits a terminal, cutting the text with …; into a pipe each turn is whole, on one line', async () => {
    const r = await cli(['--limit', '30'], { tty: true, columns: 80 });
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(31);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
    expect(r.stdout).toContain('…');
    const users = (await getJson(s, '/api/turns?role=user&limit=1000')).body.turns as ApiTurn[];
    const long = users.find((t) => t.text.includes('\n') && t.text.length > 200);
    expect(long).toBeDefined();
    const piped = await cli(['--role', 'user', '--limit', '1000'], { env: { COLUMNS: '' } });
    const line = piped.stdout.split('\n')[users.indexOf(long!) + 1]!;
    expect(line.endsWith(`  ${oneLine(long!.text)}`)).toBe(true);
  });

  it('refuses bad values with a usage error naming the flag (exit 2)', async () => {
    const cases: Array<[string[], string]> = [
      [['--role', 'tool'], '--role must be user or assistant, got "tool"'],
      [['--from', 'soon'], '--from must be an ISO 8601 date or time'],
      [['--to', '2025-06-31'], '--to must be a calendar date: 2025-06-31 does not exist'],
      [['--from', '2025-09-01', '--to', '2025-08-01'], '--from must not be after --to'],
      [['--limit', '0'], '--limit must be a positive integer, got "0"'],
      [['--offset', '-1'], '--offset must be a non-negative integer, got "-1"'],
      [['--project', ' '], '--project must not be empty'],
    ];
    for (const [args, message] of cases) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(`error: ${message}`);
      expect(r.stdout).toBe('');
    }
  });

  it('through the built bin: the same turns, and an unreachable instance is exit 1 naming it', async () => {
    const inProcess = await cli(['--role', 'user', '--limit', '5']);
    const bin = await runCommandChild(['turns', '--role', 'user', '--limit', '5', '--webapi', s.url], {
      killAfterMs: 30_000,
    });
    expect(bin.code, bin.stderr).toBe(0);
    expect(bin.stdout).toBe(inProcess.stdout);
    expect(bin.stderr).toBe(inProcess.stderr);
    const bad = await runCommandChild(['turns', '--role', 'both', '--webapi', s.url], {
      killAfterMs: 30_000,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--role must be user or assistant');
    const gone = await runCommand(['turns', '--webapi', 'http://127.0.0.1:1']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/^error: cannot reach the transcripts API at http:\/\/127\.0\.0\.1:1 /);
    expect(gone.stdout).toBe('');
  });
});
