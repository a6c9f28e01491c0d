import { getEventListeners } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from './api-client.js';
import { ApiConnectionError, ApiError, NotAnApiError } from './api-error.js';
import { isTransient } from '../live/sender.js';
import { patientDispatcher } from './patient-dispatcher.js';
import { startSilentServer } from '../../test/support/silent-server.js';

describe('ApiClient and the caller’s abort signal', () => {
  let server: Server;
  let client: ApiClient;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url?.endsWith('/cut')) {
        // Announces more than it sends, then the connection drops.
        res.writeHead(200, { 'content-length': '100000' });
        res.write('x'.repeat(10));
        setTimeout(() => res.destroy(), 50).unref();
        return;
      }
      if (req.url?.startsWith('/api/store/objects/')) {
        res.end('object bytes');
        return;
      }
      if (req.url === '/slow') {
        res.write('first piece');
        setTimeout(() => res.end('never read'), 5000).unref();
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ ok: true }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    client = new ApiClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('leaves no listener behind on the signal, however many requests share it', async () => {
    const controller = new AbortController();
    for (let i = 0; i < 50; i++) {
      const res = await client.fetchRaw('GET', '/x', { signal: controller.signal });
      expect(await res.json()).toEqual({ ok: true });
    }
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    const patient = new ApiClient({
      baseUrl: client.baseUrl,
      patientDispatcher: async () => patientDispatcher,
    });
    for (let i = 0; i < 50; i++) {
      const answer = await patient.object('s/transcript.jsonl', () => undefined, {
        signal: controller.signal,
      });
      expect(answer.bytes).toBe('object bytes'.length);
    }
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('an object whose body breaks off rejects, naming the URL and how far it got', async () => {
    const patient = new ApiClient({
      baseUrl: client.baseUrl,
      patientDispatcher: async () => patientDispatcher,
    });
    const err = await patient.object('s/cut', () => undefined).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(
      /GET http:\/\/127\.0\.0\.1:\d+\/api\/store\/objects\/s\/cut: the response broke off after 10 of 100000 bytes/,
    );
  });

  it('still aborts a body being read when the caller aborts', async () => {
    const controller = new AbortController();
    const res = await client.fetchRaw('GET', '/slow', { signal: controller.signal });
    const reading = res.text();
    controller.abort(new Error('interrupted by the user'));
    await expect(reading).rejects.toThrow('interrupted by the user');
  });
});

describe('ApiClient and requests that answer only when the work is done', () => {
  let server: Server;
  let baseUrl: string;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      setTimeout(() => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ entries: 3, sessions: 1 }));
      }, 1500).unref();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  // Node's own pool waits 300 s for response headers; a pool that waits 0.5 s stands in for it.
  const impatient = new Agent({ headersTimeout: 500 });

  it('an ordinary request gives up when the headers take too long', async () => {
    const client = new ApiClient({ baseUrl, dispatcher: impatient });
    await expect(client.health()).rejects.toBeInstanceOf(ApiConnectionError);
  });

  it('reindex waits as long as the server works, on the patient pool', async () => {
    const client = new ApiClient({
      baseUrl,
      dispatcher: impatient,
      patientDispatcher: async () => patientDispatcher,
    });
    expect(await client.reindex()).toEqual({ entries: 3, sessions: 1 });
  });
});

describe('ApiClient and an instance that never answers', () => {
  it('says it got no answer in time, in words', async () => {
    const silent = await startSilentServer();
    const client = new ApiClient({
      baseUrl: `http://127.0.0.1:${silent.port}`,
      dispatcher: new Agent({ headersTimeout: 200 }),
    });
    const err = await client.health().catch((e: unknown) => e);
    await silent.close();
    expect(err).toBeInstanceOf(ApiConnectionError);
    expect((err as Error).message).toMatch(/cannot reach the transcripts API at .* \(no answer in time\)/);
  });

  it('gives up when its own signal aborts, for requests that bring none (the CLI’s Ctrl-C)', async () => {
    const silent = await startSilentServer();
    const controller = new AbortController();
    const client = new ApiClient({ baseUrl: `http://127.0.0.1:${silent.port}`, signal: controller.signal });
    const pending = client.health().catch((e: unknown) => e);
    setTimeout(() => controller.abort(), 100).unref();
    const err = await pending;
    await silent.close();
    expect(controller.signal.aborted).toBe(true);
    expect(err).not.toBeInstanceOf(ApiConnectionError); // interrupted, not "cannot reach"
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});

describe('ApiClient and an address that answers, but not like the API', () => {
  let server: Server;
  let baseUrl: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = req.url ?? '';
      if (url === '/api/store/docs/summary%3Agone')
        return void res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { code: 'not_found', message: 'no such document' } }));
      if (url.startsWith('/api/store/docs/'))
        return void res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>');
      if (url.startsWith('/api/store/objects/'))
        return void res.writeHead(502, { 'content-type': 'text/plain' }).end('Bad Gateway');
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<html>  <body>Router\n login</body></html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('says what answered instead of handing the page on as the answer', async () => {
    const client = new ApiClient({ baseUrl, origin: `${baseUrl} (from --webapi ${baseUrl})` });
    const err = await client.health().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotAnApiError);
    expect((err as NotAnApiError).status).toBe(200);
    expect((err as NotAnApiError).contentType).toBe('text/html; charset=utf-8');
    expect((err as Error).message).toBe(
      `${baseUrl} (from --webapi ${baseUrl}) did not answer like a transcripts API: GET ${baseUrl}/api/health ` +
        "got HTTP 200 with content type text/html; charset=utf-8, not the API's JSON, starting " +
        '"<html> <body>Router login</body></html>". Is it the address of `transcripts serve` (not a proxy or ' +
        'another web server)? Pass --webapi URL or set CT_API_URL to use another instance.',
    );
    // The API was not reached: a hook spools its events until the address is fixed.
    expect(err).toBeInstanceOf(ApiConnectionError);
    expect(isTransient(err)).toBe(true);
  });

  it("an error page is not the API's error, and not a missing document either", async () => {
    const client = new ApiClient({ baseUrl });
    expect(await client.getDoc('summary:gone')).toBeNull(); // the API's own 404
    const err = await client.getDoc('summary:other').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotAnApiError);
    expect((err as Error).message).toMatch(/got HTTP 404 with content type text\/html, not the API's JSON/);
    expect(err).not.toBeInstanceOf(ApiError);
  });

  it("an object download through a proxy's 502 says so too", async () => {
    const patient = new ApiClient({ baseUrl, patientDispatcher: async () => patientDispatcher });
    const err = await patient.object('s/transcript.jsonl', () => undefined).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotAnApiError);
    expect((err as Error).message).toMatch(
      /GET http:\/\/127\.0\.0\.1:\d+\/api\/store\/objects\/s\/transcript\.jsonl got HTTP 502 with content type text\/plain, not the API's JSON, starting "Bad Gateway"/,
    );
  });
});
