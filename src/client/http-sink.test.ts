import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { createAdaptorServer } from '@hono/node-server';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../api/app.js';
import { StoreInputError, type Store } from '../store/contract.js';
import { openStore } from '../store/open-store.js';
import { ApiClient } from './api-client.js';
import { httpSink } from './http-sink.js';

// The real API over a real store, over a real socket: a body that fails part-way is seen by fetch
// as a broken connection.
let dir: string;
let store: Store;
let server: Server;
let client: ApiClient;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ct-http-sink-'));
  store = await openStore({ dataDir: join(dir, 'data'), env: {} });
  server = createAdaptorServer({ fetch: createApp({ store, logError: () => undefined }).fetch }) as Server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  client = new ApiClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const KEY = 's1/transcript.jsonl';
const stored = async () => {
  const stream = await store.objects.get(KEY);
  const parts: Buffer[] = [];
  for await (const p of stream ?? []) parts.push(Buffer.from(p as Uint8Array));
  return Buffer.concat(parts).toString();
};

describe('httpSink.putFile', () => {
  it('uploads a file range, and appends one at an offset', async () => {
    const file = join(dir, 't.jsonl');
    await writeFile(file, 'line one\n');
    const sink = httpSink(client);
    expect(await sink.putFile(KEY, { path: file, start: 0, end: 9 })).toMatchObject({ key: KEY, size: 9 });
    await writeFile(file, 'line one\nline two\n');
    expect(await sink.putFile(KEY, { path: file, start: 9, end: 18 }, { offset: 9 })).toMatchObject({
      size: 18,
    });
    expect(await stored()).toBe('line one\nline two\n');
  });

  it('says the file shrank (not that the API is unreachable), and the object stays as it was', async () => {
    const file = join(dir, 'short.jsonl');
    await writeFile(file, 'short');
    const sink = httpSink(client);
    for (const [range, offset] of [
      [{ start: 0, end: 100 }, undefined],
      [{ start: 2, end: 100 }, 18],
    ] as const) {
      const err = await sink.putFile(KEY, { path: file, ...range }, { offset }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StoreInputError);
      expect((err as Error).message).toMatch(/^\S*short\.jsonl holds 5 bytes, fewer than the 100 to store/);
      expect(await stored()).toBe('line one\nline two\n');
    }
  });
});
