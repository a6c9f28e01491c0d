import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiConnectionError, ApiError, NotAnApiError } from './api-error.js';
import { TypedClient } from './typed-client.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

describe('TypedClient on the wire', () => {
  let server: Server;
  let baseUrl: string;
  const seen: Seen[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const url = req.url ?? '';
        seen.push({
          method: req.method ?? '',
          url,
          headers: req.headers,
          body: Buffer.concat(chunks).toString(),
        });
        if (url.startsWith('/api/sessions/gone'))
          return void res
            .writeHead(404, { 'content-type': 'application/json' })
            .end(JSON.stringify({ error: { code: 'not_found', message: 'session "gone" not found' } }));
        if (url.startsWith('/api/sessions/proxied'))
          return void res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad Gateway</h1>');
        if (url.startsWith('/api/sessions/raw/'))
          return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"not": json');
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ total: 0, offset: 0, sessions: [] }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });
  const last = () => seen[seen.length - 1]!;

  it('fills the path, repeats an array, leaves out what is undefined, and sends the token', async () => {
    let token = 'one';
    const api = new TypedClient({ baseUrl: `${baseUrl}/`, token: () => token });
    await api.GET('/api/sessions', {
      params: { query: { tag: ['a b', 'c&d'], text: 'x+y', limit: 5, cwd: undefined } },
    });
    expect(last().url).toBe('/api/sessions?tag=a+b&tag=c%26d&text=x%2By&limit=5');
    expect(last().headers).toMatchObject({ authorization: 'Bearer one', accept: 'application/json' });
    token = 'two'; // asked at each call (the UI's stored token)
    await api.GET('/api/sessions/{id}', { params: { path: { id: 'a/b c' } } });
    expect(last().url).toBe('/api/sessions/a%2Fb%20c');
    expect(last().headers.authorization).toBe('Bearer two');
  });

  it('sends a write with nothing to say as `{}`, typed JSON, and a body as its JSON', async () => {
    const api = new TypedClient({ baseUrl });
    await api.DELETE('/api/sessions/{id}/star', { params: { path: { id: 's' } } });
    expect(last()).toMatchObject({ method: 'DELETE', body: '{}' });
    expect(last().headers['content-type']).toBe('application/json');
    await api.PATCH('/api/sessions/{id}/tags', { params: { path: { id: 's' } }, body: { add: ['x'] } });
    expect(last()).toMatchObject({ method: 'PATCH', body: '{"add":["x"]}' });
    await api.GET('/api/sessions');
    expect(last()).toMatchObject({ method: 'GET', body: '' });
    expect(last().headers['content-type']).toBeUndefined();
  });

  it("reads the API's error as ApiError, and a page that is not the API's as NotAnApiError", async () => {
    const api = new TypedClient({
      baseUrl,
      origin: `${baseUrl} (from --webapi)`,
      hint: 'Pass --webapi URL.',
    });
    const gone = await api.GET('/api/sessions/{id}', { params: { path: { id: 'gone' } } }).catch((e) => e);
    expect(gone).toBeInstanceOf(ApiError);
    expect(gone).toMatchObject({ status: 404, code: 'not_found', message: 'session "gone" not found' });
    const proxied = await api
      .GET('/api/sessions/{id}', { params: { path: { id: 'proxied' } } })
      .catch((e) => e);
    expect(proxied).toBeInstanceOf(NotAnApiError);
    expect((proxied as Error).message).toBe(
      `${baseUrl} (from --webapi) did not answer like a transcripts API: GET ${baseUrl}/api/sessions/proxied ` +
        'got HTTP 502 with content type text/html, not the API\'s JSON, starting "<h1>Bad Gateway</h1>". ' +
        'Is it the address of `transcripts serve` (not a proxy or another web server)? Pass --webapi URL.',
    );
  });

  it('checks a JSON answer, and hands on the text as it came when asked for text', async () => {
    const api = new TypedClient({ baseUrl });
    const path = { id: 'raw', index: 0 };
    const broken = await api.GET('/api/sessions/{id}/raw/{index}', { params: { path } }).catch((e) => e);
    expect(broken).toBeInstanceOf(NotAnApiError);
    expect(await api.GET('/api/sessions/{id}/raw/{index}', { params: { path }, parseAs: 'text' })).toBe(
      '{"not": json',
    );
    const unlike = await api
      .GET('/api/sessions', { expect: { sessions: 'array', page: 'number' } })
      .catch((e) => e);
    expect((unlike as NotAnApiError).unlike).toBe('no page (a number)');
  });

  it('says nothing answered, and rethrows an abort as it is', async () => {
    // A port that was free a moment ago: nothing listens there.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const dead = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const err = await new TypedClient({ baseUrl: dead }).GET('/api/health').catch((e) => e);
    expect(err).toBeInstanceOf(ApiConnectionError);
    expect((err as Error).message).toBe(
      `cannot reach the transcripts API at ${dead} (ECONNREFUSED). Is \`transcripts serve\` running there?`,
    );
    const controller = new AbortController();
    controller.abort(new Error('stopped by the user'));
    const aborted = await new TypedClient({ baseUrl, signal: controller.signal })
      .GET('/api/health')
      .catch((e) => e);
    expect(aborted).not.toBeInstanceOf(ApiConnectionError);
  });
});
