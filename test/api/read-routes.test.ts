/**
 * The read routes in process over a copy of the shared corpus (as `transcripts backfill` stores it):
 * sessions (filters alone and combined, range overlap, paging edges), one session, transcript,
 * turns, raw lines, events, Markdown, search, activity, facets, blueprint, health, OpenAPI, docs, /app.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson } from '../support/api-server.js';
import { openTestApp, type TestApp } from '../support/api-app.js';
import { startFirstImport, type FirstImport } from '../../src/server/first-import.js';
import { describeEngines } from '../support/engines.js';
import { claudeCorpusDir, repoRoot } from '../support/paths.js';
import { POMODORO } from '../support/corpus-sessions.js';
import type { TokenUsage } from '../../src/core/documents.js';
import { LIST_PRICES, priceOf, usageCost, type SessionCost } from '../../src/core/pricing.js';
import { latestVersion } from '../../src/migrations/runner.js';

const LATEST = latestVersion();

const BIG = '1b2c0332-e2dc-459f-88b9-1aad6e941e18';
const BIG_FILE = path.join(claudeCorpusDir, 'SWORDIntel__claude-backups', `${BIG}.jsonl`);
const BIG_CWD = '/home/ubuntu/Documents/livecd-gen';
const OPUS41 = 'claude-opus-4-1-20250805';
const SONNET4 = 'claude-sonnet-4-20250514';
const WITH_SUBAGENT = 'cc1df109-4282-4321-8248-8bbcd471da78';
const SUBAGENT_FILE = 'subagents/agent-a0a2928875cb36a92.jsonl';
const SUMMARY_ONLY = '0e298e67-9b2c-40bb-a410-2ca932ab278f';

let server: TestApp;
let total = 0;

type S = {
  id: string;
  title: string | null;
  project: string | null;
  cwd: string | null;
  models: string[];
  hostname: string;
  source: string;
  startedAt: string;
  lastActivity: string;
};

describeEngines('read routes', (engine) => {
  beforeAll(async () => {
    // As `serve` over a HOME without transcripts: the real first-start import, which skips.
    const importer: { current?: FirstImport } = {};
    server = await openTestApp(engine, { corpus: true, importStatus: () => importer.current!.status() });
    importer.current = startFirstImport({
      store: server.store,
      roots: [path.join(claudeCorpusDir, 'no-such-projects-dir')],
      enabled: true,
      log: () => undefined,
    });
    await importer.current.done;
    total = (await getJson(server, '/api/sessions?limit=0')).body.total;
    expect(total).toBeGreaterThan(20);
  });

  afterAll(async () => {
    await server?.close();
  });

  describe('GET /api/sessions', () => {
    it('lists newest first with {total, offset, limit, sessions} and the settings default limit', async () => {
      const { status, body } = await getJson(server, '/api/sessions');
      expect(status).toBe(200);
      expect(body).toMatchObject({ total, offset: 0, limit: 100 });
      expect(body.sessions).toHaveLength(Math.min(total, 100));
      const last = body.sessions.map((s: S) => Date.parse(s.lastActivity ?? '1970-01-01'));
      for (let i = 1; i < last.length; i++) expect(last[i - 1]).toBeGreaterThanOrEqual(last[i]);
    });

    it('pages: offset past the end, limit 0, limit over the clamp', async () => {
      const past = await getJson(server, `/api/sessions?offset=${total + 5}`);
      expect(past.body).toMatchObject({ total, offset: total + 5, sessions: [] });
      const zero = await getJson(server, '/api/sessions?limit=0');
      expect(zero.body).toMatchObject({ total, limit: 0, sessions: [] });
      const huge = await getJson(server, '/api/sessions?limit=100000');
      expect(huge.status).toBe(200);
      expect(huge.body.limit).toBe(500);
      const p1 = (await getJson(server, '/api/sessions?limit=5')).body.sessions.map((s: S) => s.id);
      const p2 = (await getJson(server, '/api/sessions?limit=5&offset=5')).body.sessions.map((s: S) => s.id);
      const both = (await getJson(server, '/api/sessions?limit=10')).body.sessions.map((s: S) => s.id);
      expect([...p1, ...p2]).toEqual(both);
    });

    it("sorts by sort and dir, as the sessions' own fields order them, and pages a sorted list", async () => {
      type Sortable = S & {
        runtimeMs: number | null;
        counts: { entries: number };
        tokens: { input: number; output: number; cacheWrite: number; cacheRead: number };
      };
      const value: Record<string, (s: Sortable) => number | null> = {
        lastActivity: (s) => (s.lastActivity ? Date.parse(s.lastActivity) : null),
        startedAt: (s) => (s.startedAt ? Date.parse(s.startedAt) : null),
        runtime: (s) => s.runtimeMs,
        tokens: (s) => s.tokens.input + s.tokens.output + s.tokens.cacheWrite + s.tokens.cacheRead,
        entries: (s) => s.counts.entries,
      };
      for (const [sort, of] of Object.entries(value)) {
        for (const dir of ['asc', 'desc']) {
          const { status, body } = await getJson(server, `/api/sessions?sort=${sort}&dir=${dir}&limit=500`);
          expect(status, `${sort} ${dir}`).toBe(200);
          expect(body.total).toBe(total);
          const rows = body.sessions as Sortable[];
          // Those without the value last; the rest in order, ties by id.
          const known = rows.filter((s) => of(s) !== null);
          expect(
            rows.slice(known.length).every((s) => of(s) === null),
            `${sort} ${dir}`,
          ).toBe(true);
          for (let i = 1; i < known.length; i++) {
            const [a, b] = [of(known[i - 1]!)!, of(known[i]!)!];
            const step = dir === 'asc' ? b - a : a - b;
            expect(step >= 0 && (step > 0 || known[i - 1]!.id < known[i]!.id), `${sort} ${dir} at ${i}`).toBe(
              true,
            );
          }
        }
      }
      // The corpus has sessions of many sizes: the two orders differ.
      const first = async (q: string) =>
        (await getJson(server, `/api/sessions?${q}&limit=1`)).body.sessions[0].id;
      expect(await first('sort=entries&dir=desc')).not.toBe(await first('sort=entries&dir=asc'));
      expect(await first('sort=tokens')).toBe(await first('sort=tokens&dir=desc'));
      const defaults = (await getJson(server, '/api/sessions?limit=500')).body.sessions.map((s: S) => s.id);
      const explicit = (await getJson(server, '/api/sessions?sort=lastActivity&dir=desc&limit=500')).body;
      expect(explicit.sessions.map((s: S) => s.id)).toEqual(defaults);
      // Pages of a sorted, filtered list join up.
      const q = `sort=tokens&dir=asc&cwd=${encodeURIComponent(BIG_CWD)}`;
      const whole = (await getJson(server, `/api/sessions?${q}&limit=500`)).body.sessions.map((s: S) => s.id);
      const pages: string[] = [];
      for (let offset = 0; offset < whole.length; offset += 2)
        pages.push(
          ...(await getJson(server, `/api/sessions?${q}&limit=2&offset=${offset}`)).body.sessions.map(
            (s: S) => s.id,
          ),
        );
      expect(pages).toEqual(whole);
      // Bad values are named.
      const bad = await getJson(server, '/api/sessions?sort=cost');
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toBe(
        'query parameter sort: must be one of lastActivity, startedAt, runtime, tokens, entries',
      );
      const badDir = await getJson(server, '/api/sessions?sort=tokens&dir=up');
      expect(badDir.body.error.message).toBe('query parameter dir: must be asc or desc');
    });

    it('filters by cwd exactly', async () => {
      const { body } = await getJson(server, `/api/sessions?cwd=${encodeURIComponent(BIG_CWD)}`);
      expect(body.sessions.map((s: S) => s.id)).toContain(BIG);
      for (const s of body.sessions as S[]) expect(s.cwd).toBe(BIG_CWD);
      const prefix = await getJson(
        server,
        `/api/sessions?cwd=${encodeURIComponent('/home/ubuntu/Documents')}`,
      );
      expect(prefix.body.sessions.map((s: S) => s.id)).not.toContain(BIG);
    });

    it('filters by project: every directory so named, on the list, search and activity', async () => {
      const all = (await getJson(server, '/api/sessions?limit=500')).body.sessions as S[];
      const happy = all.filter((s) => s.project === 'happy');
      // The corpus has two checkouts named happy, on two machines.
      expect(new Set(happy.map((s) => s.cwd)).size).toBeGreaterThan(1);
      const { body } = await getJson(server, '/api/sessions?project=happy&limit=500');
      expect(body.total).toBe(happy.length);
      expect(body.sessions.map((s: S) => s.id)).toEqual(happy.map((s) => s.id));
      expect((await getJson(server, '/api/sessions?project=Happy')).body.total).toBe(0);
      expect((await getJson(server, '/api/sessions?project=happ')).body.total).toBe(0);

      const hits = (await getJson(server, '/api/search?q=the&project=happy&limit=100')).body;
      expect(hits.total).toBeGreaterThan(0);
      const ids = new Set(happy.map((s) => s.id));
      for (const h of hits.hits as Array<{ sessionId: string }>) expect(ids.has(h.sessionId)).toBe(true);
      const perDir = await Promise.all(
        [...new Set(happy.map((s) => s.cwd!))].map(
          async (cwd) =>
            (await getJson(server, `/api/search?q=the&cwd=${encodeURIComponent(cwd)}`)).body.total,
        ),
      );
      expect(hits.total).toBe(perDir.reduce((a: number, b: number) => a + b, 0));

      const days = (await getJson(server, '/api/activity?project=happy&from=2020-01-01')).body;
      const projects = new Set(
        (days.days as Array<{ items: Array<{ project: string | null }> }>).flatMap((d) =>
          d.items.map((i) => i.project),
        ),
      );
      expect([...projects]).toEqual(['happy']);
      expect((await getJson(server, '/api/sessions?project=')).status).toBe(400);
    });

    it('filters by model (any model the session used)', async () => {
      const { body } = await getJson(server, `/api/sessions?model=${OPUS41}`);
      expect(body.total).toBeGreaterThan(0);
      for (const s of body.sessions as S[]) expect(s.models).toContain(OPUS41);
      expect(body.sessions.map((s: S) => s.id)).toContain(BIG);
    });

    it('filters by text: every word in the title, project, directory or id, case aside', async () => {
      const all = (await getJson(server, '/api/sessions?limit=500')).body.sessions as S[];
      const expected = (text: string) => {
        const words = text.toLowerCase().split(/\s+/).filter(Boolean);
        return all
          .filter((s) => {
            const hay = [s.title ?? '', s.project ?? '', s.cwd ?? '', s.id].join('\n').toLowerCase();
            return words.every((w) => hay.includes(w));
          })
          .map((s) => s.id);
      };
      for (const text of [
        'pomodoro',
        'DOCUMENTS livecd',
        'claude-backups',
        '1b2c',
        'ubuntu z-forge',
        'nothing-like-this',
      ]) {
        const { status, body } = await getJson(
          server,
          `/api/sessions?limit=500&text=${encodeURIComponent(text)}`,
        );
        expect(status).toBe(200);
        expect(
          body.sessions.map((s: S) => s.id),
          text,
        ).toEqual(expected(text));
        expect(body.total).toBe(expected(text).length);
      }
      expect(expected('pomodoro')).toContain(POMODORO);
      expect(expected('DOCUMENTS livecd')).toContain(BIG);
      const many = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
      const refused = await getJson(server, `/api/sessions?text=${encodeURIComponent(many)}`);
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toMatch(/query parameter text: must have at most 32 words/);
    });

    it('filters by hostname and source', async () => {
      expect((await getJson(server, '/api/sessions?hostname=test-host&limit=0')).body.total).toBe(total);
      expect((await getJson(server, '/api/sessions?hostname=elsewhere')).body).toMatchObject({
        total: 0,
        sessions: [],
      });
      expect((await getJson(server, '/api/sessions?source=backfill&limit=0')).body.total).toBe(total);
      expect((await getJson(server, '/api/sessions?source=live')).body.total).toBe(0);
    });

    it('selects sessions overlapping from/to', async () => {
      const { body } = await getJson(server, '/api/sessions?from=2025-08-24&to=2025-08-24');
      expect(body.sessions.map((s: S) => s.id)).toContain(BIG);
      for (const s of body.sessions as S[]) {
        expect(Date.parse(s.startedAt)).toBeLessThanOrEqual(Date.parse('2025-08-24T23:59:59.999Z'));
        expect(Date.parse(s.lastActivity)).toBeGreaterThanOrEqual(Date.parse('2025-08-24T00:00:00Z'));
      }
      // The session ran 18:36–22:05 UTC: a window inside it overlaps, one after it does not.
      const inside = await getJson(server, '/api/sessions?from=2025-08-24T20:00:00Z&to=2025-08-24T20:01:00Z');
      expect(inside.body.sessions.map((s: S) => s.id)).toContain(BIG);
      const after = await getJson(server, '/api/sessions?from=2025-08-24T22:10:00Z&to=2025-08-24T23:00:00Z');
      expect(after.body.sessions.map((s: S) => s.id)).not.toContain(BIG);
      const openEnded = await getJson(server, '/api/sessions?from=2030-01-01');
      expect(openEnded.body.total).toBe(0);
    });

    it('takes a timed from and a bare-date to on the same day (to is the end of that day)', async () => {
      const range = 'from=2025-08-24T19:00:00Z&to=2025-08-24';
      const list = await getJson(server, `/api/sessions?${range}`);
      expect(list.status, JSON.stringify(list.body)).toBe(200);
      expect(list.body.sessions.map((s: S) => s.id)).toContain(BIG);
      const search = await getJson(server, `/api/search?q=the&${range}`);
      expect(search.status, JSON.stringify(search.body)).toBe(200);
      const activity = await getJson(server, `/api/activity?${range}`);
      expect(activity.status, JSON.stringify(activity.body)).toBe(200);
      expect(activity.body.days.map((d: { day: string }) => d.day)).toEqual(['2025-08-24']);
      // A from after the end of that day is still refused.
      const late = await getJson(server, '/api/sessions?from=2025-08-25T00:00:00Z&to=2025-08-24');
      expect(late.status).toBe(400);
    });

    it('combines filters with AND', async () => {
      const both = await getJson(
        server,
        `/api/sessions?cwd=${encodeURIComponent(BIG_CWD)}&model=${OPUS41}&hostname=test-host&source=backfill&from=2025-08-01&to=2025-08-31`,
      );
      expect(both.body.sessions.map((s: S) => s.id)).toEqual([BIG]);
      const none = await getJson(server, `/api/sessions?cwd=${encodeURIComponent(BIG_CWD)}&source=live`);
      expect(none.body.total).toBe(0);
    });

    it('filters by id prefix', async () => {
      const { body } = await getJson(server, '/api/sessions?idPrefix=1b2c');
      expect(body.sessions.map((s: S) => s.id)).toEqual([BIG]);
    });
  });

  describe('GET /api/sessions/{id}', () => {
    it('returns every field the UI shows', async () => {
      const { status, body } = await getJson(server, `/api/sessions/${BIG}`);
      expect(status).toBe(200);
      expect(body).toMatchObject({
        id: BIG,
        cwd: BIG_CWD,
        project: 'livecd-gen',
        // Sonnet wrote most of the main conversation (opus 4.1 only its start).
        model: SONNET4,
        hostname: 'test-host',
        gitBranch: 'main',
        source: 'backfill',
        provenance: 'backfilled',
        status: 'ended',
        endedAt: null,
        startedAt: '2025-08-24T18:36:16.952Z',
        lastActivity: '2025-08-24T22:05:55.104Z',
        transcriptBytes: 4174835,
        // One Task ran a subagent whose lines are in the main transcript (the older layout).
        subagents: 1,
      });
      expect(body.models).toEqual([SONNET4, OPUS41]);
      expect(typeof body.title).toBe('string');
      expect(body.runtimeMs).toBe(Date.parse(body.lastActivity) - Date.parse(body.startedAt));
      expect(body.activeTimeMs).toBeGreaterThan(0);
      expect(body.activeTimeMs).toBeLessThan(body.runtimeMs);
      expect(body.counts).toMatchObject({ entries: 812 });
      expect(body.counts.toolCalls).toBeGreaterThan(200);
      expect(body.toolCallsByName.Bash).toBeGreaterThan(0);
      expect(body.tokens.output).toBeGreaterThan(0);
      expect(body.files).toEqual([{ name: 'transcript.jsonl', bytes: 4174835, entries: 812 }]);
    });

    it('splits the tokens by model and prices each at the list prices, a model without one unpriced', async () => {
      const { body } = await getJson(server, `/api/sessions/${BIG}`);
      expect(Object.keys(body.tokensByModel).sort()).toEqual([OPUS41, SONNET4].sort());
      expect(body.cost.complete).toBe(true);
      expect(body.cost.byModel[OPUS41]).toBeCloseTo(
        usageCost(body.tokensByModel[OPUS41], LIST_PRICES['claude-opus-4-1']!),
        9,
      );
      // Every session of the corpus: the split sums to the tokens, and each model is priced or not.
      const { sessions } = (await getJson(server, '/api/sessions?limit=500')).body;
      expect(sessions.length).toBe(total);
      let unpriced = 0;
      for (const s of sessions as Array<{
        tokens: TokenUsage;
        tokensByModel: Record<string, TokenUsage>;
        cost: SessionCost;
      }>) {
        const split = Object.entries(s.tokensByModel);
        for (const f of ['input', 'output', 'cacheWrite', 'cacheRead'] as const)
          expect(split.reduce((sum, [, t]) => sum + t[f], 0)).toBe(s.tokens[f]);
        const expected = Object.fromEntries(
          split.map(([model, t]) => {
            const p = priceOf(model, LIST_PRICES);
            return [model, p && usageCost(t, p)];
          }),
        );
        expect(Object.keys(s.cost.byModel).sort()).toEqual(Object.keys(expected).sort());
        for (const [model, usd] of Object.entries(expected)) {
          if (usd === null) expect(s.cost.byModel[model]).toBeNull();
          else expect(s.cost.byModel[model]).toBeCloseTo(usd, 9);
        }
        expect(s.cost.complete).toBe(Object.values(expected).every((usd) => usd !== null));
        if (!s.cost.complete) unpriced++;
      }
      // The corpus has models no price is known for (claude-fable-5, gpt-5.6-sol, …).
      expect(unpriced).toBeGreaterThan(0);
    });

    it("totals the filtered sessions' tokens by model and prices them as each session is priced", async () => {
      type Priced = {
        id: string;
        tokens: TokenUsage;
        tokensByModel: Record<string, TokenUsage>;
        cost: SessionCost;
      };
      const kinds = ['input', 'output', 'cacheWrite', 'cacheRead'] as const;
      for (const query of ['', `model=${OPUS41}`, `cwd=${encodeURIComponent(BIG_CWD)}&from=2025-08-01`]) {
        const [{ body: totals }, { body: list }] = await Promise.all([
          getJson(server, `/api/totals?${query}`),
          getJson(server, `/api/sessions?limit=500&${query}`),
        ]);
        const sessions = list.sessions as Priced[];
        expect(totals.sessions).toBe(list.total);
        for (const f of kinds) expect(totals.tokens[f]).toBe(sessions.reduce((n, s) => n + s.tokens[f], 0));
        // Each model's row: the sum of its sessions' shares, priced as a session's own share is.
        const expected = new Map<string, { sessions: number; tokens: TokenUsage }>();
        for (const s of sessions)
          for (const [model, t] of Object.entries(s.tokensByModel)) {
            const e = expected.get(model) ?? {
              sessions: 0,
              tokens: { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 },
            };
            e.sessions++;
            for (const f of kinds) e.tokens[f] += t[f];
            expected.set(model, e);
          }
        expect(totals.byModel.map((m: { model: string }) => m.model).sort()).toEqual(
          [...expected.keys()].sort(),
        );
        for (const m of totals.byModel as Array<{
          model: string;
          sessions: number;
          tokens: TokenUsage;
          usd: number | null;
        }>) {
          expect(m).toMatchObject(expected.get(m.model)!);
          const shares = sessions.map((s) => s.cost.byModel[m.model]).filter((v) => v !== undefined);
          if (m.usd === null) expect(shares.every((v) => v === null)).toBe(true);
          else
            expect(m.usd).toBeCloseTo(
              shares.reduce((n: number, v) => n + v!, 0),
              6,
            );
        }
        expect(totals.complete).toBe(sessions.every((s) => s.cost.complete));
        const usd = sessions.reduce((n, s) => n + (s.cost.usd ?? 0), 0);
        if (totals.usd === null) expect(usd).toBe(0);
        else expect(totals.usd).toBeCloseTo(usd, 6);
      }
      const big = (await getJson(server, `/api/totals?idPrefix=${BIG.slice(0, 8)}`)).body;
      expect(big.sessions).toBe(1);
      expect(big.byModel.map((m: { model: string }) => m.model).sort()).toEqual([OPUS41, SONNET4].sort());
      expect((await getJson(server, '/api/totals?hostname=nowhere')).body).toEqual({
        sessions: 0,
        tokens: { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 },
        usd: 0,
        complete: true,
        byModel: [],
      });
      expect((await getJson(server, '/api/totals?from=2025-09-01&to=2025-08-01')).status).toBe(400);
    });

    it('counts subagent files', async () => {
      const { body } = await getJson(server, `/api/sessions/${WITH_SUBAGENT}`);
      expect(body.subagents).toBe(1);
      expect(body.files.map((f: { name: string }) => f.name)).toContain(SUBAGENT_FILE);
    });

    it('404s an unknown session', async () => {
      const r = await getJson(server, '/api/sessions/no-such-session');
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe('not_found');
    });
  });

  describe('transcript, turns, raw, events, markdown', () => {
    it('pages transcript entries', async () => {
      const { body } = await getJson(server, `/api/sessions/${BIG}/transcript`);
      expect(body).toMatchObject({
        sessionId: BIG,
        file: 'transcript.jsonl',
        total: 812,
        offset: 0,
        limit: 100,
      });
      expect(body.entries).toHaveLength(100);
      expect(body.entries.map((e: { index: number }) => e.index)).toEqual([...Array(100).keys()]);
      const last = await getJson(server, `/api/sessions/${BIG}/transcript?offset=800&limit=50`);
      expect(last.body.entries.map((e: { index: number }) => e.index)).toEqual(
        [...Array(12).keys()].map((i) => 800 + i),
      );
      const past = await getJson(server, `/api/sessions/${BIG}/transcript?offset=5000`);
      expect(past.body).toMatchObject({ total: 812, entries: [] });
      expect((await getJson(server, `/api/sessions/${BIG}/transcript?limit=0`)).body.entries).toEqual([]);
      expect((await getJson(server, `/api/sessions/${BIG}/transcript?limit=99999`)).body.limit).toBe(1000);
    });

    it('reads a subagent file and 404s an unknown file', async () => {
      const sub = await getJson(
        server,
        `/api/sessions/${WITH_SUBAGENT}/transcript?file=${encodeURIComponent(SUBAGENT_FILE)}`,
      );
      expect(sub.status).toBe(200);
      expect(sub.body.total).toBe(28);
      expect(
        (await getJson(server, `/api/sessions/${WITH_SUBAGENT}/transcript?file=nope.jsonl`)).status,
      ).toBe(404);
      expect((await getJson(server, '/api/sessions/no-such-session/transcript')).status).toBe(404);
    });

    it('404s every read of an unknown session, naming it, and a raw line of an unknown file, naming the file', async () => {
      for (const read of ['transcript', 'turns', 'events', 'raw/0', 'markdown']) {
        const r = await getJson(server, `/api/sessions/no-such-session/${read}`);
        expect(r.status, read).toBe(404);
        expect(r.body.error.message, read).toBe('session "no-such-session" not found');
      }
      const raw = await getJson(server, `/api/sessions/${WITH_SUBAGENT}/raw/0?file=nope.jsonl`);
      expect(raw.status).toBe(404);
      expect(raw.body.error.message).toBe(`session "${WITH_SUBAGENT}" has no transcript file "nope.jsonl"`);
    });

    it('returns turns by role, and an empty list without full-content chunks', async () => {
      const all = await getJson(server, `/api/sessions/${BIG}/turns`);
      expect(all.status).toBe(200);
      const user = await getJson(server, `/api/sessions/${BIG}/turns?role=user`);
      const assistant = await getJson(server, `/api/sessions/${BIG}/turns?role=assistant&limit=3`);
      expect(user.body.total).toBeGreaterThan(0);
      expect(assistant.body.total).toBeGreaterThan(0);
      expect(all.body.total).toBe(user.body.total + assistant.body.total);
      for (const t of user.body.turns) expect(t.role).toBe('user');
      expect(assistant.body.turns).toHaveLength(3);
      const none = await getJson(server, `/api/sessions/${SUMMARY_ONLY}/turns`);
      expect(none.status).toBe(200);
      expect(none.body).toMatchObject({ total: 0, turns: [] });
    });

    it('serves the raw JSON line of an entry byte for byte', async () => {
      const lines = readFileSync(BIG_FILE).toString('utf8').split('\n');
      for (const index of [0, 1, 3, 811]) {
        const res = await server.fetch(`/api/sessions/${BIG}/raw/${index}`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        expect(res.headers.get('x-transcript-malformed')).toBeNull();
        expect(await res.text()).toBe(lines[index]);
      }
      expect((await getJson(server, `/api/sessions/${BIG}/raw/812`)).status).toBe(404);
    });

    it('returns a malformed line as-is with a header saying so', async () => {
      const sessions = (await getJson(server, '/api/sessions?limit=500')).body.sessions as Array<
        S & { counts: { malformed: number } }
      >;
      const broken = sessions.find((s) => s.counts.malformed > 0);
      expect(broken).toBeDefined();
      const page = await getJson(server, `/api/sessions/${broken!.id}/transcript?limit=1000`);
      const entry = page.body.entries.find((e: { malformed?: boolean }) => e.malformed);
      const res = await server.fetch(`/api/sessions/${broken!.id}/raw/${entry.index}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-transcript-malformed')).toBe('true');
      const text = await res.text();
      expect(() => JSON.parse(text)).toThrow();
    });

    it('lists events', async () => {
      const { status, body } = await getJson(server, `/api/sessions/${BIG}/events?limit=5`);
      expect(status).toBe(200);
      expect(body.limit).toBe(5);
      expect(body.total).toBeGreaterThan(0);
      for (const e of body.events)
        expect(e).toMatchObject({ event: expect.any(String), timestamp: expect.any(String) });
    });

    it('renders Markdown', async () => {
      const res = await server.fetch(`/api/sessions/${POMODORO}/markdown`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/markdown/);
      const md = await res.text();
      expect(md).toMatch(/^# /);
      expect(md).toContain('### You');
      expect(md).toContain('### Claude');
    });
  });

  describe('GET /api/turns', () => {
    type T = {
      sessionId: string;
      index: number;
      role: 'user' | 'assistant';
      timestamp: string | null;
      text: string;
      session: { title: string | null; project: string | null; lastActivity: string | null } | null;
    };
    /** Every session's own turns (GET /api/sessions/{id}/turns), by session id. */
    async function ownTurns(query = ''): Promise<Map<string, T[]>> {
      const list = await getJson(server, `/api/sessions?limit=500${query}`);
      const out = new Map<string, T[]>();
      for (const s of list.body.sessions as S[]) {
        const own = await getJson(server, `/api/sessions/${s.id}/turns?limit=1000`);
        out.set(s.id, own.body.turns);
      }
      return out;
    }
    const key = (t: { sessionId?: string; index: number }, id = t.sessionId) => `${id}#${t.index}`;

    it("holds every session's turns, newest first, each with its session's context", async () => {
      const own = await ownTurns();
      const expected = [...own].flatMap(([id, turns]) => turns.map((t) => key(t, id)));
      const first = await getJson(server, '/api/turns');
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ total: expected.length, offset: 0, limit: 50 });
      const all = await getJson(server, '/api/turns?limit=1000');
      const turns = all.body.turns as T[];
      expect(turns.map((t) => key(t)).sort()).toEqual(expected.sort());
      expect(first.body.turns).toEqual(turns.slice(0, 50));
      // Newest first by time; a turn whose timestamp is missing or not a time comes last.
      const times = turns.map((t) => Date.parse(t.timestamp ?? ''));
      const timed = times.filter((t) => Number.isFinite(t));
      expect(times.slice(0, timed.length)).toEqual(timed);
      expect(timed.length).toBeLessThan(times.length); // the corpus has both
      for (let i = 1; i < timed.length; i++) expect(timed[i - 1]!).toBeGreaterThanOrEqual(timed[i]!);
      // The same turn as its session's own, and its session's context as the session reads.
      const sample = turns[Math.floor(turns.length / 3)]!;
      const { session, sessionId, ...turn } = sample;
      expect(own.get(sessionId)!.find((t) => t.index === sample.index)).toEqual(turn);
      const detail = (await getJson(server, `/api/sessions/${sessionId}`)).body;
      expect(session).toEqual({
        title: detail.title,
        project: detail.project,
        lastActivity: detail.lastActivity,
      });
      // Pages join up.
      const p1 = (await getJson(server, '/api/turns?limit=7')).body.turns;
      const p2 = (await getJson(server, '/api/turns?limit=7&offset=7')).body.turns;
      expect([...p1, ...p2]).toEqual(turns.slice(0, 14));
      const past = await getJson(server, `/api/turns?offset=${expected.length}`);
      expect(past.body).toMatchObject({ total: expected.length, turns: [] });
      expect((await getJson(server, '/api/turns?limit=99999')).body.limit).toBe(1000);
    });

    it('takes one side, and filters sessions as the list does', async () => {
      const user = (await getJson(server, '/api/turns?role=user&limit=1000')).body;
      const assistant = (await getJson(server, '/api/turns?role=assistant&limit=0')).body;
      const all = (await getJson(server, '/api/turns?limit=0')).body;
      expect(user.total + assistant.total).toBe(all.total);
      expect(user.total).toBeGreaterThan(0);
      for (const t of user.turns as T[]) expect(t.role).toBe('user');
      const cwd = `&cwd=${encodeURIComponent(BIG_CWD)}`;
      const inCwd = await ownTurns(cwd);
      const filtered = (await getJson(server, `/api/turns?limit=1000${cwd}`)).body;
      expect(filtered.total).toBe([...inCwd.values()].reduce((n, t) => n + t.length, 0));
      expect(filtered.total).toBeGreaterThan(0);
      for (const t of filtered.turns as T[]) expect(inCwd.has(t.sessionId)).toBe(true);
      const byModel = (await getJson(server, `/api/turns?limit=1000&model=${OPUS41}`)).body;
      const opusSessions = await ownTurns(`&model=${OPUS41}`);
      expect(byModel.total).toBe([...opusSessions.values()].reduce((n, t) => n + t.length, 0));
    });

    it("bounds the turns' own timestamps with from and to", async () => {
      const turns = (await getJson(server, '/api/turns?limit=1000')).body.turns as T[];
      const ms = (t: T) => Date.parse(t.timestamp ?? '');
      const timed = turns.filter((t) => Number.isFinite(ms(t)));
      const mid = timed[Math.floor(timed.length / 2)]!.timestamp!;
      const day = new Date(ms(timed[Math.floor(timed.length / 2)]!)).toISOString().slice(0, 10);
      const after = (await getJson(server, `/api/turns?limit=1000&from=${encodeURIComponent(mid)}`)).body;
      expect(after.turns.map((t: T) => key(t))).toEqual(
        timed.filter((t) => ms(t) >= Date.parse(mid)).map((t) => key(t)),
      );
      // A bare date as the upper bound takes in the whole of that day.
      const upTo = (await getJson(server, `/api/turns?limit=1000&to=${day}`)).body;
      expect(upTo.turns.map((t: T) => key(t))).toEqual(
        timed.filter((t) => ms(t) < Date.parse(day) + 86_400_000).map((t) => key(t)),
      );
      const onDay = (await getJson(server, `/api/turns?limit=1000&from=${day}&to=${day}`)).body;
      expect(onDay.total).toBeGreaterThan(0);
      for (const t of onDay.turns as T[]) expect(new Date(ms(t)).toISOString().slice(0, 10)).toBe(day);
    });
  });

  describe('search, activity, facets', () => {
    it('finds a word known to be in a corpus file, with its highlight', async () => {
      const { status, body } = await getJson(server, '/api/search?q=pomodoro');
      expect(status).toBe(200);
      expect(body).toMatchObject({ enabled: true, q: 'pomodoro', offset: 0, limit: 20 });
      expect(body.total).toBeGreaterThan(0);
      const hit = body.hits[0];
      expect(hit).toMatchObject({ sessionId: POMODORO, file: 'transcript.jsonl', index: expect.any(Number) });
      const marked = hit.snippet
        .filter((s: { mark: boolean }) => s.mark)
        .map((s: { text: string }) => s.text.toLowerCase());
      expect(marked).toContain('pomodoro');
      expect(hit.session.title).toMatch(/Pomodoro/);
    });

    it("names each hit's entry as the reader does: a compaction summary is not 'user'", async () => {
      type Hit = { sessionId: string; index: number; role: string; kind: string; entryKind: string | null };
      // The one word of the corpus only the big session's compaction summary holds.
      const summary = (await getJson(server, '/api/search?q=preemptively')).body.hits as Hit[];
      expect(summary).toHaveLength(1);
      expect(summary[0]).toMatchObject({
        sessionId: BIG,
        role: 'user',
        kind: 'entry',
        entryKind: 'compaction summary',
      });
      // The reader's own classification of that entry, from the transcript route.
      const page = await getJson(
        server,
        `/api/sessions/${BIG}/transcript?offset=${summary[0]!.index}&limit=1`,
      );
      expect(page.body.entries[0]).toMatchObject({ index: summary[0]!.index, isCompactSummary: true });
      // Every hit of a common word carries a kind, never a bare role.
      const hits = (await getJson(server, '/api/search?q=the&limit=100')).body.hits as Hit[];
      const kinds = new Set(hits.map((h) => h.entryKind));
      expect(kinds.has('You') || kinds.has('Claude')).toBe(true);
      for (const h of hits) {
        expect(h.entryKind).not.toBe('user');
        expect(h.entryKind).not.toBe('assistant');
        if (h.role === 'tool_result') expect(h.entryKind).toBe('tool result');
      }
    });

    it('matches phrases and prefixes, and applies filters', async () => {
      const phrase = await getJson(server, `/api/search?q=${encodeURIComponent('"kill the bash"')}`);
      expect(phrase.body.hits.map((h: { sessionId: string }) => h.sessionId)).toContain(BIG);
      const prefix = await getJson(server, '/api/search?q=pomodor*');
      expect(prefix.body.total).toBeGreaterThan(0);
      const filtered = await getJson(server, `/api/search?q=pomodoro&cwd=${encodeURIComponent(BIG_CWD)}`);
      expect(filtered.body.total).toBe(0);
      const paged = await getJson(server, '/api/search?q=the&limit=3&offset=3');
      expect(paged.body.hits).toHaveLength(3);
    });

    it('names the terms it did not search: no letter or digit, as typed', async () => {
      const plain = (await getJson(server, '/api/search?q=pomodoro')).body;
      expect(plain.ignored).toEqual([]);
      // The emoji and the arrow are left out, so the words alone decide the hits.
      const mixed = (await getJson(server, `/api/search?q=${encodeURIComponent('pomodoro 🎉 "->"')}`)).body;
      expect(mixed).toMatchObject({ enabled: true, ignored: ['🎉', '"->"'], total: plain.total });
      const none = await getJson(server, `/api/search?q=${encodeURIComponent('✅ 🎉')}`);
      expect(none.status).toBe(200);
      expect(none.body).toMatchObject({ enabled: true, ignored: ['✅', '🎉'], total: 0, hits: [] });
    });

    it('says whether the total counts every match', async () => {
      // The corpus holds fewer matches than an unfiltered search ranks (5,000), so both engines
      // count them all (the store contract tests a word past the window); a filter always does.
      const plain = (await getJson(server, '/api/search?q=the')).body;
      const filtered = (await getJson(server, '/api/search?q=the&source=backfill')).body;
      expect(plain).toMatchObject({ total: filtered.total, totalExact: true });
      expect(filtered).toMatchObject({ totalExact: true });
      expect(filtered.total).toBeGreaterThan(100);
    });

    it("gives each hit its own session's title, project and last activity", async () => {
      const { body } = await getJson(server, '/api/search?q=the&limit=50');
      const ids = [...new Set(body.hits.map((h: { sessionId: string }) => h.sessionId))] as string[];
      expect(ids.length).toBeGreaterThan(1);
      for (const id of ids) {
        const session = (await getJson(server, `/api/sessions/${id}`)).body;
        expect(session.lastActivity).toEqual(expect.any(String));
        expect(session).toHaveProperty('title');
        for (const hit of body.hits.filter((h: { sessionId: string }) => h.sessionId === id))
          expect(hit.session).toEqual({
            title: session.title,
            project: session.project,
            lastActivity: session.lastActivity,
          });
      }
    });

    it('rolls activity up by day', async () => {
      const { status, body } = await getJson(server, '/api/activity?from=2025-08-01&to=2025-08-31');
      expect(status).toBe(200);
      const day = body.days.find((d: { day: string }) => d.day === '2025-08-24');
      expect(day.items.map((i: { sessionId: string }) => i.sessionId)).toContain(BIG);
      expect(day.activeMs).toBeGreaterThan(0);
      // A session within one UTC day is as active that day as its own page says (the idle
      // threshold's gaps counted in both).
      const sessions = (await getJson(server, '/api/sessions?limit=500')).body.sessions as Array<{
        id: string;
        startedAt: string;
        lastActivity: string;
        activeTimeMs: number | null;
      }>;
      const oneDay = sessions.filter(
        (s) => s.activeTimeMs && s.startedAt.slice(0, 10) === s.lastActivity.slice(0, 10),
      );
      expect(oneDay.length).toBeGreaterThan(5);
      for (const s of oneDay) {
        const d = s.startedAt.slice(0, 10);
        const cal = (await getJson(server, `/api/activity?from=${d}&to=${d}`)).body.days[0];
        const item = cal.items.find((i: { sessionId: string }) => i.sessionId === s.id);
        expect(item?.activeMs, s.id).toBe(s.activeTimeMs);
      }
      const filtered = await getJson(server, '/api/activity?from=2025-08-01&to=2025-08-31&source=live');
      expect(filtered.body.days).toEqual([]);
    });

    it('lists facet values with counts', async () => {
      const { body } = await getJson(server, '/api/facets/model');
      expect(body.attribute).toBe('model');
      expect(body.values.find((v: { value: string }) => v.value === OPUS41).sessions).toBeGreaterThan(0);
      const hosts = await getJson(server, '/api/facets/hostname');
      expect(hosts.body.values).toEqual([{ value: 'test-host', sessions: total }]);
    });

    it('counts facet values over the sessions the other filters select, its own filter aside', async () => {
      const models = async (query: string) =>
        (await getJson(server, `/api/facets/model?${query}`)).body.values as Array<{
          value: string;
          sessions: number;
        }>;
      const all = await models('');
      // Each value's count is the session list's total under that value and the same filters.
      const q = new URLSearchParams({ cwd: BIG_CWD, from: '2025-08-01', to: '2025-08-31' });
      const narrowed = await models(q.toString());
      expect(narrowed.length).toBeGreaterThan(0);
      expect(narrowed.length).toBeLessThan(all.length);
      for (const { value, sessions } of narrowed)
        expect((await getJson(server, `/api/sessions?${q}&model=${value}&limit=0`)).body.total, value).toBe(
          sessions,
        );
      // The model facet ignores the model filter; the other facets follow it.
      expect(await models(`${q}&model=${OPUS41}`)).toEqual(narrowed);
      const cwds = (await getJson(server, `/api/facets/cwd?model=${SONNET4}`)).body.values;
      expect(cwds.length).toBeGreaterThan(0);
      for (const { value, sessions } of cwds.slice(0, 3)) {
        const list = `/api/sessions?model=${SONNET4}&cwd=${encodeURIComponent(value)}&limit=0`;
        expect((await getJson(server, list)).body.total, value).toBe(sessions);
      }
      expect(await models('hostname=no-such-host')).toEqual([]);
      expect(await models(`text=${encodeURIComponent('no-such-word-anywhere')}`)).toEqual([]);
    });
  });

  describe('blueprint, health, openapi, docs, /app', () => {
    it('serves the blueprint with four menus, session links and settings', async () => {
      const { status, body } = await getJson(server, '/api/blueprint');
      expect(status).toBe(200);
      expect(body.title).toBe('transcripts');
      expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
      expect(body.menus).toHaveLength(4);
      for (const m of body.menus) expect(m.items.length).toBeGreaterThan(0);
      for (const l of body.sessionLinks) expect(l.href).toContain('{id}');
      expect(body.userSettings).toEqual({
        transcriptPageSize: 100,
        transcriptAutoLoadMax: 2000,
        sessionListPageSize: 100,
      });
      expect(body.system.sessions).toEqual({ idleThresholdMs: 300000, liveWindowMs: 86400000 });
      expect(body.system.search.enabled).toBe(true);
      // Every session link resolves for a real session.
      for (const l of body.sessionLinks) {
        const res = await server.fetch(l.href.replace('{id}', BIG));
        expect(res.status, l.href).toBe(200);
        await res.arrayBuffer();
      }
    });

    it('reports health', async () => {
      const { body } = await getJson(server, '/api/health');
      expect(body).toMatchObject({
        status: 'ok',
        store: { engine: engine.name, state: 'ready' },
        schema: { currentVersion: LATEST, latestVersion: LATEST, pending: [] },
        search: { enabled: true },
        import: { state: 'skipped' },
      });
      expect(body.counts.sessions).toBe(total);
      expect(body.counts.objects).toBeGreaterThan(0);
    });

    it('describes itself in OpenAPI, without the blueprint', async () => {
      const { status, body } = await getJson(server, '/api/openapi.json');
      expect(status).toBe(200);
      expect(body.openapi).toMatch(/^3\./);
      const paths = Object.keys(body.paths);
      for (const p of [
        '/api/sessions',
        '/api/sessions/{id}',
        '/api/sessions/{id}/transcript',
        '/api/sessions/{id}/turns',
        '/api/sessions/{id}/raw/{index}',
        '/api/search',
        '/api/migrate/status',
        '/api/migrate/up',
        '/api/migrate/down',
        '/api/ingest/docs',
        '/api/ingest/objects/{sessionId}/{name}',
        '/api/ingest/reindex',
        '/api/store/docs',
        '/api/store/docs/{id}',
        '/api/store/objects/{sessionId}/',
        '/api/store/objects/{sessionId}/{name}',
        '/api/health',
      ])
        expect(paths).toContain(p);
      expect(paths.some((p) => p.includes('blueprint'))).toBe(false);
      // docs/api.md names every described route (object paths as `{name…}`).
      const doc = readFileSync(path.join(repoRoot, 'docs', 'api.md'), 'utf8');
      for (const p of paths) expect(doc, p).toContain(p.replace('{name}', '{name…}'));
    });

    it('serves the browsable reference at /api/docs, viewer included (no CDN)', async () => {
      const res = await server.fetch(`/api/docs`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      const page = await res.text();
      // Every script and stylesheet comes from this instance.
      const refs = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
      expect(refs.length).toBeGreaterThanOrEqual(4);
      for (const ref of refs) {
        expect(ref, ref).toMatch(/^\/api\/docs\//);
        const asset = await server.fetch(`${ref}`);
        expect(asset.status, ref).toBe(200);
        expect((await asset.arrayBuffer()).byteLength, ref).toBeGreaterThan(0);
      }
      const init = await (await server.fetch(`/api/docs/init.js`)).text();
      expect(init).toContain("url: '/api/openapi.json'");
      const bundle = await server.fetch(`/api/docs/swagger-ui-bundle.js`, {
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(bundle.headers.get('content-type')).toMatch(/javascript/);
      // Over 1 MB of script: compressed like /app's files.
      expect(bundle.headers.get('content-encoding')).toBe('gzip');
      expect(await bundle.text()).toContain('SwaggerUIBundle');
      expect((await server.fetch(`/api/docs/package.json`)).status).toBe(404);
    });

    it('serves /app (a build page or the UI) and redirects / there', async () => {
      const res = await server.fetch(`/app/sessions/${BIG}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      const root = await server.fetch(`/`, { redirect: 'manual' });
      expect(root.status).toBe(302);
      expect(root.headers.get('location')).toBe('/app/');
    });
  });
});
