/**
 * Responses whose bodies are streamed rather than built whole: objects (transcripts of hundreds
 * of MB) and generated pages (JSON or NDJSON pages, Markdown).
 *
 * Under the Node server the stream is piped straight into the socket. Handing Hono a web
 * `Response` wraps a Node stream as a web stream, which the server adapter then reads back chunk
 * by chunk: serving 1 GB of objects that way took the server 2.4–2.9 s of CPU, against 0.9–1.5 s
 * for a plain pipe. Elsewhere (`app.request` in tests, other runtimes) the answer is an ordinary
 * `Response` with the same status, headers and bytes.
 */
import { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context } from 'hono';
import { localFileRange } from '../store/objects-common/local-file.js';
import { sendFileRange } from './send-file-range.js';

export function nodeStreamResponse(
  c: Context,
  body: Readable,
  init: { status: number; headers: Record<string, string> },
): Response {
  const outgoing = (c.env as { outgoing?: unknown } | undefined)?.outgoing;
  if (!(outgoing instanceof ServerResponse))
    return new Response(Readable.toWeb(body) as ReadableStream, init);
  outgoing.writeHead(init.status, init.headers);
  const file = localFileRange(body);
  if (file) {
    void sendFileRange(outgoing, file, body);
    return RESPONSE_ALREADY_SENT;
  }
  // A failure part-way (the source breaks, the client goes away) destroys the response, which
  // the client sees as a cut transfer, never as a complete body.
  pipeline(body, outgoing).catch(() => undefined);
  return RESPONSE_ALREADY_SENT;
}

/**
 * A response streamed from a generator of pieces. The first `prefetch` pieces are produced before
 * the status is sent, so a failure there (a bad key, a view not built) is still an HTTP error; a
 * failure later ends the response part-way.
 */
export async function streamedResponse(
  c: Context,
  pieces: AsyncGenerator<string | Uint8Array>,
  init: { headers: Record<string, string>; prefetch?: number },
): Promise<Response> {
  const ready: Array<string | Uint8Array> = [];
  for (let i = 0; i < (init.prefetch ?? 1); i++) {
    const next = await pieces.next();
    if (next.done) break;
    ready.push(next.value);
  }
  const body = Readable.from(
    (async function* () {
      yield* ready.splice(0);
      yield* pieces;
    })(),
    { objectMode: false },
  );
  return nodeStreamResponse(c, body, { status: 200, headers: init.headers });
}
