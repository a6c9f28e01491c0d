/**
 * Every error, whatever produced it (validation, a handler, the store, routing, body parsing),
 * has one shape — `{error: {code, message}}` as JSON — a 4xx status, never a 5xx for bad input,
 * and a message naming the bad parameter where there is one (after Datasette's test_error_shape).
 */
import { maxHeaderSize, request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../support/api-app.js';
import { readJson } from '../support/api-server.js';
import { describeEngines } from '../support/engines.js';

const BIG = '1b2c0332-e2dc-459f-88b9-1aad6e941e18';

let server: TestApp;

interface Case {
  method?: string;
  path: string;
  body?: string;
  contentType?: string;
  status: number;
  /** Text the message must contain (the parameter's name). */
  names?: string;
}

const json = 'application/json';

const CASES: Case[] = [
  // sessions list: every parameter, every kind of bad value
  { path: '/api/sessions?limit=abc', status: 400, names: 'limit' },
  { path: '/api/sessions?limit=-5', status: 400, names: 'limit' },
  { path: '/api/sessions?limit=1.5', status: 400, names: 'limit' },
  { path: '/api/sessions?limit=', status: 400, names: 'limit' },
  { path: '/api/sessions?offset=x', status: 400, names: 'offset' },
  { path: '/api/sessions?offset=-1', status: 400, names: 'offset' },
  { path: '/api/sessions?limit=1&limit=2', status: 400, names: 'limit' },
  { path: '/api/sessions?from=yesterday', status: 400, names: 'from' },
  { path: '/api/sessions?to=2025-13-45', status: 400, names: 'to' },
  { path: '/api/sessions?from=2025-09-01&to=2025-08-01', status: 400, names: 'from' },
  // days that do not exist are refused, not rolled into the next month
  { path: '/api/sessions?to=2025-02-30', status: 400, names: 'to' },
  { path: '/api/sessions?from=2025-06-31T10:00:00Z', status: 400, names: 'from' },
  { path: '/api/search?q=a&to=2025-06-31', status: 400, names: 'to' },
  { path: '/api/activity?from=2025-02-29', status: 400, names: 'from' },
  { path: '/api/sessions?cwd=', status: 400, names: 'cwd' },
  { path: '/api/sessions?model=', status: 400, names: 'model' },
  { path: '/api/sessions?hostname=', status: 400, names: 'hostname' },
  { path: '/api/sessions?source=', status: 400, names: 'source' },
  { path: '/api/sessions?sort=title', status: 400, names: 'sort' },
  // one session and its sub-resources
  { path: '/api/sessions/no-such-session', status: 404 },
  { path: '/api/sessions/bad%20id%2F', status: 400, names: 'id' },
  { path: '/api/sessions/no-such-session/transcript', status: 404 },
  { path: `/api/sessions/${BIG}/transcript?file=../../etc/passwd`, status: 400, names: 'file' },
  { path: `/api/sessions/${BIG}/transcript?file=/etc/passwd`, status: 400, names: 'file' },
  { path: `/api/sessions/${BIG}/transcript?file=nope.jsonl`, status: 404 },
  { path: `/api/sessions/${BIG}/transcript?limit=x`, status: 400, names: 'limit' },
  { path: `/api/sessions/${BIG}/transcript?page=2`, status: 400, names: 'page' },
  { path: `/api/sessions/${BIG}/turns?role=robot`, status: 400, names: 'role' },
  { path: `/api/sessions/${BIG}/turns?offset=-1`, status: 400, names: 'offset' },
  { path: '/api/sessions/no-such-session/turns', status: 404 },
  { path: `/api/sessions/${BIG}/raw/abc`, status: 400, names: 'index' },
  { path: `/api/sessions/${BIG}/raw/-1`, status: 400, names: 'index' },
  { path: `/api/sessions/${BIG}/raw/999999`, status: 404 },
  { path: `/api/sessions/${BIG}/raw/0?file=..%2Fx`, status: 400, names: 'file' },
  { path: '/api/sessions/no-such-session/raw/0', status: 404 },
  { path: '/api/sessions/no-such-session/events', status: 404 },
  { path: `/api/sessions/${BIG}/events?limit=no`, status: 400, names: 'limit' },
  { path: '/api/sessions/no-such-session/markdown', status: 404 },
  // turns across sessions
  { path: '/api/turns?role=robot', status: 400, names: 'role' },
  { path: '/api/turns?from=yesterday', status: 400, names: 'from' },
  { path: '/api/turns?to=2025-02-30', status: 400, names: 'to' },
  { path: '/api/turns?from=2025-07-02&to=2025-07-01', status: 400, names: 'from' },
  { path: '/api/turns?limit=-1', status: 400, names: 'limit' },
  { path: '/api/turns?cwd=', status: 400, names: 'cwd' },
  { path: '/api/turns?session=x', status: 400, names: 'session' },
  // search, activity, facets
  { path: '/api/search', status: 400, names: 'q' },
  { path: '/api/search?q=', status: 400, names: 'q' },
  { path: '/api/search?q=%20%20', status: 400, names: 'q' },
  { path: `/api/search?q=${'x'.repeat(1001)}`, status: 400, names: 'q' },
  { path: '/api/search?q=a&limit=z', status: 400, names: 'limit' },
  { path: '/api/search?q=a&from=never', status: 400, names: 'from' },
  { path: '/api/activity?from=2025-02-30x', status: 400, names: 'from' },
  { path: '/api/activity?to=soon', status: 400, names: 'to' },
  { path: '/api/facets/title', status: 400, names: 'attribute' },
  { path: '/api/facets/model?colour=red', status: 400, names: 'colour' },
  { path: '/api/facets/model?from=2025-09-01&to=2025-08-01', status: 400, names: 'from' },
  // store
  { path: '/api/store/docs?limit=-1', status: 400, names: 'limit' },
  { path: '/api/store/docs?include_docs=1', status: 400, names: 'include_docs' },
  { path: '/api/store/docs?startkey=%7B%22a%22%3A1%7D', status: 400, names: 'startkey' },
  { path: '/api/store/docs?startkey=%22a%22&start_key=%22b%22', status: 400, names: 'start_key' },
  { path: '/api/store/docs/summary:nope', status: 404 },
  { path: '/api/store/docs/_local/nope', status: 404 },
  { path: '/api/store/objects/no-such-session/', status: 404 },
  { path: `/api/store/objects/${BIG}/nope.jsonl`, status: 404 },
  { path: `/api/store/objects/${BIG}/..%2F..%2Fsecret`, status: 400, names: 'name' },
  { path: '/api/store/objects/bad%20%2Fid/x', status: 400, names: 'sessionId' },
  { path: '/api/store/docs.ndjson?session=', status: 400, names: 'session' },
  { path: '/api/store/docs.ndjson?session=..%2Fx', status: 400, names: 'session' },
  { method: 'POST', path: '/api/store/revs', body: '{}', contentType: json, status: 400, names: 'ids' },
  {
    method: 'POST',
    path: '/api/store/revs',
    body: '{"ids":[1]}',
    contentType: json,
    status: 400,
    names: 'ids',
  },
  // ingest
  { method: 'POST', path: '/api/ingest/docs', body: '{', contentType: json, status: 400, names: 'JSON' },
  { method: 'POST', path: '/api/ingest/docs', body: '', contentType: json, status: 400 },
  { method: 'POST', path: '/api/ingest/docs', body: '{"docs":[]}', contentType: 'text/plain', status: 415 },
  {
    method: 'POST',
    path: '/api/ingest/docs',
    body: '{"docs":[1]}',
    contentType: json,
    status: 400,
    names: 'docs.0',
  },
  {
    method: 'POST',
    path: '/api/ingest/docs',
    body: '{"docs":[],"extra":1}',
    contentType: json,
    status: 400,
    names: 'extra',
  },
  {
    method: 'POST',
    path: '/api/ingest/docs',
    body: '{"docs":[{"_id":"summary:x","type":"summary"}]}',
    contentType: json,
    status: 400,
    names: 'docs.0.sessionId',
  },
  {
    method: 'PUT',
    path: '/api/ingest/objects/s1/..%2F..%2Fx',
    body: 'x',
    contentType: 'application/octet-stream',
    status: 400,
    names: 'name',
  },
  {
    method: 'PUT',
    path: '/api/ingest/objects/s1/x.jsonl?offset=abc',
    body: 'x',
    contentType: 'application/octet-stream',
    status: 400,
    names: 'offset',
  },
  {
    method: 'PUT',
    path: '/api/ingest/objects/s1/x.jsonl?bogus=1',
    body: 'x',
    contentType: 'application/octet-stream',
    status: 400,
    names: 'bogus',
  },
  {
    method: 'PUT',
    path: '/api/ingest/objects/s1/x.jsonl?offset=5',
    body: 'x',
    contentType: 'application/octet-stream',
    status: 409,
  },
  // migrate
  {
    method: 'POST',
    path: '/api/migrate/up',
    body: '{"to":"x"}',
    contentType: json,
    status: 400,
    names: 'to',
  },
  { method: 'POST', path: '/api/migrate/up', body: '{"to":42}', contentType: json, status: 400, names: 'to' },
  {
    method: 'POST',
    path: '/api/migrate/down',
    body: '{"steps":"all"}',
    contentType: json,
    status: 400,
    names: 'steps',
  },
  { method: 'POST', path: '/api/migrate/down', body: 'nope', contentType: json, status: 400 },
  // routing: unknown routes and wrong methods
  { path: '/api/nope', status: 404 },
  { path: '/api/sessions/x/y/z', status: 404 },
  { path: '/api/store', status: 404 },
  { method: 'DELETE', path: '/api/sessions', status: 405 },
  { method: 'POST', path: `/api/sessions/${BIG}`, body: '{}', contentType: json, status: 405 },
  { method: 'GET', path: '/api/ingest/docs', status: 405 },
  { method: 'GET', path: '/api/migrate/up', status: 405 },
  { method: 'PUT', path: '/api/migrate/status', body: '{}', contentType: json, status: 405 },
  { method: 'DELETE', path: `/api/store/docs/summary:${BIG}`, status: 405 },
  { method: 'GET', path: '/api/ingest/objects/s1/x.jsonl', status: 405 },
  { method: 'OPTIONS', path: '/api/sessions', status: 405 },
  { method: 'PATCH', path: '/api/health', status: 405 },
];

/** POSTs `chunks` as a chunked body (no Content-Length, so the limit is counted on the way in). */
async function postChunks(
  pathname: string,
  chunks: Buffer[],
): Promise<{ status: number; type?: string; body: string }> {
  const url = new URL(await server.listen());
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: pathname,
        agent: false,
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], body }));
      },
    );
    // The server may answer and close before the whole body is sent.
    req.on('error', (err) => (/EPIPE|ECONNRESET/.test(String(err)) ? undefined : reject(err)));
    (async () => {
      for (const c of chunks) if (!req.write(c)) await new Promise((r) => req.once('drain', r));
      req.end();
    })().catch(() => undefined);
  });
}

/**
 * Sends `head` as the raw bytes of a request and reads the answer until the server closes: Node's
 * parser answers what it refuses itself, before the app sees the request.
 */
async function rawRequest(head: string): Promise<{ status: number; type?: string; body: string }> {
  const url = new URL(await server.listen());
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (text += d));
    socket.on('error', (err) => (/ECONNRESET|EPIPE/.test(String(err)) && text ? undefined : reject(err)));
    socket.on('close', () => {
      const [headers = '', body = ''] = text.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1]);
      const type = /^content-type: *(.*)$/im.exec(headers)?.[1]?.trim();
      resolve({ status, type, body });
    });
    socket.write(head);
  });
}

describeEngines('error shape', (engine) => {
  beforeAll(async () => {
    server = await openTestApp(engine, { corpus: true });
  });

  afterAll(async () => {
    await server?.close();
  });

  describe('error shape', () => {
    it.each(CASES.map((c) => [`${c.method ?? 'GET'} ${c.path.slice(0, 90)}`, c] as const))(
      '%s',
      async (_name, c) => {
        const res = await server.fetch(c.path, {
          method: c.method ?? 'GET',
          body: c.body,
          headers: c.contentType ? { 'content-type': c.contentType } : undefined,
        });
        expect(res.status).toBe(c.status);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        const body = await readJson(res);
        expect(Object.keys(body)).toEqual(['error']);
        expect(Object.keys(body.error).sort()).toEqual(['code', 'message']);
        expect(body.error.code).toMatch(/^[a-z_]+$/);
        expect(body.error.message.length).toBeGreaterThan(5);
        // The message starts by saying what is wrong, named the same way on every route.
        if (c.names)
          expect(body.error.message).toMatch(
            c.names === 'JSON'
              ? /^request body: malformed JSON/
              : new RegExp(`^((query|path) parameter|body field) ${c.names.replace(/\./g, '\\.')}[.:]`),
          );
        if (c.status === 405) expect(res.headers.get('allow')).toBeTruthy();
      },
    );

    it('refuses a POST /api/store/revs body over the 64 MiB JSON limit with 413', async () => {
      // Valid JSON, 65 MiB: without the limit it is buffered whole and answered 200.
      const mib = Buffer.alloc(1024 * 1024, 0x61);
      const r = await postChunks('/api/store/revs', [
        Buffer.from('{"ids":["'),
        ...Array.from({ length: 65 }, () => mib),
        Buffer.from('"]}'),
      ]);
      expect(r.status).toBe(413);
      expect(r.type).toMatch(/^application\/json/);
      const body = JSON.parse(r.body);
      expect(Object.keys(body)).toEqual(['error']);
      expect(body.error).toEqual({ code: 'too_large', message: expect.stringMatching(/limit/) });
    });

    it("answers a request line and headers over Node's limit with 431 in the same shape, and goes on", async () => {
      const host = `Host: ${new URL(await server.listen()).host}\r\n`;
      const pad = 'a'.repeat(maxHeaderSize + 1000);
      for (const head of [
        `GET /api/sessions?cwd=${pad} HTTP/1.1\r\n${host}\r\n`,
        `GET /api/health HTTP/1.1\r\n${host}X-Pad: ${pad}\r\n\r\n`,
      ]) {
        const r = await rawRequest(head);
        expect(r.status, head.slice(0, 40)).toBe(431);
        expect(r.type).toMatch(/^application\/json/);
        const body = JSON.parse(r.body);
        expect(Object.keys(body)).toEqual(['error']);
        expect(body.error).toEqual({
          code: 'too_large',
          message: expect.stringMatching(
            new RegExp(
              `^request line and headers are too large: over the .*\\(${maxHeaderSize} bytes\\) limit`,
            ),
          ),
        });
      }
      // Just under the limit is served as usual, and the server still answers afterwards.
      const under = await fetch(
        `${await server.listen()}/api/sessions?limit=1&cwd=${'a'.repeat(maxHeaderSize - 1000)}`,
      );
      expect(under.status).toBe(200);
      await under.arrayBuffer();
    });

    it('answers a request Node cannot parse with 400 in the same shape', async () => {
      const r = await rawRequest('BLAH\x01 /api/health HTTP/1.1\r\n\r\n');
      expect(r.status).toBe(400);
      expect(r.type).toMatch(/^application\/json/);
      expect(JSON.parse(r.body).error).toEqual({
        code: 'bad_request',
        message: expect.stringMatching(/^malformed HTTP request/),
      });
    });

    it('never answers bad input with a 5xx', async () => {
      const junk = ['%', '%00', "'; DROP TABLE docs; --", '\u0000', '..', '💥', 'a'.repeat(5000)];
      for (const j of junk) {
        for (const p of [
          `/api/sessions?cwd=${encodeURIComponent(j)}`,
          `/api/sessions/${encodeURIComponent(j)}`,
          `/api/search?q=${encodeURIComponent(j)}`,
          `/api/search?q=${encodeURIComponent(`"${j}`)}`,
          `/api/store/docs?startkey=${encodeURIComponent(j)}`,
          `/api/store/docs/${encodeURIComponent(j)}`,
          `/api/store/objects/${encodeURIComponent(j)}/x`,
          `/api/facets/${encodeURIComponent(j)}`,
        ]) {
          const res = await server.fetch(p);
          expect(res.status, p).toBeLessThan(500);
          await res.arrayBuffer();
        }
      }
      for (const q of [
        'AND',
        'OR OR',
        'NOT',
        '"',
        '*',
        'a*b*',
        '(',
        ')',
        'NEAR(',
        '^x',
        'col:val',
        '-x',
        '+',
      ]) {
        const res = await server.fetch(`/api/search?q=${encodeURIComponent(q)}`);
        expect(res.status, q).toBeLessThan(500);
        await res.arrayBuffer();
      }
    });
  });
});
