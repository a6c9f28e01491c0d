/**
 * The CLI's `fetch` for http:// URLs, over `node:http`: answers once the response headers are in,
 * with the body as a stream (`body`, read by export and `transcript --raw`) or read whole
 * (`text`, `json`, `arrayBuffer`). Node's built-in fetch loads undici and compiles its WebAssembly
 * HTTP parser on the first call, which cost a one-request command like `transcripts sessions` as
 * much again as starting Node (the hook avoids it the same way: src/live/http-fetch.ts, which
 * buffers whole answers). https:// URLs, and requests given a dispatcher of their own (the patient
 * pool), go to the built-in fetch.
 */
import http from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

class StreamedHeaders {
  constructor(private readonly raw: http.IncomingHttpHeaders) {}
  get(name: string): string | null {
    const v = this.raw[name.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  }
  has(name: string): boolean {
    return this.raw[name.toLowerCase()] !== undefined;
  }
}

class StreamedResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly headers: StreamedHeaders;
  #body: WebReadableStream<Uint8Array> | null = null;
  constructor(
    private readonly res: http.IncomingMessage,
    readonly url: string,
  ) {
    this.status = res.statusCode ?? 0;
    this.statusText = res.statusMessage ?? '';
    this.ok = this.status >= 200 && this.status < 300;
    this.headers = new StreamedHeaders(res.headers);
  }
  get body(): WebReadableStream<Uint8Array> {
    return (this.#body ??= Readable.toWeb(this.res) as WebReadableStream<Uint8Array>);
  }
  async #bytes(): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const c of this.res) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  }
  async text(): Promise<string> {
    return (await this.#bytes()).toString('utf8');
  }
  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
  async arrayBuffer(): Promise<ArrayBuffer> {
    const b = await this.#bytes();
    return b.buffer.slice(b.byteOffset, b.byteOffset + b.length) as ArrayBuffer;
  }
}

const isWebStream = (b: unknown): b is WebReadableStream =>
  typeof (b as { getReader?: unknown } | null)?.getReader === 'function';

export function httpFetchStream(): typeof fetch {
  const agent = new http.Agent({ keepAlive: true });
  return (input, init = {}) => {
    // Not `instanceof Request`: touching the global Request loads undici, what this avoids.
    const url = new URL(typeof input === 'object' && 'url' in input ? input.url : String(input));
    if (url.protocol !== 'http:' || (init as { dispatcher?: unknown }).dispatcher)
      return globalThis.fetch(input, init);
    return new Promise<Response>((resolve, reject) => {
      const req = http.request(url, {
        method: init.method ?? 'GET',
        headers: (init.headers ?? {}) as http.OutgoingHttpHeaders,
        agent,
        signal: init.signal ?? undefined,
      });
      req.on('response', (res) => {
        // No body to read: let the socket go back to the pool at once.
        if (req.method === 'HEAD' || res.headers['content-length'] === '0') res.resume();
        resolve(new StreamedResponse(res, url.href) as unknown as Response);
      });
      // An abort fails as fetch does: with the signal's reason (a TimeoutError for the headers timeout).
      req.on('error', (err) => reject(init.signal?.aborted ? (init.signal.reason ?? err) : err));
      const body = init.body;
      if (body === undefined || body === null) req.end();
      else if (typeof body === 'string' || body instanceof Uint8Array) {
        // Node frames a DELETE's body neither by length nor by chunks unless told: the server
        // would read the body as the next request. Say its length, as fetch does.
        if (!req.hasHeader('content-length')) req.setHeader('content-length', Buffer.byteLength(body));
        req.end(body);
      } else if (isWebStream(body)) {
        const stream = Readable.fromWeb(body);
        stream.on('error', (err) => req.destroy(err));
        stream.pipe(req);
      } else reject(new TypeError('httpFetchStream: unsupported body type'));
    });
  };
}
