import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../client/api-client.js';
import { ApiConnectionError } from '../client/api-error.js';
import { startSilentServer } from '../../test/support/silent-server.js';
import { fetchWithHeadersTimeout } from './headers-timeout.js';

/** Answers /late after 400 ms; /slow-body sends its headers at once and its body after 400 ms. */
let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/late') {
      setTimeout(() => res.end('late'), 400);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('first ');
    setTimeout(() => res.end('last'), 400);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('fetchWithHeadersTimeout', () => {
  it('gives up, as a TimeoutError, when the headers do not come in time', async () => {
    const err = await fetchWithHeadersTimeout(100)(`${base}/late`).catch((e: unknown) => e);
    expect((err as Error).name).toBe('TimeoutError');
  });

  it('lets the body take longer once the headers are in', async () => {
    const res = await fetchWithHeadersTimeout(100)(`${base}/slow-body`);
    expect(await res.text()).toBe('first last');
  });

  it('still ends when the caller aborts', async () => {
    const caller = new AbortController();
    const pending = fetchWithHeadersTimeout(60_000)(`${base}/late`, { signal: caller.signal });
    caller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('leaves a request with a dispatcher of its own (the patient pool) to that dispatcher', async () => {
    const init = { dispatcher: new Agent({ headersTimeout: 0 }) } as RequestInit;
    const res = await fetchWithHeadersTimeout(100)(`${base}/late`, init);
    expect(await res.text()).toBe('late');
  });

  it('makes the API client say it got no answer in time', async () => {
    const silent = await startSilentServer();
    const client = new ApiClient({
      baseUrl: `http://127.0.0.1:${silent.port}`,
      fetch: fetchWithHeadersTimeout(200),
    });
    const err = await client.health().catch((e: unknown) => e);
    await silent.close();
    expect(err).toBeInstanceOf(ApiConnectionError);
    expect((err as Error).message).toMatch(/cannot reach the transcripts API at .* \(no answer in time\)/);
  });
});
