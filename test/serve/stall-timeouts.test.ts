/**
 * Timeouts against a real `transcripts serve` (issue 42, src/server/timeouts.ts), with a short
 * CT_STALL_TIMEOUT_MS so nothing waits the default 60 s: an upload that stops sending is closed
 * by the server and leaves no object; one that keeps trickling bytes, each gap shorter than the
 * limit, goes through however long it takes in all; headers that stop arriving are closed too;
 * idle keep-alive connections are closed. A malformed value stops `serve`, naming the variable.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, getJson, runCli, startTestServer, type TestServer } from '../support/api-server.js';

const STALL_MS = 600;

/** A raw connection to the server that records what comes back and when the server closed it. */
function open(
  server: TestServer,
): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (text += d));
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve({ socket, received: () => text, closed }));
    socket.once('error', reject);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('timeouts (CT_STALL_TIMEOUT_MS)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      args: ['--no-import', '--no-watch'],
      env: { CT_STALL_TIMEOUT_MS: String(STALL_MS) },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('closes an upload that stops sending, and keeps no part of it', async () => {
    const c = await open(server);
    c.socket.write(
      'PUT /api/ingest/objects/stalled-session/transcript.jsonl HTTP/1.1\r\n' +
        `Host: ${new URL(server.url).host}\r\n` +
        'Content-Type: application/octet-stream\r\nContent-Length: 100000000\r\n\r\n' +
        '{"type":"user"}\n',
    );
    // Nothing more is sent: the server must end it (the test's own timeout is the bound).
    await c.closed;
    expect(c.received()).toBe('');
    // The log line may reach us after the socket's close does.
    await expect
      .poll(() => server.logs(), { timeout: 10_000 })
      .toMatch(
        new RegExp(
          `timeout: PUT /api/ingest/objects/stalled-session/transcript\\.jsonl sent nothing for ${STALL_MS} ms`,
        ),
      );
    const listed = await getJson(server, '/api/store/objects/stalled-session/');
    expect(listed.body.objects ?? []).toEqual([]);
    expect((await getJson(server, '/api/health')).status).toBe(200);
  });

  it('lets a slow upload through as long as it keeps moving', async () => {
    const c = await open(server);
    const lines = Array.from({ length: 8 }, (_, i) => `{"n":${i}}\n`);
    const body = lines.join('');
    c.socket.write(
      'PUT /api/ingest/objects/slow-session/transcript.jsonl HTTP/1.1\r\n' +
        `Host: ${new URL(server.url).host}\r\nConnection: close\r\n` +
        `Content-Type: application/octet-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    );
    // Each gap is a third of the limit; all together, several times it.
    for (const line of lines) {
      await sleep(STALL_MS / 3);
      c.socket.write(line);
    }
    await c.closed;
    expect(c.received()).toMatch(/^HTTP\/1\.1 200 /);
    const stored = await fetch(`${server.url}/api/store/objects/slow-session/transcript.jsonl`);
    expect(await stored.text()).toBe(body);
  });

  it('closes a connection whose headers stop arriving', async () => {
    const c = await open(server);
    c.socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    await c.closed;
    // Node answers 408 to headers that time out, then closes.
    expect(c.received()).toMatch(/^(HTTP\/1\.1 408 |$)/);
  });

  it('closes an idle keep-alive connection after its answer', async () => {
    const c = await open(server);
    c.socket.write(`GET /api/health HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\n\r\n`);
    await c.closed;
    expect(c.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(c.received()).toMatch(/keep-alive: timeout=5/i);
  });

  it('refuses a malformed value at start, naming the variable', async () => {
    const r = await runCli(['serve', '--no-import', '--no-watch'], {
      env: cleanEnv({
        CT_HOME: `${server.root}/other`,
        HOME: `${server.root}/home`,
        WEBAPI_PORT: '0',
        CT_STALL_TIMEOUT_MS: 'soon',
      }),
      timeoutMs: 30_000,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('CT_STALL_TIMEOUT_MS must be a whole number of milliseconds');
  });
});
