/**
 * Store read routes (what export uses): `_all_docs` paging in id order, single documents with
 * `:` and `/` in their ids, local documents, revisions in bulk, object listing and streaming with
 * Content-Length and byte ranges.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/client/api-client.js';
import { ApiConnectionError, ApiError } from '../../src/client/api-error.js';
import { patientDispatcher } from '../../src/client/patient-dispatcher.js';
import { openTestApp, type TestApp } from '../support/api-app.js';
import { getJson, sendJson, readJson } from '../support/api-server.js';
import { describeEngines } from '../support/engines.js';
import { claudeCorpusDir } from '../support/paths.js';

const BIG = '1b2c0332-e2dc-459f-88b9-1aad6e941e18';
const BIG_FILE = path.join(claudeCorpusDir, 'SWORDIntel__claude-backups', `${BIG}.jsonl`);
const WITH_SUBAGENT = 'cc1df109-4282-4321-8248-8bbcd471da78';
const SUBAGENT = 'subagents/agent-a0a2928875cb36a92.jsonl';

let server: TestApp;

describeEngines('store routes', (engine) => {
  beforeAll(async () => {
    server = await openTestApp(engine, { corpus: true });
  });

  afterAll(async () => {
    await server?.close();
  });

  describe('GET /api/store/docs', () => {
    it('answers in CouchDB _all_docs shape, in id order, without _local docs', async () => {
      const { status, body } = await getJson(server, '/api/store/docs?limit=50');
      expect(status).toBe(200);
      expect(body).toMatchObject({ offset: 0, total_rows: expect.any(Number) });
      expect(body.rows).toHaveLength(50);
      const ids = body.rows.map((r: { id: string }) => r.id);
      expect([...ids].sort()).toEqual(ids);
      for (const r of body.rows) {
        expect(r.key).toBe(r.id);
        expect(r.value.rev).toMatch(/^\d+-[0-9a-f]+$/);
        expect(r.doc).toBeUndefined();
        expect(r.id.startsWith('_local/')).toBe(false);
      }
    });

    it('pages the whole store with a JSON startkey and include_docs', async () => {
      const seen: string[] = [];
      let startkey: string | undefined;
      for (;;) {
        const q = new URLSearchParams({ limit: '300', include_docs: 'true' });
        if (startkey !== undefined) {
          q.set('startkey', JSON.stringify(startkey));
          q.set('skip', '1');
        }
        const { body } = await getJson(server, `/api/store/docs?${q}`);
        for (const r of body.rows) {
          expect(r.doc._id).toBe(r.id);
          expect(r.doc._rev).toBe(r.value.rev);
          seen.push(r.id);
        }
        if (body.rows.length < 300) break;
        startkey = body.rows[body.rows.length - 1].id;
      }
      const total = (await getJson(server, '/api/store/docs?limit=0')).body.total_rows;
      expect(seen).toHaveLength(total);
      expect(new Set(seen).size).toBe(total);
    });

    it('accepts a bare startkey and an endkey', async () => {
      const json = await getJson(
        server,
        `/api/store/docs?startkey=${encodeURIComponent('"summary:"')}&endkey=${encodeURIComponent('"summary:\uffff"')}`,
      );
      const bare = await getJson(server, '/api/store/docs?startkey=summary:&endkey=summary:%EF%BF%BF');
      expect(bare.body.rows).toEqual(json.body.rows);
      expect(json.body.rows.length).toBeGreaterThan(20);
      for (const r of json.body.rows) expect(r.id.startsWith('summary:')).toBe(true);
    });

    it('clamps limit and rejects bad parameters', async () => {
      expect((await getJson(server, '/api/store/docs?limit=0')).body.rows).toEqual([]);
      expect((await getJson(server, '/api/store/docs?startkey=%5B1%5D')).status).toBe(400);
      const bad = await getJson(server, '/api/store/docs?skip=-2');
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toContain('skip');
      const unknown = await getJson(server, '/api/store/docs?descending=true');
      expect(unknown.status).toBe(400);
      expect(unknown.body.error.message).toContain('descending');
    });
  });

  describe('GET /api/store/docs.ndjson', () => {
    it('streams every session document in bundle form: id order, no _rev, no design documents', async () => {
      const res = await server.fetch(`/api/store/docs.ndjson`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
      const text = await res.text();
      expect(text.endsWith('\n')).toBe(true);
      const lines = text.slice(0, -1).split('\n');
      const docs = lines.map((l) => JSON.parse(l) as Record<string, unknown> & { _id: string });
      const ids = docs.map((d) => d._id);
      expect([...ids].sort()).toEqual(ids);
      expect(ids.some((id) => id.startsWith('_'))).toBe(false);
      expect(docs.some((d) => '_rev' in d)).toBe(false);
      // The same documents _all_docs holds, minus design documents, and each line is the stored
      // content as the single-document route returns it.
      const all = await getJson(server, '/api/store/docs?limit=10000');
      expect(ids).toEqual(
        all.body.rows.map((r: { id: string }) => r.id).filter((id: string) => !id.startsWith('_')),
      );
      for (const d of [docs[0]!, docs[Math.floor(docs.length / 2)]!, docs[docs.length - 1]!]) {
        const { body } = await getJson(server, `/api/store/docs/${encodeURIComponent(d._id)}`);
        const { _rev, ...content } = body;
        expect(d).toEqual(content);
        expect(Object.keys(d)[0]).toBe('_id');
      }
    });

    it('selects a range with startkey and endkey, and refuses unknown parameters', async () => {
      const q = new URLSearchParams({ startkey: JSON.stringify(`summary:${BIG}`), endkey: `summary:${BIG}` });
      const text = await (await server.fetch(`/api/store/docs.ndjson?${q}`)).text();
      const lines = text.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({ _id: `summary:${BIG}`, type: 'summary', sessionId: BIG });
      const none = await server.fetch(`/api/store/docs.ndjson?startkey=zzz`);
      expect(await none.text()).toBe('');
      const bad = await getJson(server, '/api/store/docs.ndjson?limit=5');
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toMatch(/query parameter limit: unknown/);
    });
  });

  describe('GET /api/store/docs/{id}', () => {
    it('reads documents whose ids contain ":" and "/", encoded or not', async () => {
      const summary = await getJson(server, `/api/store/docs/summary:${BIG}`);
      expect(summary.status).toBe(200);
      expect(summary.body).toMatchObject({ _id: `summary:${BIG}`, type: 'summary', sessionId: BIG });
      const design = await getJson(server, '/api/store/docs/_design/full-text');
      expect(design.body._id).toBe('_design/full-text');
      const encoded = await getJson(server, `/api/store/docs/${encodeURIComponent('_design/full-text')}`);
      expect(encoded.body).toEqual(design.body);
      const chunks = await getJson(
        server,
        `/api/store/docs?startkey=${encodeURIComponent(JSON.stringify(`chunk:${WITH_SUBAGENT}:subagents/`))}&limit=1`,
      );
      const chunkId = chunks.body.rows[0].id as string;
      expect(chunkId).toContain('/');
      expect((await getJson(server, `/api/store/docs/${chunkId}`)).body._id).toBe(chunkId);
    });

    it('reads local documents and 404s unknown ids', async () => {
      const client = new ApiClient({ baseUrl: await server.listen() });
      const missing = await getJson(server, '/api/store/docs/_local/nothing-here');
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe('not_found');
      expect(await client.getLocal('_local/nothing-here')).toBeNull();
      expect((await getJson(server, '/api/store/docs/summary:nope')).status).toBe(404);
      expect(await client.getDoc('summary:nope')).toBeNull();
      // A local document written through ingest reads back as {_id, value}.
      await sendJson(server, 'POST', '/api/ingest/docs', {
        docs: [],
        locals: [{ id: '_local/test:x', value: { n: 1 } }],
      });
      expect((await getJson(server, '/api/store/docs/_local/test:x')).body).toEqual({
        _id: '_local/test:x',
        value: { n: 1 },
      });
      expect(await client.getLocal('_local/test:x')).toEqual({ n: 1 });
    });
  });

  describe('POST /api/store/revs', () => {
    it('returns current revisions and omits absent ids', async () => {
      const { status, body } = await sendJson(server, 'POST', '/api/store/revs', {
        ids: [`summary:${BIG}`, 'summary:nope'],
      });
      expect(status).toBe(200);
      expect(Object.keys(body.revs)).toEqual([`summary:${BIG}`]);
      const bad = await sendJson(server, 'POST', '/api/store/revs', { ids: 'x' });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toContain('ids');
    });
  });

  describe('objects', () => {
    it("lists a session's objects", async () => {
      const { status, body } = await getJson(server, `/api/store/objects/${WITH_SUBAGENT}/`);
      expect(status).toBe(200);
      expect(body.objects.map((o: { name: string }) => o.name)).toEqual([
        'subagents/agent-a0a2928875cb36a92.jsonl',
        'transcript.jsonl',
      ]);
      for (const o of body.objects) expect(o.key).toBe(`${WITH_SUBAGENT}/${o.name}`);
      expect((await getJson(server, '/api/store/objects/no-such-session/')).status).toBe(404);
    });

    it("lists every session's objects a page at a time, as the per-session listings do", async () => {
      const seen: Array<{ key: string; sessionId: string; name: string; size: number }> = [];
      let after: string | undefined;
      for (let pages = 0; ; pages++) {
        const query = `limit=7${after === undefined ? '' : `&after=${encodeURIComponent(after)}`}`;
        const { status, body } = await getJson(server, `/api/store/objects?${query}`);
        expect(status).toBe(200);
        expect(body.objects.length).toBeLessThanOrEqual(7);
        seen.push(...body.objects);
        if (body.next === null) break;
        expect(body.next).toBe(body.objects.at(-1).key);
        after = body.next;
      }
      const keys = seen.map((o) => o.key);
      expect([...keys].sort()).toEqual(keys);
      expect(new Set(keys).size).toBe(keys.length);
      for (const o of seen) expect(o.key).toBe(`${o.sessionId}/${o.name}`);

      // The same objects, sizes included, as listing each session on its own gives.
      const sessions = [...new Set(seen.map((o) => o.sessionId))];
      expect(sessions).toContain(WITH_SUBAGENT);
      const one = seen.filter((o) => o.sessionId === WITH_SUBAGENT);
      const perSession = (await getJson(server, `/api/store/objects/${WITH_SUBAGENT}/`)).body.objects;
      expect(one.map((o) => [o.key, o.size])).toEqual(
        perSession.map((o: { key: string; size: number }) => [o.key, o.size]),
      );
      const { body: health } = await getJson(server, '/api/health');
      expect(seen.length).toBe(health.counts.objects);

      const whole = (await getJson(server, '/api/store/objects')).body;
      expect(whole.objects.map((o: { key: string }) => o.key)).toEqual(keys);
      expect(whole.next).toBeNull();
    });

    it('refuses a bad page size or an unknown parameter on the store-wide listing', async () => {
      for (const query of ['limit=-1', 'limit=x', 'limit=0', 'start=a']) {
        const { status, body } = await getJson(server, `/api/store/objects?${query}`);
        expect(status, query).toBe(400);
        expect(body.error.message, query).toMatch(/limit|start/);
      }
    });

    it('streams an object byte for byte with Content-Length and Accept-Ranges', async () => {
      const res = await server.fetch(`/api/store/objects/${BIG}/transcript.jsonl`);
      expect(res.status).toBe(200);
      const expected = readFileSync(BIG_FILE);
      expect(res.headers.get('content-length')).toBe(String(expected.length));
      expect(res.headers.get('accept-ranges')).toBe('bytes');
      const got = Buffer.from(await res.arrayBuffer());
      expect(createHash('sha256').update(got).digest('hex')).toBe(
        createHash('sha256').update(expected).digest('hex'),
      );
      const sub = await server.fetch(`/api/store/objects/${WITH_SUBAGENT}/${SUBAGENT}`);
      expect(sub.status).toBe(200);
      expect(Buffer.from(await sub.arrayBuffer())).toEqual(
        readFileSync(path.join(claudeCorpusDir, 'aaaAlexanderaaa__cchistory', WITH_SUBAGENT, SUBAGENT)),
      );
    });

    it('serves byte ranges (206) and refuses unsatisfiable ones (416)', async () => {
      const expected = readFileSync(BIG_FILE);
      const url = `/api/store/objects/${BIG}/transcript.jsonl`;
      const first = await server.fetch(url, { headers: { range: 'bytes=0-99' } });
      expect(first.status).toBe(206);
      expect(first.headers.get('content-range')).toBe(`bytes 0-99/${expected.length}`);
      expect(first.headers.get('content-length')).toBe('100');
      expect(Buffer.from(await first.arrayBuffer())).toEqual(expected.subarray(0, 100));
      const tail = await server.fetch(url, { headers: { range: 'bytes=-10' } });
      expect(Buffer.from(await tail.arrayBuffer())).toEqual(expected.subarray(expected.length - 10));
      const open = await server.fetch(url, { headers: { range: `bytes=${expected.length - 5}-` } });
      expect(open.status).toBe(206);
      expect(Buffer.from(await open.arrayBuffer())).toEqual(expected.subarray(expected.length - 5));
      const beyond = await server.fetch(url, { headers: { range: `bytes=${expected.length}-` } });
      expect(beyond.status).toBe(416);
      expect(beyond.headers.get('content-range')).toBe(`bytes */${expected.length}`);
      expect((await readJson(beyond)).error.code).toBe('range_not_satisfiable');
      const head = await server.fetch(url, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe(String(expected.length));
    });

    it('answers HEAD with the sha-256 of the whole object when asked (Want-Repr-Digest)', async () => {
      const expected = readFileSync(BIG_FILE);
      const url = `/api/store/objects/${BIG}/transcript.jsonl`;
      const sha256 = createHash('sha256').update(expected).digest('base64');
      const asked = await server.fetch(url, {
        method: 'HEAD',
        headers: { 'want-repr-digest': 'sha-256=10' },
      });
      expect(asked.status).toBe(200);
      expect(asked.headers.get('repr-digest')).toBe(`sha-256=:${sha256}:`);
      expect(asked.headers.get('content-length')).toBe(String(expected.length));
      // Of the whole object, also for a range; never computed unasked.
      const ranged = await server.fetch(url, {
        method: 'HEAD',
        headers: { 'want-repr-digest': 'sha-256=1', range: 'bytes=0-9' },
      });
      expect(ranged.status).toBe(206);
      expect(ranged.headers.get('repr-digest')).toBe(`sha-256=:${sha256}:`);
      expect((await server.fetch(url, { method: 'HEAD' })).headers.get('repr-digest')).toBeNull();
      const refused = await server.fetch(url, {
        method: 'HEAD',
        headers: { 'want-repr-digest': 'sha-256=0' },
      });
      expect(refused.headers.get('repr-digest')).toBeNull();
    });

    it('refuses path traversal and 404s missing objects', async () => {
      for (const p of [
        `/api/store/objects/${BIG}/..%2F..%2F..%2Fetc%2Fpasswd`,
        `/api/store/objects/${BIG}/subagents%2F..%2F..%2Fx`,
        '/api/store/objects/..%2F..%2Fetc/passwd',
        `/api/store/objects/${BIG}/a%5Cb`,
      ]) {
        const r = await getJson(server, p);
        expect(r.status, p).toBe(400);
        expect(r.body.error.code).toBe('bad_request');
      }
      // A dot-segment path is normalised by URL parsing and so names no object route at all.
      const dots = await getJson(server, `/api/store/objects/${BIG}/%2e%2e/%2e%2e/%2e%2e/etc/passwd`);
      expect([400, 404]).toContain(dots.status);
      expect((await getJson(server, `/api/store/objects/${BIG}/nope.jsonl`)).status).toBe(404);
    });

    it('downloads through ApiClient.object the same bytes on the fetch and the undici paths', async () => {
      const expected = readFileSync(BIG_FILE);
      const download = async (client: ApiClient, key: string, range?: { start: number; end: number }) => {
        const parts: Buffer[] = [];
        const answer = await client.object(key, (piece) => void parts.push(Buffer.from(piece)), { range });
        return { ...answer, body: Buffer.concat(parts) };
      };
      const key = `${BIG}/transcript.jsonl`;
      for (const client of [
        new ApiClient({ baseUrl: await server.listen() }),
        new ApiClient({ baseUrl: await server.listen(), patientDispatcher: async () => patientDispatcher }),
      ]) {
        const whole = await download(client, key);
        expect(whole).toMatchObject({ status: 200, contentLength: expected.length, bytes: expected.length });
        expect(whole.body.equals(expected)).toBe(true);
        const part = await download(client, key, { start: 10, end: 110 });
        expect([part.status, part.contentLength, part.bytes]).toEqual([206, 100, 100]);
        expect(part.body.equals(expected.subarray(10, 110))).toBe(true);
        const missing = await download(client, `${BIG}/nope.jsonl`).catch((e: unknown) => e);
        expect(missing).toBeInstanceOf(ApiError);
        expect(missing).toMatchObject({ status: 404, code: 'not_found' });
        // A receiver that takes its time (a promise per piece) is waited for, and misses nothing.
        const slow: Buffer[] = [];
        const paced = await client.object(key, async (piece) => {
          await new Promise((resolve) => setTimeout(resolve, 1));
          slow.push(Buffer.from(piece));
        });
        expect(paced.bytes).toBe(expected.length);
        expect(Buffer.concat(slow).equals(expected)).toBe(true);
        // A receiver that fails (a full disk, say) ends the download with its own error.
        const full = new Error('no space left');
        const refusedByReceiver = await client
          .object(key, () => {
            throw full;
          })
          .catch((e: unknown) => e);
        expect(refusedByReceiver).toBe(full);
        // Cancelled part-way: rejects, and the client goes on working.
        const stop = new AbortController();
        const cancelled = await client
          .object(key, () => stop.abort(new Error('stopped')), { signal: stop.signal })
          .catch((e: unknown) => e);
        expect(cancelled).toBeInstanceOf(Error);
        expect((await download(client, key)).body.equals(expected)).toBe(true);
      }
      const down = new ApiClient({
        baseUrl: 'http://127.0.0.1:9',
        patientDispatcher: async () => patientDispatcher,
      });
      const refused = await down.object(key, () => undefined).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ApiConnectionError);
      expect((refused as Error).message).toMatch(
        /cannot reach the transcripts API at http:\/\/127\.0\.0\.1:9 \(ECONNREFUSED\)/,
      );
    });
  });
});
