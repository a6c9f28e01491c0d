/**
 * Write routes: per-document outcomes (written / unchanged / conflict), validation naming the
 * document and field, body limits (413), streaming object upload with offset and sha256,
 * path traversal in object names, reindex.
 */
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../support/api-app.js';
import { getJson, sendJson, readJson } from '../support/api-server.js';
import { describeEngines } from '../support/engines.js';
import { twoEntrySummary } from '../support/two-entry-summary.js';

/** What the CLI and the hook send with an object (anything else is refused: same-origin-writes.ts). */
const OCTETS = { 'content-type': 'application/octet-stream' };

let server: TestApp;

const SID = 'ingest-test-session';
const sha = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');

function summary(overrides: Record<string, unknown> = {}) {
  return twoEntrySummary(
    SID,
    {
      first: Date.parse('2025-07-01T10:00:00Z'),
      last: Date.parse('2025-07-01T10:30:00Z'),
      cwd: '/work/demo',
      title: 'ingest test',
      transcriptBytes: 20,
    },
    { timestamp: '2025-07-01T10:00:00.000Z', ...overrides },
  );
}

function chunk(entries: boolean) {
  return {
    _id: `chunk:${SID}:transcript.jsonl:000000000000`,
    type: 'chunk',
    sessionId: SID,
    timestamp: '2025-07-01T10:00:00.000Z',
    file: 'transcript.jsonl',
    byteStart: 0,
    byteEnd: 20,
    firstIndex: 0,
    entryCount: 2,
    ...(entries
      ? {
          entries: [
            {
              index: 0,
              byteStart: 0,
              byteEnd: 9,
              role: 'user',
              kind: 'user',
              text: 'hello zyzzyva',
              timestamp: '2025-07-01T10:00:00.000Z',
            },
            {
              index: 1,
              byteStart: 10,
              byteEnd: 19,
              role: 'assistant',
              kind: 'assistant',
              text: 'hi there',
              timestamp: '2025-07-01T10:30:00.000Z',
            },
          ],
        }
      : {}),
  };
}

/** Sends a request with a Content-Length header that claims `claimed` bytes, without sending them. */
async function claimLength(
  method: string,
  pathname: string,
  claimed: number,
  contentType: string,
): Promise<{ status: number; body: string }> {
  const url = new URL(await server.listen());
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path: pathname,
        agent: false,
        headers: { 'content-type': contentType, 'content-length': claimed },
      },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      },
    );
    req.on('error', reject);
    req.write('{');
    // Leave the rest unsent: the server must answer from the header alone.
  });
}

/** Sends `chunks` with chunked transfer encoding on a connection of its own. */
async function streamChunks(
  method: string,
  pathname: string,
  contentType: string,
  chunks: Buffer[],
): Promise<{ status: number; body: string }> {
  const url = new URL(await server.listen());
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path: pathname,
        agent: false,
        headers: { 'content-type': contentType },
      },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      },
    );
    req.on('error', (err) =>
      String(err).includes('EPIPE') || String(err).includes('ECONNRESET') ? undefined : reject(err),
    );
    (async () => {
      for (const c of chunks) if (!req.write(c)) await new Promise((r) => req.once('drain', r));
      req.end();
    })().catch(() => undefined);
  });
}

describeEngines('ingest routes', (engine) => {
  beforeAll(async () => {
    server = await openTestApp(engine);
  });

  afterAll(async () => {
    await server?.close();
  });

  describe('POST /api/ingest/docs', () => {
    it('writes, then reports unchanged, idempotently', async () => {
      const first = await sendJson(server, 'POST', '/api/ingest/docs', { docs: [summary(), chunk(true)] });
      expect(first.status).toBe(200);
      expect(first.body.results.map((r: { status: string }) => r.status)).toEqual(['written', 'written']);
      expect(first.body).toMatchObject({ written: 2, unchanged: 0, conflicts: 0 });
      const again = await sendJson(server, 'POST', '/api/ingest/docs', { docs: [summary(), chunk(true)] });
      expect(again.body.results.map((r: { status: string }) => r.status)).toEqual(['unchanged', 'unchanged']);
      expect(again.body.results[0].rev).toBe(first.body.results[0].rev);
      const session = await getJson(server, `/api/sessions/${SID}`);
      expect(session.body).toMatchObject({
        id: SID,
        title: 'ingest test',
        cwd: '/work/demo',
        source: 'test',
      });
      const turns = await getJson(server, `/api/sessions/${SID}/turns`);
      expect(turns.body.total).toBe(2);
    });

    it('reports conflicts per document without failing the others', async () => {
      const current = (await getJson(server, `/api/store/docs/summary:${SID}`)).body._rev;
      const { status, body } = await sendJson(server, 'POST', '/api/ingest/docs', {
        docs: [
          summary({ title: 'stale write', _rev: '1-00000000000000000000000000000000' }),
          summary({ title: 'no rev' }),
          { _id: '_design/test-design', anything: true },
        ],
      });
      expect(status).toBe(200);
      expect(body.results.map((r: { status: string }) => r.status)).toEqual([
        'conflict',
        'conflict',
        'written',
      ]);
      expect(body.results[0]).toMatchObject({ rev: current, reason: expect.any(String) });
      expect(body.conflicts).toBe(2);
      // With the current revision the write goes through.
      const ok = await sendJson(server, 'POST', '/api/ingest/docs', {
        docs: [summary({ title: 'renamed', _rev: current })],
      });
      expect(ok.body.results[0].status).toBe('written');
      expect((await getJson(server, `/api/sessions/${SID}`)).body.title).toBe('renamed');
    });

    it('validates every document, naming its index and field', async () => {
      const bad = await sendJson(server, 'POST', '/api/ingest/docs', {
        docs: [summary(), summary({ counts: { ...summary().counts, prompts: 'many' } })],
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('bad_request');
      expect(bad.body.error.message).toContain('docs.1.counts.prompts');
      const wrongId = await sendJson(server, 'POST', '/api/ingest/docs', {
        docs: [summary({ _id: 'summary:other' })],
      });
      expect(wrongId.status).toBe(400);
      expect(wrongId.body.error.message).toContain('docs.0._id');
      const unknownType = await sendJson(server, 'POST', '/api/ingest/docs', {
        docs: [{ _id: 'x', type: 'weird', sessionId: 's', timestamp: '2025-01-01T00:00:00Z' }],
      });
      expect(unknownType.status).toBe(400);
      expect(unknownType.body.error.message).toContain('docs.0.type');
      // Nesting no document of ours has: refused, not a stack overflow (500).
      const deep = `{"docs":[{"_id":"_design/deep","a":${'['.repeat(20_000)}${']'.repeat(20_000)}}]}`;
      const tooDeep = await getJson(server, '/api/ingest/docs', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: deep,
      });
      expect(tooDeep.status).toBe(400);
      expect(tooDeep.body.error.message).toContain('docs.0: nests deeper than 100 levels');
      const local = await sendJson(server, 'POST', '/api/ingest/docs', { docs: [{ _id: '_local/x' }] });
      expect(local.status).toBe(400);
      const notArray = await sendJson(server, 'POST', '/api/ingest/docs', { docs: 'nope' });
      expect(notArray.status).toBe(400);
      expect(notArray.body.error.message).toContain('docs');
      const badLocal = await sendJson(server, 'POST', '/api/ingest/docs', {
        docs: [],
        locals: [{ id: 'cursor', value: 1 }],
      });
      expect(badLocal.status).toBe(400);
      expect(badLocal.body.error.message).toContain('locals.0.id');
      // Nothing of a rejected batch was written.
      expect((await getJson(server, '/api/store/docs/summary:other')).status).toBe(404);
    });

    it('refuses bodies over the JSON limit with 413', async () => {
      const declared = await claimLength('POST', '/api/ingest/docs', 65 * 1024 * 1024, 'application/json');
      expect(declared.status).toBe(413);
      expect(JSON.parse(declared.body).error.code).toBe('too_large');
      // Streamed without a length: counted on the way in.
      const chunked = await streamChunks('POST', '/api/ingest/docs', 'application/json', [
        Buffer.from('{"docs":['),
        ...Array.from({ length: 65 }, () => Buffer.alloc(1024 * 1024, 0x20)),
      ]);
      expect(chunked.status).toBe(413);
      expect(JSON.parse(chunked.body).error.code).toBe('too_large');
    });
  });

  describe('PUT /api/ingest/objects/{sessionId}/{name}', () => {
    it('stores an object, appends at an offset, and streams it back', async () => {
      const put = await server.fetch(`/api/ingest/objects/${SID}/transcript.jsonl`, {
        method: 'PUT',
        headers: { ...OCTETS, 'x-content-sha256': sha('line one\n') },
        body: 'line one\n',
      });
      expect(put.status).toBe(200);
      expect(await readJson(put)).toEqual({
        key: `${SID}/transcript.jsonl`,
        size: 9,
        sha256: sha('line one\n'),
      });
      const append = await server.fetch(`/api/ingest/objects/${SID}/transcript.jsonl?offset=9`, {
        method: 'PUT',
        headers: OCTETS,
        body: 'line two\n',
      });
      expect(append.status).toBe(200);
      expect((await readJson(append)).size).toBe(18);
      expect(await (await server.fetch(`/api/store/objects/${SID}/transcript.jsonl`)).text()).toBe(
        'line one\nline two\n',
      );
      const sub = await server.fetch(`/api/ingest/objects/${SID}/subagents/agent-1.jsonl`, {
        method: 'PUT',
        headers: OCTETS,
        body: '{}\n',
      });
      expect(sub.status).toBe(200);
      const list = await getJson(server, `/api/store/objects/${SID}/`);
      expect(list.body.objects.map((o: { name: string }) => o.name)).toEqual([
        'subagents/agent-1.jsonl',
        'transcript.jsonl',
      ]);
    });

    it('409s an offset past the stored bytes, 400s a checksum mismatch, and keeps the object intact', async () => {
      const past = await server.fetch(`/api/ingest/objects/${SID}/transcript.jsonl?offset=1000`, {
        method: 'PUT',
        headers: OCTETS,
        body: 'x',
      });
      expect(past.status).toBe(409);
      expect((await readJson(past)).error.code).toBe('conflict');
      const mismatch = await server.fetch(`/api/ingest/objects/${SID}/transcript.jsonl`, {
        method: 'PUT',
        headers: { ...OCTETS, 'x-content-sha256': sha('something else') },
        body: 'replacement\n',
      });
      expect(mismatch.status).toBe(400);
      expect((await readJson(mismatch)).error.message).toMatch(/sha256/);
      expect(await (await server.fetch(`/api/store/objects/${SID}/transcript.jsonl`)).text()).toBe(
        'line one\nline two\n',
      );
      const badSha = await server.fetch(`/api/ingest/objects/${SID}/x.jsonl`, {
        method: 'PUT',
        headers: { ...OCTETS, 'x-content-sha256': 'zz' },
        body: 'x',
      });
      expect(badSha.status).toBe(400);
      expect((await readJson(badSha)).error.message).toContain('x-content-sha256');
      const badOffset = await server.fetch(`/api/ingest/objects/${SID}/x.jsonl?offset=-1`, {
        method: 'PUT',
        headers: OCTETS,
        body: 'x',
      });
      expect(badOffset.status).toBe(400);
      expect((await readJson(badOffset)).error.message).toContain('offset');
    });

    it('survives a client that goes away mid-upload, keeping the object as it was', async () => {
      const url = new URL(await server.listen());
      for (const offset of [undefined, 18]) {
        // Headers and a first piece, then the connection drops (a killed backfill or import).
        await new Promise<void>((resolve) => {
          const req = request({
            host: url.hostname,
            port: url.port,
            method: 'PUT',
            path: `/api/ingest/objects/${SID}/transcript.jsonl${offset ? `?offset=${offset}` : ''}`,
            agent: false,
            headers: { 'content-type': 'application/octet-stream', 'content-length': '100000' },
          });
          req.on('error', () => resolve());
          // Reset at once, as fetch does when the body it streams fails: the server is still
          // opening its temp file, not yet reading the body.
          req.write('partial upl', () => req.socket?.resetAndDestroy());
          req.on('close', () => resolve());
        });
        const health = await getJson(server, '/api/health');
        expect(health.status).toBe(200);
        expect(await (await server.fetch(`/api/store/objects/${SID}/transcript.jsonl`)).text()).toBe(
          'line one\nline two\n',
        );
      }
    });

    it('refuses path traversal in object names', async () => {
      for (const p of [
        `${SID}/..%2F..%2F..%2Ftmp%2Fescaped`,
        `${SID}/subagents%2F..%2F..%2Fx`,
        `${SID}/%2Fetc%2Fpasswd`,
        '..%2Fescape/transcript.jsonl',
        `${SID}/a%5C..%5Cb`,
        `${SID}/bad%00name`,
      ]) {
        const res = await server.fetch(`/api/ingest/objects/${p}`, {
          method: 'PUT',
          headers: OCTETS,
          body: 'x',
        });
        expect(res.status, p).toBe(400);
        expect((await readJson(res)).error.code).toBe('bad_request');
      }
    });

    it('refuses objects over the upload limit with 413', async () => {
      const r = await claimLength(
        'PUT',
        `/api/ingest/objects/${SID}/huge.jsonl`,
        3 * 1024 * 1024 * 1024,
        'application/octet-stream',
      );
      expect(r.status).toBe(413);
      expect(JSON.parse(r.body).error.code).toBe('too_large');
    });
  });

  describe('POST /api/ingest/reindex', () => {
    it('rebuilds the full-text index', async () => {
      const { status, body } = await sendJson(server, 'POST', '/api/ingest/reindex', {});
      expect(status).toBe(200);
      expect(body.entries).toBeGreaterThanOrEqual(2);
      const hit = await getJson(server, '/api/search?q=zyzzyva');
      expect(hit.body.hits[0]).toMatchObject({ sessionId: SID, index: 0 });
    });

    it('catches up with documents written with deferSearch, which search says it lacks until then', async () => {
      const later = {
        ...chunk(true),
        _id: `chunk:${SID}-later:transcript.jsonl:000000000000`,
        sessionId: `${SID}-later`,
        entries: [{ ...chunk(true).entries![0]!, text: 'quokka sighting' }],
        entryCount: 1,
      };
      const written = await sendJson(server, 'POST', '/api/ingest/docs', {
        docs: [later],
        deferSearch: true,
      });
      expect(written.body).toMatchObject({ written: 1 });
      expect((await getJson(server, '/api/search?q=quokka')).body).toMatchObject({ total: 0, stale: true });
      expect((await getJson(server, '/api/health')).body.search).toEqual({ enabled: true, stale: true });
      expect((await sendJson(server, 'POST', '/api/ingest/reindex', {})).status).toBe(200);
      const found = (await getJson(server, '/api/search?q=quokka')).body;
      expect(found).toMatchObject({ total: 1, stale: false, hits: [{ sessionId: `${SID}-later` }] });
      expect((await getJson(server, '/api/health')).body.search).toEqual({ enabled: true, stale: false });
      const bad = await sendJson(server, 'POST', '/api/ingest/docs', { docs: [], deferSearch: 'yes' });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toMatch(/deferSearch/);
    });
  });
});
