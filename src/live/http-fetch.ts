/**
 * The slice of `fetch` the API client uses, over `node:http` with a keep-alive agent. The hook is
 * a short-lived process, and Node's built-in fetch costs ~20 ms on its first call (it loads
 * undici) against ~3 ms here — a fifth of the hook's budget. Supports what ApiClient and the
 * HTTP ingest sink send: method, plain-object headers, string/bytes/web-stream bodies, a signal;
 * answers with `ok`, `status`, `statusText`, `headers.get` and `text`/`json`/`arrayBuffer`.
 */
import http from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

class MiniHeaders {
  constructor(private readonly raw: http.IncomingHttpHeaders) {}
  get(name: string): string | null {
    const v = this.raw[name.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  }
}

class MiniResponse {
  readonly ok: boolean;
  readonly headers: MiniHeaders;
  constructor(
    readonly status: number,
    readonly statusText: string,
    headers: http.IncomingHttpHeaders,
    private readonly bytes: Buffer,
    readonly url: string,
  ) {
    this.ok = status >= 200 && status < 300;
    this.headers = new MiniHeaders(headers);
  }
  async text(): Promise<string> {
    return this.bytes.toString('utf8');
  }
  async json(): Promise<unknown> {
    return JSON.parse(this.bytes.toString('utf8'));
  }
  async arrayBuffer(): Promise<ArrayBuffer> {
    return this.bytes.buffer.slice(
      this.bytes.byteOffset,
      this.bytes.byteOffset + this.bytes.length,
    ) as ArrayBuffer;
  }
}

const isWebStream = (b: unknown): b is WebReadableStream =>
  typeof (b as { getReader?: unknown } | null)?.getReader === 'function';

/** A `fetch` for http:// URLs (https:// falls back to the built-in one). */
export function httpFetch(): typeof fetch {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  return (input, init = {}) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    if (url.protocol !== 'http:') return fetch(input, init);
    return new Promise<Response>((resolve, reject) => {
      const req = http.request(
        url,
        {
          method: init.method ?? 'GET',
          headers: (init.headers ?? {}) as http.OutgoingHttpHeaders,
          agent,
          signal: init.signal ?? undefined,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () =>
            resolve(
              new MiniResponse(
                res.statusCode ?? 0,
                res.statusMessage ?? '',
                res.headers,
                Buffer.concat(chunks),
                url.href,
              ) as unknown as Response,
            ),
          );
        },
      );
      req.on('error', reject);
      const body = init.body;
      if (body === undefined || body === null) req.end();
      else if (typeof body === 'string' || body instanceof Uint8Array) req.end(body);
      else if (isWebStream(body)) {
        const stream = Readable.fromWeb(body);
        stream.on('error', (err) => req.destroy(err));
        stream.pipe(req);
      } else reject(new TypeError('httpFetch: unsupported body type'));
    });
  };
}
