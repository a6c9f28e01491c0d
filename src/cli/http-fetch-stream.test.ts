import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../client/api-client.js';
import { ApiError } from '../client/api-error.js';
import { fetchWithHeadersTimeout } from './headers-timeout.js';
import { httpFetchStream } from './http-fetch-stream.js';

let server: Server;
let base: string;
/** Lets /stream's second half go. */
let release: () => void = () => undefined;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/stream') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first;');
      release = () => res.end('second');
      return;
    }
    if (req.url === '/echo') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        res.writeHead(201, { 'content-type': 'application/json', 'x-seen': req.method });
        res.end(JSON.stringify({ method: req.method, body: Buffer.concat(chunks).toString() }));
      });
      return;
    }
    if (req.url === '/late') return void setTimeout(() => res.end('late'), 400);
    if (req.url === '/api/health') {
      res.writeHead(404, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ error: { code: 'not_found', message: 'no such thing' } }));
    }
    res.writeHead(200, { 'content-length': '2' });
    res.end(req.method === 'HEAD' ? undefined : 'ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('httpFetchStream', () => {
  const fetchIt = httpFetchStream();

  it('answers at the headers, and streams the body as it comes', async () => {
    const res = await fetchIt(`${base}/stream`);
    expect([res.ok, res.status, res.headers.get('content-type')]).toEqual([true, 200, 'text/plain']);
    const reader = res.body![Symbol.asyncIterator]();
    expect(Buffer.from((await reader.next()).value as Uint8Array).toString()).toBe('first;');
    release();
    let rest = '';
    for (let r = await reader.next(); !r.done; r = await reader.next())
      rest += Buffer.from(r.value).toString();
    expect(rest).toBe('second');
  });

  it('sends string and web-stream bodies, and reads JSON', async () => {
    const post = await fetchIt(`${base}/echo`, { method: 'POST', body: 'hello' });
    expect([post.status, post.headers.get('x-seen')]).toEqual([201, 'POST']);
    expect(await post.json()).toEqual({ method: 'POST', body: 'hello' });
    const body = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode('streamed '));
        c.enqueue(new TextEncoder().encode('bytes'));
        c.close();
      },
    });
    const put = await fetchIt(`${base}/echo`, { method: 'PUT', body, duplex: 'half' } as RequestInit);
    expect(await put.json()).toEqual({ method: 'PUT', body: 'streamed bytes' });
  });

  it('does not hold a socket for an answer without a body', async () => {
    for (let i = 0; i < 20; i++) expect((await fetchIt(`${base}/x`, { method: 'HEAD' })).status).toBe(200);
    expect(await (await fetchIt(`${base}/x`)).text()).toBe('ok');
  });

  it('fails with the signal’s reason when aborted, as fetch does', async () => {
    const err = await fetchWithHeadersTimeout(100, fetchIt)(`${base}/late`).catch((e: unknown) => e);
    expect((err as Error).name).toBe('TimeoutError');
  });

  it('carries the API client: errors read from the answer', async () => {
    const client = new ApiClient({ baseUrl: base, fetch: fetchIt });
    const err = await client.health().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(404);
  });
});
