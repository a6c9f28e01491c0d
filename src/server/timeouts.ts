/**
 * How long the server waits for a client (issue 42). A request body that makes no progress for
 * `stallMs` (default 60 s, CT_STALL_TIMEOUT_MS) is given up: its socket is closed, and the upload
 * route then drops what it had of the object. The clock restarts with every byte, so a large
 * upload over a slow link still goes through (there is no limit on a whole request's time:
 * `requestTimeout` stays 0). Headers must arrive within the same time, and an idle keep-alive
 * connection is closed after 5 s (Node's default, said here on purpose).
 *
 * Only the body is timed, not the answer: a long reindex computes for minutes with nothing on
 * the wire, and must not be cut.
 */
import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';
import { ConfigError } from '../config/config-error.js';
import { type Env, envValue } from '../config/paths.js';

export const DEFAULT_STALL_MS = 60_000;
export const KEEP_ALIVE_MS = 5_000;

/** `CT_STALL_TIMEOUT_MS`: milliseconds, at least 100 (a ConfigError naming the variable otherwise). */
export function stallTimeoutMs(env: Env): number {
  const raw = envValue(env, 'CT_STALL_TIMEOUT_MS');
  if (raw === undefined) return DEFAULT_STALL_MS;
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || n < 100)
    throw new ConfigError(
      `CT_STALL_TIMEOUT_MS must be a whole number of milliseconds, at least 100, got "${raw}"`,
    );
  return n;
}

/**
 * Options for `http.createServer`: Node checks `headersTimeout` every
 * `connectionsCheckingInterval` (30 s by default), too coarse for a short stall limit.
 */
export function timeoutServerOptions(stallMs: number): ServerOptions {
  return {
    requestTimeout: 0,
    headersTimeout: stallMs,
    keepAliveTimeout: KEEP_ALIVE_MS,
    connectionsCheckingInterval: Math.min(30_000, Math.max(50, Math.floor(stallMs / 4))),
  };
}

/** Closes the socket of a request whose body stops arriving for `stallMs`; `log` says which. */
export function closeStalledUploads(server: Server, stallMs: number, log: (line: string) => void): void {
  // Node answers 408 to a request still arriving after 300 s: an upload of a transcript of a few
  // hundred MB from a machine on a slow link takes longer, and failed that way at every attempt.
  server.requestTimeout = 0;
  server.headersTimeout = stallMs;
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.complete) return; // no body, or all of it already read
    const socket = req.socket;
    const onTimeout = () => {
      log(
        `timeout: ${req.method} ${req.url?.split('?')[0]} sent nothing for ${stallMs} ms; ` +
          'closed the connection (CT_STALL_TIMEOUT_MS)',
      );
      socket.destroy();
    };
    socket.setTimeout(stallMs);
    socket.on('timeout', onTimeout);
    const done = () => {
      socket.off('timeout', onTimeout);
      // Past the answer Node has set the keep-alive limit on the socket itself: leave it.
      if (!res.writableFinished) socket.setTimeout(0);
    };
    req.once('end', done);
    req.once('close', done);
  });
}
