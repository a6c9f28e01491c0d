/**
 * Browsing from the terminal (issue 4 §7): `sessions`, `show`, `transcript`, `search` against a
 * real API holding the corpus — filters, id prefixes, `--json`, one side of a conversation, the
 * raw bytes, marks on a terminal, and rows that fit the width.
 */
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, startTestServer, type TestServer } from '../support/api-server.js';
import { testEngine } from '../support/engines.js';
import { runCommand } from '../support/bundle-cli.js';
import { formatTotalsCost, formatUsd } from '../../src/core/display-format.js';
import { claudeCorpusDir } from '../support/paths.js';

let s: TestServer;
const SID = '5c0375b4-57a5-4f26-b12d-d022ee4e51b7';
const ESC = String.fromCharCode(27);

beforeAll(async () => {
  s = await startTestServer({ corpus: testEngine('sqlite') });
}, 120_000);
afterAll(async () => {
  await s?.stop();
});

const cli = (args: string[], opts: { tty?: boolean; columns?: number; env?: Record<string, string> } = {}) =>
  runCommand([...args, '--webapi', s.url], opts);

describe('transcripts sessions', () => {
  it('lists sessions newest first with status and provenance; --json is the API answer', async () => {
    const api = (await getJson(s, '/api/sessions?limit=5')).body;
    const r = await cli(['sessions', '--limit', '5']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+STATUS\s+PROVENANCE\s+LAST ACTIVITY\s+ACTIVE\s+MODEL\s+PROJECT\s+TITLE$/);
    expect(lines).toHaveLength(6);
    api.sessions.forEach((sess: { id: string }, i: number) =>
      expect(sess.id.startsWith(lines[i + 1]!.split(/\s+/)[0]!)).toBe(true),
    );
    expect(lines[1]).toMatch(/■ ended\s+backfilled/);
    expect(r.stderr).toMatch(/1–5 of \d+ sessions; --offset 5 for more/);
    const json = await cli(['sessions', '--limit', '5', '--json']);
    expect(JSON.parse(json.stdout)).toEqual(api);
  });

  it('--text finds words in titles, projects, directories and ids, as the API does', async () => {
    const r = await cli(['sessions', '--text', 'CLAUDE backups', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const api = (await getJson(s, '/api/sessions?text=CLAUDE%20backups')).body;
    expect(JSON.parse(r.stdout)).toEqual(api);
    expect(api.total).toBeGreaterThan(0);
    const many = await cli(['sessions', '--text', Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ')]);
    expect(many.code).toBe(2);
    expect(many.stderr).toMatch(/--text/);
  });

  it('takes --project: every directory so named', async () => {
    const r = await cli(['sessions', '--project', 'happy', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const api = (await getJson(s, '/api/sessions?project=happy')).body;
    expect(JSON.parse(r.stdout)).toEqual(api);
    expect(new Set(api.sessions.map((x: { cwd: string }) => x.cwd)).size).toBeGreaterThan(1);
    const found = await cli(['search', 'the', '--project', 'happy', '--json']);
    expect(JSON.parse(found.stdout)).toEqual((await getJson(s, '/api/search?q=the&project=happy')).body);
    expect((await cli(['sessions', '--project', ' '])).code).toBe(2);
  });

  it('passes the UI filters (--host is hostname)', async () => {
    const r = await cli([
      'sessions',
      '--host',
      'test-host',
      '--from',
      '2026-01-01',
      '--to',
      '2026-03-31',
      '--json',
    ]);
    const api = (await getJson(s, '/api/sessions?hostname=test-host&from=2026-01-01&to=2026-03-31')).body;
    expect(JSON.parse(r.stdout)).toEqual(api);
    expect(api.total).toBeGreaterThan(0);
    const none = await cli(['sessions', '--host', 'elsewhere']);
    expect(none.stdout).toBe('no sessions match\n');
    expect((await cli(['sessions', '--from', 'soon'])).code).toBe(2);
  });

  it('takes a timed --from with a bare-date --to of the same day; refuses days that do not exist', async () => {
    const r = await cli(['sessions', '--from', '2025-08-24T19:00:00Z', '--to', '2025-08-24', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const api = (await getJson(s, '/api/sessions?from=2025-08-24T19:00:00Z&to=2025-08-24')).body;
    expect(JSON.parse(r.stdout)).toEqual(api);
    expect(api.total).toBeGreaterThan(0);
    const bad = await cli(['sessions', '--to', '2025-06-31']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--to must be a calendar date: 2025-06-31 does not exist');
  });

  it('--sort and --order choose the order, and the table shows the sorted field', async () => {
    const api = (await getJson(s, '/api/sessions?sort=tokens&dir=asc&limit=4')).body;
    const json = await cli(['sessions', '--sort', 'tokens', '--order', 'asc', '--limit', '4', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(api);
    const r = await cli(['sessions', '--sort', 'entries', '--limit', '3']);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+STATUS\s+PROVENANCE\s+LAST ACTIVITY\s+ENTRIES\s+ACTIVE\s/);
    const top = (await getJson(s, '/api/sessions?sort=entries&limit=3')).body.sessions as Array<{
      counts: { entries: number };
    }>;
    top.forEach((x, i) => expect(lines[i + 1]).toContain(` ${x.counts.entries.toLocaleString('en-US')} `));
    expect(top[0]!.counts.entries).toBeGreaterThanOrEqual(top[2]!.counts.entries);
    const bad = await cli(['sessions', '--sort', 'cost']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      '--sort must be one of lastActivity, startedAt, runtime, tokens, entries, got "cost"',
    );
    const badOrder = await cli(['sessions', '--order', 'up']);
    expect(badOrder.code).toBe(2);
    expect(badOrder.stderr).toContain('--order must be asc or desc, got "up"');
  });

  it('fits a terminal width, cutting titles with …', async () => {
    const r = await cli(['sessions'], { tty: true, columns: 80 });
    for (const line of r.stdout.trimEnd().split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
    expect(r.stdout).toContain('…');
  });
});

describe('transcripts totals', () => {
  it('sums what the filtered sessions used by model, with the cost, and --json is the API answer', async () => {
    const api = (await getJson(s, '/api/totals')).body;
    const r = await cli(['totals']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^MODEL\s+SESSIONS\s+INPUT\s+OUTPUT\s+CACHE WRITE\s+CACHE READ\s+COST$/);
    expect(lines).toHaveLength(api.byModel.length + 2);
    api.byModel.forEach((m: { model: string | null; sessions: number; usd: number | null }, i: number) => {
      const cost = m.usd === null ? 'no price' : formatUsd(m.usd);
      expect(lines[i + 1]).toMatch(
        new RegExp(`^${m.model ?? 'several'}.*\\s${m.sessions}\\s.*${cost.replace(/[$.]/g, '\\$&')}$`),
      );
    });
    const tokens = (
      api.tokens.input +
      api.tokens.output +
      api.tokens.cacheWrite +
      api.tokens.cacheRead
    ).toLocaleString('en-US');
    expect(lines.at(-1)).toBe(`total: ${api.sessions} sessions, ${tokens} tokens, ${formatTotalsCost(api)}`);
    expect(lines.at(-1)).toMatch(/unpriced .*claude-opus-5|\+$/);
    const json = await cli(['totals', '--json']);
    expect(JSON.parse(json.stdout)).toEqual(api);
    const opus = await cli(['totals', '--model', 'claude-opus-4-1-20250805', '--json']);
    expect(JSON.parse(opus.stdout)).toEqual(
      (await getJson(s, '/api/totals?model=claude-opus-4-1-20250805')).body,
    );
    expect((await cli(['totals', '--host', 'nowhere'])).stdout).toBe('no sessions match the filters\n');
  });
});

describe('transcripts show', () => {
  it('accepts a unique prefix and shows the details', async () => {
    const r = await cli(['show', '5c03']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^id\\s+${SID}$`, 'm'));
    expect(r.stdout).toMatch(/^status\s+■ ended/m);
    expect(r.stdout).toMatch(/^provenance\s+backfilled/m);
    expect(r.stdout).toMatch(/subagents\/agent-test-hash-123\.jsonl/);
    const json = await cli(['show', '5c03', '--json']);
    expect(JSON.parse(json.stdout)).toEqual((await getJson(s, `/api/sessions/${SID}`)).body);
  });

  it("shows what the tokens cost, each model's share when there are several, and which have no price", async () => {
    const big = '1b2c0332-e2dc-459f-88b9-1aad6e941e18';
    const api = (await getJson(s, `/api/sessions/${big}`)).body;
    const r = await cli(['show', big]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^cost\\s+\\${formatUsd(api.cost.usd)}$`, 'm'));
    const byModel = /^ {2}by model\s+(.+)$/m.exec(r.stdout)?.[1];
    const dearest = Object.entries(api.cost.byModel as Record<string, number>).sort((a, b) => b[1] - a[1]);
    expect(byModel).toBe(dearest.map(([model, usd]) => `${model} ${formatUsd(usd)}`).join(', '));
    const unpriced = (await getJson(s, '/api/sessions?model=claude-opus-5')).body.sessions[0];
    const u = await cli(['show', unpriced.id]);
    expect(u.stdout).toMatch(/^cost\s+unpriced claude-opus-5$/m);
    expect(u.stdout).not.toMatch(/by model/);
  });

  it('an exact id wins over longer ids it prefixes; ambiguous and unknown prefixes exit 1', async () => {
    // A second session whose id the corpus's "malformed" prefixes (a copy under a longer name,
    // whose lines name no session: it is named by its file).
    const tree = await mkdtemp(path.join(tmpdir(), 'ct-browse-'));
    await mkdir(path.join(tree, 'p'));
    await copyFile(
      path.join(claudeCorpusDir, 'tombelieber__claude-view', 'malformed.jsonl'),
      path.join(tree, 'p', 'malformed-twin.jsonl'),
    );
    expect((await cli(['backfill', '--dir', tree], { env: s.env })).code).toBe(0);
    await rm(tree, { recursive: true, force: true });
    expect((await cli(['show', 'malformed'])).stdout).toMatch(/^id\s+malformed$/m);
    expect((await cli(['show', 'malformed-t'])).stdout).toMatch(/^id\s+malformed-twin$/m);
    const amb = await cli(['show', 'mal']);
    expect(amb.code).toBe(1);
    expect(amb.stderr).toMatch(/"mal" matches several sessions \(malformed, malformed-twin\)/);
    const none = await cli(['show', 'zzz']);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/no session matches "zzz"/);
    expect((await cli(['show', '../etc'])).code).toBe(2);
  });
});

describe('transcripts transcript', () => {
  it('prints every entry, paged through the API', async () => {
    const total = (await getJson(s, `/api/sessions/${SID}/transcript?limit=1`)).body.total;
    const r = await cli(['transcript', '5c03']);
    expect(r.code).toBe(0);
    expect(r.stdout.match(/^── #\d+ · /gm)).toHaveLength(total);
    expect(r.stdout).toMatch(/^── #0 · You · /m);
    expect(r.stdout).toMatch(/^── #\d+ · Claude · /m);
    expect(r.stdout).toMatch(/^→ TodoWrite /m);
  });

  it('labels You only the lines the user turns count; other user lines read meta (user)', async () => {
    const cases: Array<[string, number[]]> = [
      ['edge_cases', [5, 6, 7]], // a command caveat, <command-name>, <local-command-stdout>
      ['37f83ec9-f2ea-42a9-925e-0d5c105cb6e8', [72, 192]], // [Request interrupted by user for tool use]
    ];
    for (const [id, notPrompts] of cases) {
      const r = await cli(['transcript', id]);
      expect(r.code).toBe(0);
      const heads = [...r.stdout.matchAll(/^── #(\d+) · (.+) · [^·]+ ──$/gm)].map((m) => ({
        index: Number(m[1]),
        label: m[2],
      }));
      expect(heads).toHaveLength((await getJson(s, `/api/sessions/${id}/transcript?limit=1`)).body.total);
      const turns = (await getJson(s, `/api/sessions/${id}/turns?role=user&limit=1000`)).body.turns;
      expect(heads.filter((h) => h.label === 'You').map((h) => h.index)).toEqual(
        turns
          .filter((t: { file: string }) => t.file === 'transcript.jsonl')
          .map((t: { index: number }) => t.index),
      );
      for (const index of notPrompts) expect(heads[index]).toEqual({ index, label: 'meta (user)' });
    }
  });

  it('--json prints one entry per line, as the API has them', async () => {
    const page = (await getJson(s, `/api/sessions/${SID}/transcript?limit=1000`)).body;
    const r = await cli(['transcript', SID, '--json']);
    const lines = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toEqual(page.entries);
  });

  it('--role prints one side: the turns route', async () => {
    const turns = (await getJson(s, `/api/sessions/${SID}/turns?role=user&limit=1000`)).body;
    const r = await cli(['transcript', '5c03', '--role', 'user', '--json']);
    expect(
      r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual(turns.turns);
    const text = await cli(['transcript', '5c03', '--role', 'assistant']);
    expect(text.stdout).not.toMatch(/· You ·/);
    expect(text.stdout).toMatch(/· Claude ·/);
    expect((await cli(['transcript', '5c03', '--role', 'tool'])).code).toBe(2);
  });

  it('--raw prints the transcript byte for byte; with --role, those lines only', async () => {
    const original = await readFile(
      path.join(claudeCorpusDir, 'd-kimuson__claude-code-viewer', `${SID}.jsonl`),
      'utf8',
    );
    expect((await cli(['transcript', '5c03', '--raw'])).stdout).toBe(original);
    const sub = await cli(['transcript', '5c03', '--raw', '--file', 'subagents/agent-test-hash-123.jsonl']);
    expect(sub.stdout).toBe(
      await readFile(
        path.join(claudeCorpusDir, 'd-kimuson__claude-code-viewer', 'agent-test-hash-123.jsonl'),
        'utf8',
      ),
    );
    const users = await cli(['transcript', '5c03', '--raw', '--role', 'user']);
    const lines = users.stdout.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(original).toContain(line);
      expect(JSON.parse(line).type).toBe('user');
    }
  });
});

describe('transcripts search', () => {
  it('prints hits with session, entry and snippet; --json is the API answer', async () => {
    const api = (await getJson(s, '/api/search?q=todo&limit=5')).body;
    expect(api.total).toBeGreaterThan(0);
    const r = await cli(['search', 'todo', '--limit', '5']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${api.hits[0].sessionId}  #${api.hits[0].index}  ${api.hits[0].role}`);
    expect(r.stdout).not.toContain(ESC); // no colour codes into a pipe
    expect(JSON.parse((await cli(['search', 'todo', '--limit', '5', '--json'])).stdout)).toEqual(api);
  });

  it('marks the matching text on a terminal', async () => {
    const r = await cli(['search', 'todo', '--limit', '3'], { tty: true, columns: 120 });
    expect(r.stdout).toMatch(new RegExp(`${ESC}\\[1;33m[^${ESC}]*todo[^${ESC}]*${ESC}\\[0m`, 'i'));
  });

  it('takes several words and the session filters', async () => {
    const r = await cli(['search', 'todo', 'list', '--host', 'test-host', '--json']);
    expect(JSON.parse(r.stdout)).toEqual(
      (await getJson(s, '/api/search?q=todo%20list&hostname=test-host')).body,
    );
    expect((await cli(['search', 'zzqqxx'])).stdout).toBe('no hits for "zzqqxx"\n');
  });

  it('names the terms it did not search on stderr; --json carries them as `ignored`', async () => {
    const why = '(no letters or digits: emoji and punctuation are not indexed)';
    // One argument: a lone `->` would be read as an option.
    const mixed = await cli(['search', 'todo 🎉 ->', '--limit', '5']);
    expect(mixed.code, mixed.stderr).toBe(0);
    expect(mixed.stderr).toContain(`not searched: "🎉", "->" ${why}\n`);
    expect(mixed.stdout).not.toContain('not searched');
    const api = (await getJson(s, `/api/search?q=${encodeURIComponent('todo 🎉 ->')}&limit=5`)).body;
    expect(api.total).toBeGreaterThan(0);
    expect(mixed.stdout).toContain(`${api.hits[0].sessionId}  #${api.hits[0].index}`);
    const json = await cli(['search', 'todo', '🎉', '--json']);
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout)).toMatchObject({ ignored: ['🎉'] });
    // Nothing searchable: said instead of "no hits", which would suggest the history has none.
    const none = await cli(['search', '✅', '🎉']);
    expect(none.code).toBe(0);
    expect(none.stdout).toBe(`nothing searched: "✅", "🎉" ${why}\n`);
    expect(none.stderr).toBe('');
    expect((await cli(['search', 'todo', '--json'])).stdout).toMatch(/"ignored": \[\]/);
  });
});
