/**
 * Objects kept as local files, sent by the real Node server through reused buffers: the exact
 * bytes of any range (many at once, so a buffer handed back too early would show as corruption),
 * a cut transfer when the file is shorter than announced, and the file closed when a client goes
 * away part-way.
 */
import { createAdaptorServer } from '@hono/node-server';
import { randomBytes } from 'node:crypto';
import { mkdtemp, open, rm, writeFile, type FileHandle } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localFileRange, markLocalFile } from '../store/objects-common/local-file.js';
import { nodeStreamResponse } from './streamed-response.js';

let dir: string;
let server: Server;
let base: string;
const content = randomBytes(3 * 1024 * 1024 + 12345);
/** Every file the server opened; a closed FileHandle's fd is -1. */
const handles: FileHandle[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ct-send-file-'));
  await writeFile(join(dir, 'object'), content);
  const app = new Hono();
  // ?start&end: a range of the file; &claim=N announces N more bytes than the range holds.
  app.get('/file', async (c) => {
    const start = Number(c.req.query('start') ?? 0);
    const end = Number(c.req.query('end') ?? content.length);
    const claim = Number(c.req.query('claim') ?? 0);
    const handle = await open(join(dir, 'object'), 'r');
    handles.push(handle);
    const stream = markLocalFile(handle.createReadStream({ start, end: end - 1, autoClose: true }), {
      handle,
      start,
      end: end + claim,
    });
    expect(localFileRange(stream)).not.toBeNull();
    return nodeStreamResponse(c, stream, {
      status: 200,
      headers: { 'content-length': String(end + claim - start) },
    });
  });
  server = createAdaptorServer({ fetch: app.fetch }) as Server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

describe('sendFileRange', () => {
  it('sends exactly the bytes of each range, many responses at once', async () => {
    const ranges = [
      [0, content.length],
      [0, 1],
      [1000, 1000 + 256 * 1024],
      [777, content.length - 5],
      [content.length - 10, content.length],
      ...Array.from({ length: 12 }, (_, i) => [i * 100_000, i * 100_000 + 700_000 + i]),
    ] as Array<[number, number]>;
    const bodies = await Promise.all(
      ranges.map(async ([start, end]) => {
        const res = await fetch(`${base}/file?start=${start}&end=${end}`);
        expect(res.status).toBe(200);
        return Buffer.from(await res.arrayBuffer());
      }),
    );
    bodies.forEach((body, i) => {
      const [start, end] = ranges[i]!;
      expect(body.equals(content.subarray(start, end)), `range ${start}-${end}`).toBe(true);
    });
    // Each file is closed once its response is complete.
    for (let i = 0; i < 100 && handles.some((h) => h.fd !== -1); i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(handles.filter((h) => h.fd !== -1)).toEqual([]);
  });

  it('cuts the transfer short when the file holds fewer bytes than the response announced', async () => {
    const res = await fetch(`${base}/file?start=0&end=${content.length}&claim=100`);
    await expect(res.arrayBuffer()).rejects.toThrow();
  });

  it('closes the file when the client goes away part-way', async () => {
    const controller = new AbortController();
    const res = await fetch(`${base}/file`, { signal: controller.signal });
    const handle = handles.at(-1)!;
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    await expect(reader.read()).rejects.toThrow();
    for (let i = 0; i < 100 && handle.fd !== -1; i++) await new Promise((r) => setTimeout(r, 20));
    expect(handle.fd).toBe(-1);
    // And the server goes on answering whole bodies.
    const again = Buffer.from(await (await fetch(`${base}/file`)).arrayBuffer());
    expect(again.equals(content)).toBe(true);
  });
});
