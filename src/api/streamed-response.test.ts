/**
 * Streamed responses as clients see them through the real Node server (piped to the socket) and
 * through `app.request` (a web Response): the same bytes and headers, and a failure part-way is
 * a broken transfer, never a body that looks complete.
 */
import { createAdaptorServer } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamedResponse, nodeStreamResponse } from './streamed-response.js';

async function* pieces(failAfter?: number): AsyncGenerator<string> {
  for (let i = 0; i < 50; i++) {
    if (failAfter !== undefined && i === failAfter) throw new Error('store went away');
    yield `${JSON.stringify({ i, pad: 'x'.repeat(2000) })}\n`;
  }
}

const whole = Array.from({ length: 50 }, (_, i) => `${JSON.stringify({ i, pad: 'x'.repeat(2000) })}\n`).join(
  '',
);

function buildApp(): Hono {
  const app = new Hono();
  app.get('/lines', (c) =>
    streamedResponse(c, pieces(), { headers: { 'content-type': 'application/x-ndjson' } }),
  );
  app.get('/lines-failing', (c) =>
    streamedResponse(c, pieces(10), { headers: { 'content-type': 'application/x-ndjson' } }),
  );
  app.get('/bytes', (c) =>
    nodeStreamResponse(c, Readable.from([Buffer.from('hello '), Buffer.from('world')]), {
      status: 206,
      headers: { 'content-type': 'application/octet-stream', 'content-length': '11' },
    }),
  );
  app.get('/bytes-failing', (c) =>
    nodeStreamResponse(
      c,
      Readable.from(
        (async function* () {
          yield Buffer.alloc(64 * 1024, 1);
          throw new Error('disk went away');
        })(),
      ),
      { status: 200, headers: { 'content-length': String(1024 * 1024) } },
    ),
  );
  return app;
}

describe('streamed responses through the Node server', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createAdaptorServer({ fetch: buildApp().fetch }) as Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('sends the pieces whole, with the status and headers given', async () => {
    const res = await fetch(`${base}/lines`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson');
    expect(await res.text()).toBe(whole);
    const bytes = await fetch(`${base}/bytes`);
    expect([bytes.status, bytes.headers.get('content-length')]).toEqual([206, '11']);
    expect(await bytes.text()).toBe('hello world');
  });

  it('breaks the transfer off when the source fails part-way', async () => {
    const lines = await fetch(`${base}/lines-failing`);
    expect(lines.status).toBe(200);
    await expect(lines.text()).rejects.toThrow();
    const bytes = await fetch(`${base}/bytes-failing`);
    await expect(bytes.arrayBuffer()).rejects.toThrow();
    // The server goes on answering.
    expect(await (await fetch(`${base}/bytes`)).text()).toBe('hello world');
  });
});

describe('streamed responses outside the Node server (app.request)', () => {
  it('answers an ordinary Response with the same status, headers and bytes', async () => {
    const app = buildApp();
    const res = await app.request('/lines');
    expect(res.headers.get('content-type')).toBe('application/x-ndjson');
    expect(await res.text()).toBe(whole);
    const bytes = await app.request('/bytes');
    expect([bytes.status, bytes.headers.get('content-length')]).toEqual([206, '11']);
    expect(await bytes.text()).toBe('hello world');
  });
});
