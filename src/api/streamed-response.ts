/**
 * A response streamed from a generator of pieces (JSON or NDJSON pages, Markdown), for bodies too
 * large to build whole. The first `prefetch` pieces are produced before the status is sent, so a
 * failure there (a bad key, a view not built) is still an HTTP error; a failure later ends the
 * response part-way, which clients see as a broken transfer, never as a complete body.
 */
import { Readable } from 'node:stream';

export async function streamedResponse(
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
  return new Response(Readable.toWeb(body) as ReadableStream, { status: 200, headers: init.headers });
}
