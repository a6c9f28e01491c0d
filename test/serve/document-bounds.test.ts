/**
 * Issue 42, the store's half: every document is bounded at the boundary (timestamps, intervals,
 * counts, lengths, and what one request may make the store write), range queries cap the days
 * they read, deep offsets get the same answer on both engines, object names are bounded per
 * segment and no error shows a server path. End to end on a real server per engine, including the
 * poisoned summary of the issue: refused, and `/api/health` stays fast while `/api/activity` runs.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACTIVITY_MIN_MS,
  DAY_MS,
  MAX_ACTIVITY_DAYS_PER_REQUEST,
  MAX_ACTIVITY_SEGMENTS,
  MAX_COUNT,
  MAX_NAME_CHARS,
  MAX_OFFSET,
  MAX_RANGE_DAYS,
} from '../../src/core/doc-limits.js';
import { getJson, runCli, sendJson, startTestServer, type TestServer } from '../support/api-server.js';
import { describeEngines } from '../support/engines.js';
import { twoEntrySummary } from '../support/two-entry-summary.js';

let server: TestServer;

const T0 = Date.parse('2025-07-01T10:00:00Z');
const T1 = Date.parse('2025-07-01T10:30:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

function summary(sessionId: string, overrides: Record<string, unknown> = {}) {
  return twoEntrySummary(
    sessionId,
    { first: T0, last: T1, cwd: '/work/bounds', title: 'bounds', transcriptBytes: 20 },
    overrides,
  );
}

function chunk(sessionId: string, timestamps: string[]) {
  return {
    _id: `chunk:${sessionId}:transcript.jsonl:000000000000`,
    type: 'chunk',
    sessionId,
    timestamp: iso(T0),
    file: 'transcript.jsonl',
    byteStart: 0,
    byteEnd: 20,
    firstIndex: 0,
    entryCount: timestamps.length,
    entries: timestamps.map((timestamp, index) => ({
      index,
      byteStart: index * 10,
      byteEnd: index * 10 + 9,
      role: 'user',
      kind: 'user',
      text: `line ${index}`,
      timestamp,
    })),
  };
}

const post = (docs: unknown[]) => sendJson(server, 'POST', '/api/ingest/docs', { docs });

/** The request's 400, its message containing every `names`. */
async function refused(docs: unknown[], ...names: string[]): Promise<string> {
  const { status, body } = await post(docs);
  expect(status, JSON.stringify(body)).toBe(400);
  for (const name of names) expect(body.error.message).toContain(name);
  return body.error.message as string;
}

/** Wall time of one request, in ms. */
async function timed(path: string): Promise<{ ms: number; status: number }> {
  const start = performance.now();
  const res = await fetch(server.url + path);
  await res.arrayBuffer();
  return { ms: performance.now() - start, status: res.status };
}

describeEngines('document bounds (issue 42)', (engine) => {
  beforeAll(async () => {
    server = await startTestServer({ env: await engine.serverEnv() });
  }, 60_000);
  afterAll(() => server?.stop());

  describe('POST /api/ingest/docs refuses what breaks a bound, naming the field and the limit', () => {
    it('the poisoned summary of the issue: activity [[-8.64e15, 8.64e15]]', async () => {
      const message = await refused(
        [summary('poisoned', { activity: [[-8640000000000000, 8640000000000000]] })],
        'docs.0.activity.0',
        '2000-01-01',
      );
      expect(message).toContain('now + 1 day');
      // Nothing was written: the session does not exist.
      expect((await getJson(server, '/api/sessions/poisoned')).status).toBe(404);
    });

    it('timestamps outside 2000 .. now + 1 day, or not finite', async () => {
      const far = '+275760-09-13T00:00:00.000Z';
      await refused([summary('far', { lastActivity: far })], 'docs.0.lastActivity', 'now + 1 day');
      await refused([summary('old', { firstActivity: '1999-12-31T23:59:59.000Z' })], 'docs.0.firstActivity');
      await refused([summary('nan', { activity: [[T0, null]] })], 'docs.0.activity.0.1');
      // JSON reads 1e309 as Infinity.
      const infinite = JSON.stringify({ docs: [summary('inf', { activity: [[T0, 0]] })] }).replace(
        `[[${T0},0]]`,
        `[[${T0},1e309]]`,
      );
      const inf = await getJson(server, '/api/ingest/docs', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: infinite,
      });
      expect(inf.status).toBe(400);
      expect(inf.body.error.message).toContain('docs.0.activity.0');
      const event = {
        _id: 'event:far-event:1',
        type: 'event',
        sessionId: 'far-event',
        timestamp: far,
        event: 'SessionStart',
      };
      await refused([event], 'docs.0.timestamp', 'now + 1 day');
    });

    it('intervals: start after end, outside first/last activity, out of order, too many', async () => {
      await refused(
        [summary('backwards', { activity: [[T1, T0]] })],
        'docs.0.activity.0',
        'start must not be after end',
      );
      await refused(
        [summary('outside', { activity: [[T0, T1 + 60_000]] })],
        'docs.0.activity.0',
        'between firstActivity and lastActivity',
      );
      await refused(
        [
          summary('unsorted', {
            activity: [
              [T0 + 600_000, T1],
              [T0, T0 + 1000],
            ],
          }),
        ],
        'docs.0.activity.1',
      );
      await refused(
        [summary('no-first', { firstActivity: null })],
        'docs.0.firstActivity',
        'must be given when activity is not empty',
      );
      const many = Array.from({ length: MAX_ACTIVITY_SEGMENTS + 1 }, (_, i) => [T0 + i * 10, T0 + i * 10]);
      await refused(
        [summary('many', { activity: many, lastActivity: iso(T0 + many.length * 10) })],
        'docs.0.activity',
        String(MAX_ACTIVITY_SEGMENTS),
      );
    });

    it('counts: non-negative integers up to the stated limit', async () => {
      const counts = summary('x').counts;
      await refused([summary('neg', { counts: { ...counts, prompts: -1 } })], 'docs.0.counts.prompts');
      await refused(
        [summary('huge', { counts: { ...counts, entries: MAX_COUNT + 1 } })],
        'docs.0.counts.entries',
        String(MAX_COUNT),
      );
      await refused([summary('frac', { subagents: 1.5 })], 'docs.0.subagents');
      await refused(
        [summary('tok', { tokens: { input: 1e16, output: 0, cacheWrite: 0, cacheRead: 0 } })],
        'docs.0.tokens.input',
      );
      const entries = chunk('big-index', [iso(T0)]).entries.map((e) => ({ ...e, index: 2 ** 31 }));
      await refused(
        [{ ...chunk('big-index', [iso(T0)]), entries }],
        'docs.0.entries.0.index',
        String(MAX_COUNT),
      );
    });

    it('strings and lists have maximum lengths', async () => {
      await refused(
        [summary('long', { title: 'x'.repeat(MAX_NAME_CHARS + 1) })],
        'docs.0.title',
        String(MAX_NAME_CHARS),
      );
      await refused(
        [summary('models', { models: Array.from({ length: 10_001 }, (_, i) => `m${i}`) })],
        'docs.0.models',
      );
    });

    it(`one request may not make the calendar write more than ${MAX_ACTIVITY_DAYS_PER_REQUEST} days`, async () => {
      // The widest legal session: 2000-01-01 to now, one segment (~9,800 days).
      const now = Date.now();
      const wide = (sid: string) =>
        summary(sid, {
          firstActivity: iso(ACTIVITY_MIN_MS),
          lastActivity: iso(now),
          timestamp: iso(now),
          activity: [[ACTIVITY_MIN_MS, now]],
        });
      const perSession = Math.floor(now / DAY_MS) - Math.floor(ACTIVITY_MIN_MS / DAY_MS) + 1;
      const n = Math.floor(MAX_ACTIVITY_DAYS_PER_REQUEST / perSession) + 1;
      await refused(
        Array.from({ length: n }, (_, i) => wide(`wide-${i}`)),
        'body field docs',
        String(MAX_ACTIVITY_DAYS_PER_REQUEST),
      );
      // One such session alone is within every bound.
      const { status, body } = await post([wide('wide-one')]);
      expect(status, JSON.stringify(body)).toBe(200);
    });

    it('keeps a transcript line stamped in the year 275760, flagged, out of the calendar', async () => {
      const sid = 'far-line';
      const { status, body } = await post([
        summary(sid),
        chunk(sid, [iso(T0), '+275760-09-13T00:00:00.000Z', iso(T1)]),
      ]);
      expect(status, JSON.stringify(body)).toBe(200);
      const page = await getJson(server, `/api/sessions/${sid}/transcript`);
      expect(page.body.entries.map((e: { timestamp: string }) => e.timestamp)).toHaveLength(3);
      const cal = await getJson(
        server,
        `/api/activity?from=2025-07-01&to=2025-07-01&source=test&cwd=/work/bounds`,
      );
      const item = cal.body.days[0].items.find((i: { sessionId: string }) => i.sessionId === sid);
      expect(item.entries).toBe(2);
      const session = await getJson(server, `/api/sessions/${sid}`);
      expect(session.body.status).not.toBe('running');
    });
  });

  it('backfills a transcript whose lines say the year 275760 and 1999: kept, flagged, not "running"', async () => {
    const tree = mkdtempSync(path.join(tmpdir(), 'ct-far-'));
    try {
      mkdirSync(path.join(tree, 'proj'));
      const line = (i: number, timestamp: string) =>
        JSON.stringify({
          type: 'user',
          sessionId: 'far-backfill',
          uuid: `u${i}`,
          timestamp,
          message: { role: 'user', content: `prompt ${i}` },
        });
      const lines = [
        line(0, '+275760-09-13T00:00:00.000Z'),
        line(1, '1999-12-31T23:59:59.000Z'),
        line(2, iso(T0)),
        line(3, iso(T1)),
      ];
      writeFileSync(path.join(tree, 'proj', 'far-backfill.jsonl'), `${lines.join('\n')}\n`);
      const r = await runCli(['backfill', '--dir', tree, '--webapi', server.url], { env: server.env });
      expect(r.code, r.stderr).toBe(0);
      const session = await getJson(server, '/api/sessions/far-backfill');
      expect(session.status).toBe(200);
      expect(session.body.startedAt).toBe(iso(T0));
      expect(session.body.lastActivity).toBe(iso(T1));
      expect(session.body.status).not.toBe('running');
      const page = await getJson(server, '/api/sessions/far-backfill/transcript');
      expect(
        page.body.entries.map((e: { timestampOutOfRange?: boolean }) => e.timestampOutOfRange ?? false),
      ).toEqual([true, true, false, false]);
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  });

  describe('range queries cap the days they read', () => {
    it(`/api/activity refuses more than ${MAX_RANGE_DAYS} days with a 400 that says the cap`, async () => {
      const { status, body } = await getJson(server, '/api/activity?from=0001-01-01&to=9999-12-31');
      expect(status).toBe(400);
      expect(body.error.message).toContain(`at most ${MAX_RANGE_DAYS} days`);
      const ok = await getJson(server, '/api/activity?from=2016-01-01&to=2025-12-31');
      expect(ok.status).toBe(200);
    });
  });

  describe('offsets past int4 answer alike on every engine', () => {
    const SID = 'offset-session';
    beforeAll(async () => {
      expect((await post([summary(SID), chunk(SID, [iso(T0), iso(T1)])])).status).toBe(200);
    });

    it.each([
      `/api/sessions/${SID}/transcript?offset=2147483600`,
      `/api/sessions/${SID}/turns?offset=2147483600`,
      `/api/sessions/${SID}/events?offset=2147483600`,
      '/api/sessions?offset=2147483600',
      '/api/turns?offset=2147483600',
      '/api/search?q=a&offset=2147483600',
    ])('%s → 400 naming the limit', async (path) => {
      const { status, body } = await getJson(server, path);
      expect(status).toBe(400);
      expect(body.error.message).toContain(`offset: must be at most ${MAX_OFFSET}`);
    });

    it('the deepest offset allowed answers an empty page', async () => {
      const { status, body } = await getJson(server, `/api/sessions/${SID}/transcript?offset=${MAX_OFFSET}`);
      expect(status).toBe(200);
      expect(body.entries).toEqual([]);
      const search = await getJson(server, `/api/search?q=line&offset=${MAX_OFFSET}`);
      expect(search.status).toBe(200);
      expect(search.body.hits).toEqual([]);
    });

    it('/raw/{index}: 404 up to the int4 limit, 400 past it', async () => {
      expect((await getJson(server, `/api/sessions/${SID}/raw/2147483647`)).status).toBe(404);
      const past = await getJson(server, `/api/sessions/${SID}/raw/2147483648`);
      expect(past.status).toBe(400);
      expect(past.body.error.message).toContain(`index: must be at most ${MAX_COUNT}`);
    });
  });

  describe('object names', () => {
    const put = (path: string) =>
      fetch(`${server.url}/api/ingest/objects/${path}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream' },
        body: 'x',
      });

    it('a segment of more than 255 bytes is a 400 naming the limit, with no server path', async () => {
      for (const path of [`s/${'a'.repeat(256)}`, `s/sub/${'b'.repeat(300)}.jsonl`]) {
        const res = await put(path);
        const body = (await res.json()) as { error: { message: string } };
        expect(res.status).toBe(400);
        expect(body.error.message).toContain('at most 255');
        expect(body.error.message).not.toContain(server.root);
        expect(body.error.message).not.toMatch(/ENAMETOOLONG|object-uploads/);
      }
      // The test S3 server (s3rver) keeps each object in a file named after its key plus a suffix
      // and metadata suffixes of its own, so it cannot hold a 255-byte name; real S3 keys go to 1024 bytes.
      const longest = engine.name === 'sqlite' ? 255 : 200;
      expect((await put(`s/${'a'.repeat(longest)}`)).status).toBe(200);
    });

    it('odd characters in any segment are a 400', async () => {
      for (const path of ['s/a%00b', 's/%E2%9C%93.jsonl', 's/sub/..%2F..%2Fetc', 's/a%5Cb']) {
        const res = await put(path);
        expect(res.status, path).toBe(400);
      }
    });
  });

  it('a duplicated q= is said to be given twice', async () => {
    const { status, body } = await getJson(server, '/api/search?q=a&q=b');
    expect(status).toBe(400);
    expect(body.error.message).toBe('query parameter q: given 2 times; give it once');
  });

  it('the poisoned summary end to end: refused, and /api/health answers within 100 ms while /api/activity runs', async () => {
    await refused([summary('poison-e2e', { activity: [[-8640000000000000, 8640000000000000]] })], 'activity');
    // The widest range the cap allows, read over and over while health is asked.
    const to = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - (MAX_RANGE_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
    await timed('/api/health'); // a connection open and the route warm
    /** The median of nine health answers while the calendar is read over and over. */
    const round = async (): Promise<number[]> => {
      let running = true;
      const load = (async () => {
        let n = 0;
        while (running) {
          const r = await timed(`/api/activity?from=${from}&to=${to}`);
          expect(r.status).toBe(200);
          n++;
        }
        return n;
      })();
      const health: number[] = [];
      for (let i = 0; i < 9; i++) {
        await new Promise((r) => setTimeout(r, 20));
        const r = await timed('/api/health');
        expect(r.status).toBe(200);
        health.push(r.ms);
      }
      running = false;
      expect(await load).toBeGreaterThan(0);
      return health;
    };
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    // The explicit bound, on the median of a round, in the best of three rounds: the
    // machines this runs on are shared, and a sample can wait on another process's time slice,
    // while an event loop blocked by the calendar delays every sample of every round.
    const rounds: number[][] = [];
    for (let i = 0; i < 3 && !rounds.some((h) => median(h) < 100); i++) rounds.push(await round());
    const said = rounds.map((h) => h.map((m) => m.toFixed(1)).join(', ')).join(' | ');
    expect(Math.min(...rounds.map(median)), `health took ${said} ms`).toBeLessThan(100);
  });
});
