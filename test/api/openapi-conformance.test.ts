/**
 * The OpenAPI description says what the server does, checked by walking every operation it
 * describes against the app (in process, on a socket) over a copy of the corpus, so a route added later is held to the same rules:
 *
 * - an unknown query parameter is refused on every route (400 naming it) and nothing is done;
 *   every parameter the description declares is taken;
 * - a method a path does not list gets 405 with `Allow` naming exactly the methods it lists;
 * - 403 (Host check) on every operation, 415 on every operation with a JSON body;
 * - the body limits (413) and the page size limits (`limit` clamped, its default) it states.
 *
 * 401 (with CT_API_TOKEN) is in test/serve/bind-token-host-check.test.ts, with the server that has a token.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../support/api-app.js';
import { getJson } from '../support/api-server.js';
import { testEngine } from '../support/engines.js';

const BIG = '1b2c0332-e2dc-459f-88b9-1aad6e941e18';
/** A session id nothing holds: the upload route must not create it. */
const UNWRITTEN = '00000000-0000-4000-8000-00000000beef';
const UNKNOWN = 'ct_no_such_param';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is read loosely
type Doc = any;
interface Op {
  method: string;
  path: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  op: any;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function operations(doc: Doc): Op[] {
  const out: Op[] = [];
  for (const [path, item] of Object.entries<Record<string, unknown>>(doc.paths))
    for (const method of METHODS) if (item[method]) out.push({ method, path, op: item[method] });
  return out;
}

/** A concrete URL path for a described path, with path parameters that name real things. */
function concrete(path: string, method: string): string {
  const upload = method === 'put';
  return path
    .replace('{id}', path.startsWith('/api/store/docs/') ? `summary:${BIG}` : BIG)
    .replace('{index}', '0')
    .replace('{sessionId}', upload ? UNWRITTEN : BIG)
    .replace('{name}', 'transcript.jsonl')
    .replace('{attribute}', 'cwd');
}

/** A value each declared query parameter accepts (it need not find anything). */
const SAMPLE: Record<string, string> = {
  limit: '1',
  offset: '0',
  skip: '0',
  file: 'transcript.jsonl',
  role: 'user',
  q: 'the',
  cwd: '/x',
  project: 'x',
  model: 'x',
  hostname: 'x',
  source: 'x',
  from: '2025-01-01',
  to: '2025-12-31',
  idPrefix: '1b',
  text: 'parser fix',
  sort: 'tokens',
  dir: 'asc',
  startkey: '"a"',
  start_key: '"a"',
  endkey: '"z"',
  end_key: '"z"',
  include_docs: 'false',
  after: 'a',
  session: BIG,
  format: 'markdown',
  tools: 'false',
  thinking: 'false',
  redact: 'true',
  starred: 'true',
  tag: 'bug',
  hasNote: 'true',
  hasSecrets: 'true',
  agent: 'codex',
};

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Any request, with any Host and Content-Length, through node:http (fetch sets those itself). */
function send(
  server: { url: string },
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<Answer> {
  const u = new URL(server.url);
  // A body is framed by its length unless the caller frames it: node sends a DELETE's body unframed.
  const framed =
    options.body === undefined ||
    Object.keys(options.headers ?? {}).some((h) => /^(content-length|transfer-encoding)$/i.test(h));
  const headers = framed
    ? options.headers
    : { ...options.headers, 'content-length': String(Buffer.byteLength(options.body!)) };
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, method, path, headers, agent: false }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    // The server may answer (413) and close before reading what was promised.
    req.on('error', (err) => (/EPIPE|ECONNRESET/.test(String(err)) ? undefined : reject(err)));
    req.end(options.body);
  });
}

function expectError(a: Answer, status: number, code: string): { code: string; message: string } {
  expect(a.status, a.body).toBe(status);
  expect(a.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(a.body);
  expect(Object.keys(body)).toEqual(['error']);
  expect(body.error.code).toBe(code);
  return body.error;
}

const engine = testEngine('sqlite');
let server: TestApp;
/** The app on a socket of this process: `send` sets Host and Content-Length itself. */
let http: { url: string };
let doc: Doc;

beforeAll(async () => {
  server = await openTestApp(engine, { corpus: true });
  http = { url: await server.listen() };
  doc = (await getJson(server, '/api/openapi.json')).body;
  expect(operations(doc).length).toBeGreaterThan(20);
});

afterAll(async () => {
  await server?.close();
  await engine.stop();
});

describe('query parameters', () => {
  it('every described operation refuses an unknown query parameter with 400 naming it, doing nothing', async () => {
    for (const { method, path, op } of operations(doc)) {
      const name = `${method.toUpperCase()} ${path}`;
      const json = op.requestBody?.content?.['application/json'];
      const a = await send(http, method.toUpperCase(), `${concrete(path, method)}?${UNKNOWN}=1`, {
        headers: json ? { 'content-type': 'application/json' } : undefined,
        body: json ? '{"dryRun":true}' : op.requestBody ? 'x' : undefined,
      });
      const error = expectError(a, 400, 'bad_request');
      expect(error.message, name).toMatch(new RegExp(`^query parameter ${UNKNOWN}: unknown parameter`));
      // The description says so too.
      expect(op.responses['400'], name).toBeDefined();
    }
    // The upload above was refused before anything was stored.
    expect((await getJson(server, `/api/store/objects/${UNWRITTEN}/transcript.jsonl`)).status).toBe(404);
  });

  it('every query parameter an operation declares is taken', async () => {
    for (const { method, path, op } of operations(doc)) {
      if (method !== 'get') continue;
      for (const p of op.parameters ?? []) {
        if (p.in !== 'query') continue;
        const value = SAMPLE[p.name];
        expect(value, `a sample value for ${p.name}`).toBeDefined();
        const url = `${concrete(path, method)}?${p.name}=${encodeURIComponent(value!)}`;
        const a = await send(http, 'GET', url);
        expect(a.status, `${url}: ${a.body.slice(0, 200)}`).toBeLessThan(500);
        expect(a.body, url).not.toMatch(/unknown parameter/);
      }
    }
  });

  it('routes left out of the description take no query parameters', async () => {
    for (const path of ['/api/blueprint', '/api/openapi.json', '/api/docs', '/api/docs/init.js']) {
      expect((await send(http, 'GET', path)).status, path).toBe(200);
      const error = expectError(await send(http, 'GET', `${path}?${UNKNOWN}=1`), 400, 'bad_request');
      expect(error.message).toMatch(/takes no query parameters/);
    }
  });

  it('names every unknown parameter and the ones the route takes', async () => {
    const error = expectError(
      await send(http, 'GET', `/api/sessions/${BIG}/events?limit=2&page=3&sort=time`),
      400,
      'bad_request',
    );
    expect(error.message).toBe(
      'query parameter page: unknown parameter; query parameter sort: unknown parameter ' +
        `(GET /api/sessions/${BIG}/events takes limit, offset)`,
    );
  });
});

describe('what every operation shares', () => {
  it('a method a path does not list gets 405, with Allow naming exactly the methods it lists', async () => {
    expect(doc.components.responses.MethodNotAllowed.headers.Allow).toBeDefined();
    expect(doc.info.description).toMatch(/405/);
    for (const [path, item] of Object.entries<Record<string, unknown>>(doc.paths)) {
      const listed = METHODS.filter((m) => item[m]).map((m) => m.toUpperCase());
      if (listed.includes('GET')) listed.push('HEAD');
      // A write method the path does not list (PATCH, unless the path takes it).
      const probe = ['PATCH', 'PUT', 'POST', 'DELETE'].find((m) => !listed.includes(m))!;
      const a = await send(http, probe, concrete(path, listed[0]!.toLowerCase()));
      expectError(a, 405, 'method_not_allowed');
      const allow = String(a.headers.allow)
        .split(',')
        .map((m) => m.trim());
      expect(allow.sort(), path).toEqual(listed.sort());
    }
  });

  it('every operation lists 403, and answers it to a foreign Host', async () => {
    expect(doc.components.responses.ForbiddenHost).toBeDefined();
    for (const { method, path, op } of operations(doc)) {
      expect(op.responses['403'], `${method} ${path}`).toBeDefined();
      const a = await send(http, method.toUpperCase(), concrete(path, method), {
        headers: { host: 'evil.example' },
      });
      expectError(a, 403, 'forbidden');
    }
  });

  it('without CT_API_TOKEN no operation lists 401', () => {
    for (const { path, op } of operations(doc)) expect(op.responses['401'], path).toBeUndefined();
    expect(doc.security).toEqual([]);
  });

  it('every write lists 415, and answers it to another Content-Type and to none', async () => {
    let seen = 0;
    for (const { method, path, op } of operations(doc)) {
      if (['get', 'head', 'options'].includes(method)) {
        expect(op.responses['415'], path).toBeUndefined();
        continue;
      }
      seen++;
      expect(op.responses['415'], path).toBeDefined();
      // A form's type, and none at all: both can be sent by another site's page without a preflight.
      for (const headers of [{ 'content-type': 'text/plain' }, undefined]) {
        const a = await send(http, method.toUpperCase(), concrete(path, method), { headers, body: '{}' });
        expectError(a, 415, 'unsupported_media_type');
      }
    }
    expect(seen).toBeGreaterThanOrEqual(5);
  });
});

describe('limits', () => {
  /** The byte limit a 413 states: `… (65536 bytes) limit`. */
  const statedLimit = (op: Doc): number | null => {
    const m = /\((\d+) bytes\) limit/.exec(op.responses['413']?.description ?? '');
    return m ? Number(m[1]) : null;
  };

  it('every operation with a body states its limit, and a body over it gets 413', async () => {
    let seen = 0;
    for (const { method, path, op } of operations(doc)) {
      if (!op.requestBody) continue;
      seen++;
      const limit = statedLimit(op);
      expect(limit, `${method} ${path} states its body limit`).toBeGreaterThan(0);
      expect(op.requestBody.description, path).toContain(`(${limit} bytes)`);
      // A Content-Length over the limit is refused before any of the body is read.
      const a = await send(http, method.toUpperCase(), concrete(path, method), {
        headers: {
          'content-type': op.requestBody.content['application/json']
            ? 'application/json'
            : 'application/octet-stream',
          'content-length': String(limit! + 1),
        },
      });
      expectError(a, 413, 'too_large');
    }
    expect(seen).toBeGreaterThanOrEqual(5);
  });

  it('a small JSON limit holds to the byte: at the limit it is read, one byte over it is refused', async () => {
    const op = doc.paths['/api/migrate/up'].post;
    const limit = statedLimit(op)!;
    expect(limit).toBe(64 * 1024);
    const body = (n: number) => `{"dryRun":true}${' '.repeat(n - 15)}`;
    const at = await send(http, 'POST', '/api/migrate/up', {
      headers: { 'content-type': 'application/json' },
      body: body(limit),
    });
    expect(at.status, at.body).toBe(200);
    expect(JSON.parse(at.body).dryRun).toBe(true);
    // Chunked, no Content-Length: counted as it arrives.
    const over = await send(http, 'POST', '/api/migrate/up', {
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      body: body(limit + 1),
    });
    expect(JSON.parse(expectError(over, 413, 'too_large').message.match(/(\d+)-byte/)![1]!)).toBe(limit);
  });

  it('every `limit` says its maximum and default, and the server clamps and defaults to them', async () => {
    let checked = 0;
    for (const { method, path, op } of operations(doc)) {
      const param = (op.parameters ?? []).find((p: Doc) => p.in === 'query' && p.name === 'limit');
      if (!param) continue;
      const m = /over (\d+) it is clamped to \1, not refused/.exec(param.description);
      expect(m, `${path}: ${param.description}`).not.toBeNull();
      const max = Number(m![1]);
      const base = concrete(path, method) + (path === '/api/search' ? '?q=the&' : '?');
      const over = await getJson(server, `${base}limit=${max + 1}`);
      expect(over.status, path).toBe(200);
      const rows = (b: Doc) =>
        b.sessions ?? b.entries ?? b.turns ?? b.events ?? b.hits ?? b.rows ?? b.objects ?? b.bookmarks;
      if ('limit' in over.body) expect(over.body.limit, path).toBe(max);
      expect(rows(over.body).length, path).toBeLessThanOrEqual(max);
      // A stated default is the one used; a default from a setting is named.
      const dflt = param.schema.default;
      if (dflt === undefined) expect(param.description, path).toMatch(/default userSettings\.\w+/);
      else {
        const plain = await getJson(server, base.slice(0, -1));
        if ('limit' in plain.body) expect(plain.body.limit, path).toBe(dflt);
        expect(rows(plain.body).length, path).toBeLessThanOrEqual(dflt);
      }
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(7);
  });

  it('the _all_docs page is its stated default when the store holds more', async () => {
    const param = doc.paths['/api/store/docs'].get.parameters.find((p: Doc) => p.name === 'limit');
    const { body } = await getJson(server, '/api/store/docs');
    expect(body.total_rows).toBeGreaterThan(param.schema.default);
    expect(body.rows).toHaveLength(param.schema.default);
  });
});
