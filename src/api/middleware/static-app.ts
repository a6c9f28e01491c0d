/**
 * `/app`: the built UI from a directory (CT_STATIC_DIR, else the package's `web/dist`), with an
 * SPA fallback — any path that is not a file gets `index.html`, so client-side routes survive a
 * reload. Without a build, a page that says how to make one.
 *
 * Text files go compressed to a browser that takes it (`Accept-Encoding`): the build writes a
 * Brotli (`.br`) and a gzip (`.gz`) copy of every text asset (web/vite.config.ts), served as they
 * are — the best compression, at no cost per request. A build without them (a CT_STATIC_DIR made
 * some other way, or a copy older than the file) is compressed on the way out with Node's own
 * zlib. Either way `Vary: Accept-Encoding` tells caches that the answer depends on the header.
 * Hashed assets (`assets/…`) are cached for a year, immutable; everything else (index.html above
 * all, which names the current assets) is revalidated on every load, with an ETag so an unchanged
 * one answers 304.
 */
import { Hono } from 'hono';
import { createReadStream, existsSync, statSync, type Stats } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { constants as zlib, createBrotliCompress, createGzip } from 'node:zlib';
import { COMPRESSIBLE, COPY_SUFFIX, MIN_COMPRESS_BYTES, type ContentEncoding } from './compressible.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

function noBuildPage(dir: string): string {
  const esc = (s: string) => s.replace(/[&<>"]/g, (ch) => `&#${ch.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>transcripts — UI not built</title>
<style>body{background:#111;color:#ddd;font:16px/1.5 system-ui,sans-serif;max-width:44em;margin:4em auto;padding:0 1em}
code,pre{background:#222;padding:.1em .3em;border-radius:3px}a{color:#8ab4f8}</style></head>
<body><h1>The web UI is not built yet</h1>
<p>The API is running; the UI bundle was not found in <code>${esc(dir)}</code>.</p>
<p>Build it from the repository root, then reload this page:</p>
<pre>npm run build</pre>
<p>Or point <code>CT_STATIC_DIR</code> at a directory that holds a built UI (with an <code>index.html</code>).</p>
<p>Meanwhile everything is reachable through the API: <a href="/api/docs">API reference</a>,
<a href="/api/sessions">sessions</a>, <a href="/api/health">health</a>.</p>
</body></html>`;
}

const CACHE_CONTROL = {
  immutable: 'public, max-age=31536000, immutable',
  day: 'public, max-age=86400',
  revalidate: 'no-cache',
};

/** The file at `path`; null when there is none (or something else stands there). */
export function statOf(path: string): Stats | null {
  try {
    const st = statSync(path);
    return st.isFile() ? st : null;
  } catch {
    return null;
  }
}

/**
 * The encodings an `Accept-Encoding` header takes, best first (Brotli before gzip); `q=0` refuses
 * one, and `*` stands for any not named.
 */
export function acceptedEncodings(header: string | undefined): ContentEncoding[] {
  if (!header) return [];
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qp ? Number(qp.slice(2)) : 1;
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  const weight = (e: string) => q.get(e) ?? q.get('*') ?? 0;
  return (['br', 'gzip'] as const).filter((e) => weight(e) > 0);
}

export interface StaticRequest {
  acceptEncoding?: string;
  ifNoneMatch?: string;
}

/** One file of the build as a response: compressed when it is text and the client takes it. */
export function staticFileResponse(
  path: string,
  st: Stats,
  cache: keyof typeof CACHE_CONTROL,
  req: StaticRequest,
): Response {
  const ext = extname(path).toLowerCase();
  const headers: Record<string, string> = {
    'content-type': TYPES[ext] ?? 'application/octet-stream',
    'cache-control': CACHE_CONTROL[cache],
  };
  const compressible = COMPRESSIBLE.has(ext);
  if (compressible) headers.vary = 'Accept-Encoding';
  const encodings = compressible ? acceptedEncodings(req.acceptEncoding) : [];
  // A precompressed copy made from this very file (not older than it).
  for (const enc of encodings) {
    const copy = statOf(path + COPY_SUFFIX[enc]);
    if (copy && copy.mtimeMs >= st.mtimeMs) {
      return respond(path + COPY_SUFFIX[enc], copy.size, enc, st, headers, cache, req);
    }
  }
  const enc = st.size >= MIN_COMPRESS_BYTES ? encodings[0] : undefined;
  return respond(path, st.size, enc, st, headers, cache, req, enc !== undefined);
}

function respond(
  file: string,
  size: number,
  enc: ContentEncoding | undefined,
  original: Stats,
  headers: Record<string, string>,
  cache: keyof typeof CACHE_CONTROL,
  req: StaticRequest,
  compressNow = false,
): Response {
  if (enc) headers['content-encoding'] = enc;
  if (cache !== 'immutable') {
    // Weak: the same file, whatever its encoding on the wire.
    const etag = `W/"${original.size.toString(36)}-${Math.floor(original.mtimeMs).toString(36)}"`;
    headers.etag = etag;
    if (req.ifNoneMatch?.split(',').some((t) => t.trim() === etag))
      return new Response(null, { status: 304, headers: withoutBodyHeaders(headers) });
  }
  const stream = createReadStream(file);
  if (!compressNow || !enc) {
    headers['content-length'] = String(size);
    return new Response(Readable.toWeb(stream) as ReadableStream, { status: 200, headers });
  }
  const z =
    enc === 'br'
      ? createBrotliCompress({
          params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: original.size },
        })
      : createGzip({ level: 6 });
  stream.on('error', (err) => z.destroy(err));
  return new Response(Readable.toWeb(stream.pipe(z)) as ReadableStream, { status: 200, headers });
}

function withoutBodyHeaders(headers: Record<string, string>): Record<string, string> {
  const { 'content-type': _t, 'content-encoding': _e, ...rest } = headers;
  return rest;
}

/** The /app sub-app; mount at `/app`. */
export function staticApp(staticDir: string): Hono {
  const root = resolve(staticDir);
  const app = new Hono();
  app.get('/*', (c) => {
    const index = join(root, 'index.html');
    if (!existsSync(index)) return c.html(noBuildPage(root), 200, { 'cache-control': 'no-cache' });
    const req: StaticRequest = {
      acceptEncoding: c.req.header('accept-encoding'),
      ifNoneMatch: c.req.header('if-none-match'),
    };
    let rel = c.req.path.replace(/^\/app\/?/, '');
    try {
      rel = decodeURIComponent(rel);
    } catch {
      // keep it as sent; it will not name a file
    }
    if (rel && !rel.includes('\0')) {
      const target = resolve(root, rel);
      if (target.startsWith(root + sep)) {
        const st = statOf(target);
        if (st)
          return staticFileResponse(target, st, rel.startsWith('assets/') ? 'immutable' : 'revalidate', req);
        // A missing asset is a 404, not index.html (a stale tab asking for an old bundle).
        if (extname(rel) !== '' && !rel.endsWith('.html')) return c.text(`not found: /app/${rel}`, 404);
      }
    }
    const st = statOf(index);
    if (!st) return c.html(noBuildPage(root), 200, { 'cache-control': 'no-cache' });
    return staticFileResponse(index, st, 'revalidate', req);
  });
  return app;
}
