/**
 * `/app`: the built UI from a directory (CT_STATIC_DIR, else the package's `web/dist`), with an
 * SPA fallback — any path that is not a file gets `index.html`, so client-side routes survive a
 * reload. Without a build, a page that says how to make one.
 */
import { Hono } from 'hono';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';

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

export function fileResponse(path: string, size: number, cache: keyof typeof CACHE_CONTROL): Response {
  const headers: Record<string, string> = {
    'content-type': TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream',
    'content-length': String(size),
    'cache-control': CACHE_CONTROL[cache],
  };
  return new Response(Readable.toWeb(createReadStream(path)) as ReadableStream, { status: 200, headers });
}

export function statFile(path: string): number | null {
  try {
    const st = statSync(path);
    return st.isFile() ? st.size : null;
  } catch {
    return null;
  }
}

/** The /app sub-app; mount at `/app`. */
export function staticApp(staticDir: string): Hono {
  const root = resolve(staticDir);
  const app = new Hono();
  app.get('/*', (c) => {
    const index = join(root, 'index.html');
    if (!existsSync(index)) return c.html(noBuildPage(root), 200, { 'cache-control': 'no-cache' });
    let rel = c.req.path.replace(/^\/app\/?/, '');
    try {
      rel = decodeURIComponent(rel);
    } catch {
      // keep it as sent; it will not name a file
    }
    if (rel && !rel.includes('\0')) {
      const target = resolve(root, rel);
      if (target.startsWith(root + sep)) {
        const size = statFile(target);
        if (size !== null)
          return fileResponse(target, size, rel.startsWith('assets/') ? 'immutable' : 'revalidate');
        // A missing asset is a 404, not index.html (a stale tab asking for an old bundle).
        if (extname(rel) !== '' && !rel.endsWith('.html')) return c.text(`not found: /app/${rel}`, 404);
      }
    }
    return fileResponse(index, statFile(index) ?? 0, 'revalidate');
  });
  return app;
}
