/**
 * What the UI shows, from the terminal too (seed §1: "Everything the UI shows is also reachable
 * through the API and the command-line tool"): the calendar's daily activity (`activity`), the
 * filter pickers' values (`facets`), a session's events (`events`), its Markdown
 * (`transcript --markdown`), and every tool a session used (`show`) — each against a real API
 * holding the corpus, compared with what the API answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, runCli, startTestServer, type TestServer } from '../support/api-server.js';
import { testEngine } from '../support/engines.js';
import { runCommand } from '../support/bundle-cli.js';

let s: TestServer;
/** Twelve tools, eight of them used once or twice: the UI lists them all. */
const SID = '1b2c0332-e2dc-459f-88b9-1aad6e941e18';

beforeAll(async () => {
  s = await startTestServer({ corpus: testEngine('sqlite') });
}, 120_000);
afterAll(async () => {
  await s?.stop();
});

const cli = (args: string[], opts: { tty?: boolean; columns?: number } = {}) =>
  runCommand([...args, '--webapi', s.url], opts);

describe('transcripts show lists every tool', () => {
  it('each tool the session used, with its count, most used first', async () => {
    const session = (await getJson(s, `/api/sessions/${SID}`)).body;
    const byName = session.toolCallsByName as Record<string, number>;
    expect(Object.keys(byName)).toEqual(expect.arrayContaining(['KillBash', 'LS', 'MultiEdit', 'Write']));
    const r = await cli(['show', '1b2c0332']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(
        `^tool calls {4}${session.counts.toolCalls} \\(${session.counts.toolErrors} errors\\), 12 tools:$`,
        'm',
      ),
    );
    // On a pipe: one whole line.
    const line = r.stdout.split('\n').find((l) => l.startsWith('  tools'))!;
    const listed = line.slice(14).split(', ');
    expect(listed).toHaveLength(Object.keys(byName).length);
    for (const [name, count] of Object.entries(byName)) expect(listed).toContain(`${name} ${count}`);
    const counts = listed.map((t) => Number(t.split(' ')[1]));
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  it('on a narrow terminal the list wraps under its column instead of being cut', async () => {
    const r = await cli(['show', SID], { tty: true, columns: 60 });
    const lines = r.stdout.split('\n');
    const at = lines.findIndex((l) => l.startsWith('  tools'));
    const block = [
      lines[at]!,
      ...lines
        .slice(at + 1)
        .filter((_, i, rest) => rest.slice(0, i + 1).every((l) => l.startsWith(' '.repeat(14)))),
    ];
    expect(block.length).toBeGreaterThan(1);
    for (const l of lines) expect([...l].length).toBeLessThanOrEqual(60);
    const names = block
      .join(' ')
      .slice(14)
      .split(/,\s+/)
      .map((t) => t.trim().split(' ')[0]);
    expect(names.sort()).toEqual(
      Object.keys((await getJson(s, `/api/sessions/${SID}`)).body.toolCallsByName).sort(),
    );
  });
});

describe('transcripts activity', () => {
  const range = 'from=2025-01-01&to=2026-12-31';

  it('one line per day of the calendar, with a bar; --json is the API answer', async () => {
    const api = (await getJson(s, `/api/activity?${range}`)).body;
    expect(api.days.length).toBeGreaterThan(5);
    const json = await cli(['activity', '--from', '2025-01-01', '--to', '2026-12-31', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(api);
    const r = await cli(['activity', '--from', '2025-01-01', '--to', '2026-12-31']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^DAY\s+SESSIONS\s+ACTIVE\s+ENTRIES$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/).slice(0, 2))).toEqual(
      api.days.map((d: { day: string; sessions: number }) => [d.day, String(d.sessions)]),
    );
    // The busiest day has the full bar (20 cells on a pipe).
    const busiest = api.days.reduce((a: { activeMs: number }, b: { activeMs: number }) =>
      b.activeMs > a.activeMs ? b : a,
    );
    expect(lines.find((l) => l.startsWith(busiest.day))).toMatch(/ █{20}$/);
    expect(r.stderr).toContain(`${api.days.length} days with activity from 2025-01-01 to 2026-12-31`);
  });

  it("--sessions lists each day's sessions under it; the filters pass to the API", async () => {
    const api = (await getJson(s, '/api/activity?from=2025-08-01&to=2025-08-31&hostname=test-host')).body;
    const r = await cli([
      'activity',
      '--from',
      '2025-08-01',
      '--to',
      '2025-08-31',
      '--host',
      'test-host',
      '--sessions',
    ]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n').slice(1);
    const expected = api.days.flatMap((d: { day: string; items: Array<{ sessionId: string }> }) => [
      d.day,
      ...d.items.map((i) => i.sessionId),
    ]);
    expect(lines).toHaveLength(expected.length);
    lines.forEach((l, i) => {
      if (/^\d{4}-/.test(expected[i])) expect(l.startsWith(expected[i])).toBe(true);
      else expect(expected[i].startsWith(l.trim().split(/\s+/)[0]!)).toBe(true);
    });
    const byModel = await cli([
      'activity',
      '--model',
      'claude-opus-4-1-20250805',
      '--from',
      '2025-01-01',
      '--json',
    ]);
    const apiModel = (await getJson(s, '/api/activity?model=claude-opus-4-1-20250805&from=2025-01-01')).body;
    expect(JSON.parse(byModel.stdout).days).toEqual(apiModel.days);
    expect(
      (await cli(['activity', '--host', 'elsewhere', '--from', '2025-01-01', '--to', '2025-12-31'])).stdout,
    ).toBe('no activity from 2025-01-01 to 2025-12-31\n');
  });

  it('a bad range is a usage error naming the flag (exit 2)', async () => {
    const after = await cli(['activity', '--from', '2025-09-01', '--to', '2025-08-01']);
    expect(after.code).toBe(2);
    expect(after.stderr).toContain('--from must not be after --to');
    const impossible = await cli(['activity', '--to', '2025-02-30']);
    expect(impossible.code).toBe(2);
    expect(impossible.stderr).toContain('--to must be a calendar date');
  });
});

describe('transcripts facets', () => {
  it('each filter field: its values with session counts; --json is the API answer', async () => {
    for (const [field, attribute] of [
      ['cwd', 'cwd'],
      ['model', 'model'],
      ['host', 'hostname'],
      ['hostname', 'hostname'],
      ['source', 'source'],
    ]) {
      const api = (await getJson(s, `/api/facets/${attribute}`)).body;
      expect(api.values.length, field).toBeGreaterThan(0);
      const json = await cli(['facets', field!, '--json']);
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual(api);
      const r = await cli(['facets', field!]);
      const rows = r.stdout.trimEnd().split('\n');
      expect(rows[0]).toMatch(/^SESSIONS {2}[A-Z]+$/);
      expect(
        rows.slice(1).map((l) => l.trim().split(/\s+/, 1)[0] + ' ' + l.trim().replace(/^\d+\s+/, '')),
      ).toEqual(api.values.map((v: { sessions: number; value: string }) => `${v.sessions} ${v.value}`));
    }
    expect((await cli(['facets', 'host'])).stdout).toMatch(/^ +\d+ {2}test-host$/m);
  });

  it("takes the session filters: counts over the sessions they select, the field's own aside", async () => {
    const q = new URLSearchParams({ source: 'backfill', from: '2025-08-01', to: '2025-08-31' });
    const api = (await getJson(s, `/api/facets/model?${q}`)).body;
    expect(api.values.length).toBeGreaterThan(0);
    const args = ['facets', 'model', '--source', 'backfill', '--from', '2025-08-01', '--to', '2025-08-31'];
    const json = await cli([...args, '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(api);
    // The own filter changes nothing; --host is sent as hostname; --text narrows.
    expect(JSON.parse((await cli([...args, '--model', 'x', '--json'])).stdout)).toEqual(api);
    const none = await cli(['facets', 'model', '--host', 'no-such-host']);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain('no model values: no sessions match the filters');
    expect(
      JSON.parse((await cli(['facets', 'cwd', '--text', 'no-such-word-anywhere', '--json'])).stdout),
    ).toEqual({
      attribute: 'cwd',
      values: [],
    });
    const bad = await cli(['facets', 'model', '--from', '2025-09-01', '--to', '2025-08-01']);
    expect(bad.code).toBe(2);
  });

  it('an unknown field is a usage error listing the fields (exit 2); the built CLI answers the same', async () => {
    const bad = await cli(['facets', 'colour']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('<field> must be cwd, model, host, source or agent, got "colour"');
    expect((await cli(['facets'])).code).toBe(2);
    const built = await runCli(['facets', 'model', '--json', '--webapi', s.url]);
    expect(built.code).toBe(0);
    expect(JSON.parse(built.stdout)).toEqual((await getJson(s, '/api/facets/model')).body);
  });
});

describe('transcripts events', () => {
  it('a page of events, oldest first; --json is the API answer; paging like sessions', async () => {
    const api = (await getJson(s, `/api/sessions/${SID}/events`)).body;
    expect(api.total).toBeGreaterThan(api.events.length);
    const json = await cli(['events', '1b2c0332', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(api);
    const r = await cli(['events', '1b2c0332']);
    const rows = r.stdout.trimEnd().split('\n');
    expect(rows[0]).toMatch(/^TIME\s+EVENT\s+TOOL\s+RESULT\s+RECORDED BY$/);
    expect(rows).toHaveLength(api.events.length + 1);
    const tool = api.events.findIndex((e: { toolName?: string }) => e.toolName);
    const e = api.events[tool];
    expect(rows[tool + 1]).toMatch(
      new RegExp(
        `^${e.timestamp.slice(0, 19).replace('T', ' ')}\\s+${e.event}\\s+${e.toolName}\\s+${e.success ? 'ok' : 'error'}\\s+${e.reconstructed ? 'transcript' : 'hook'}$`,
      ),
    );
    expect(r.stderr).toBe(
      `1–${api.events.length} of ${api.total} events; --offset ${api.events.length} for more\n`,
    );
    const all = await cli(['events', SID, '--limit', '1000', '--json']);
    expect(JSON.parse(all.stdout).events).toHaveLength(api.total);
    const last = await cli(['events', SID, '--offset', String(api.total - 3)]);
    expect(last.stdout.trimEnd().split('\n')).toHaveLength(4);
    expect(last.stderr).toBe(`${api.total - 2}–${api.total} of ${api.total} events\n`);
  });

  it('bad values and unknown sessions: exit 2 and 1', async () => {
    expect((await cli(['events', SID, '--limit', '0'])).code).toBe(2);
    const over = await cli(['events', SID, '--offset', 'x']);
    expect(over.code).toBe(2);
    expect(over.stderr).toContain('--offset must be a non-negative integer');
    const none = await cli(['events', 'zzz']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no session matches "zzz"');
  });
});

describe('transcripts transcript --markdown', () => {
  it("prints the API's Markdown byte for byte (the built CLI, a prefix id)", async () => {
    const res = await fetch(`${s.url}/api/sessions/${SID}/markdown`);
    const md = await res.text();
    expect(md.startsWith('# ')).toBe(true);
    const r = await runCli(['transcript', '1b2c0332', '--markdown', '--webapi', s.url]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(md);
  });

  it('does not combine with the other forms (exit 2, naming the flag)', async () => {
    for (const flags of [['--raw'], ['--json'], ['--role', 'user'], ['--file', 'subagents/a.jsonl']]) {
      const r = await cli(['transcript', SID, '--markdown', ...flags]);
      expect(r.code, flags.join(' ')).toBe(2);
      expect(r.stderr).toContain(`--markdown and ${flags[0]} cannot be combined`);
    }
  });
});
