/**
 * `/app`: a built UI from CT_STATIC_DIR with SPA fallback to index.html, correct content types,
 * 404 for missing assets, no escaping the directory; compressed text (the build's .br/.gz copies,
 * else compressed on the way out) with Vary, long caching for hashed assets and revalidation with
 * an ETag for the rest; and the build-instructions page without a build. Compression is checked
 * over raw HTTP (node:http), which shows the bytes as sent.
 */
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../support/api-app.js';
import { testEngine } from '../support/engines.js';

/** A GET over raw HTTP: status, headers and the body exactly as sent. */
function rawGet(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const BIG_JS = `console.log(${JSON.stringify('the web UI bundle '.repeat(400))});\n`;
const BIG_CSS = `body{color:#ddd}\n${'.ct-row:hover{border-color:blue}\n'.repeat(100)}`;
const STALE_JS = `console.log(${JSON.stringify('a newer build '.repeat(200))});\n`;

// In process, each on a loopback socket: compression is checked over raw HTTP.
const engine = testEngine('sqlite');
const apps: TestApp[] = [];
let built: { url: string };
let unbuilt: { url: string };

async function listening(staticDir: string): Promise<{ url: string }> {
  const app = await openTestApp(engine, { staticDir });
  apps.push(app);
  return { url: await app.listen() };
}
const INDEX = '<!doctype html><title>transcripts ui</title><div id="root"></div>';

beforeAll(async () => {
  const dist = mkdtempSync(path.join(tmpdir(), 'ct-ui-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), INDEX);
  writeFileSync(path.join(dist, 'assets', 'app-123.js'), 'console.log("ui")');
  writeFileSync(path.join(dist, 'assets', 'app-123.css'), 'body{}');
  writeFileSync(path.join(dist, 'favicon.svg'), '<svg/>');
  // A bundle with the build's compressed copies, a stylesheet without them, and a file whose
  // copies are older than it (a file replaced by hand after the build).
  const big = path.join(dist, 'assets', 'index-abc.js');
  writeFileSync(big, BIG_JS);
  writeFileSync(`${big}.br`, brotliCompressSync(BIG_JS));
  writeFileSync(`${big}.gz`, gzipSync(BIG_JS));
  writeFileSync(path.join(dist, 'assets', 'index-abc.css'), BIG_CSS);
  const stale = path.join(dist, 'assets', 'stale-abc.js');
  writeFileSync(`${stale}.br`, brotliCompressSync('console.log("old")'));
  writeFileSync(`${stale}.gz`, gzipSync('console.log("old")'));
  writeFileSync(stale, STALE_JS);
  const past = new Date(Date.now() - 3_600_000);
  utimesSync(`${stale}.br`, past, past);
  utimesSync(`${stale}.gz`, past, past);
  built = await listening(dist);
  unbuilt = await listening(path.join(dist, 'missing'));
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await engine.stop();
});

describe('/app with a build', () => {
  it('serves index.html at /app and /app/', async () => {
    for (const p of ['/app', '/app/']) {
      const res = await fetch(built.url + p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(await res.text()).toBe(INDEX);
    }
  });

  it('serves assets with their types, long-cached', async () => {
    const js = await fetch(`${built.url}/app/assets/app-123.js`);
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    expect(js.headers.get('cache-control')).toMatch(/immutable/);
    expect(await js.text()).toBe('console.log("ui")');
    expect((await fetch(`${built.url}/app/assets/app-123.css`)).headers.get('content-type')).toMatch(
      /text\/css/,
    );
    expect((await fetch(`${built.url}/app/favicon.svg`)).headers.get('content-type')).toBe('image/svg+xml');
  });

  it('falls back to index.html for client-side routes, not for missing assets', async () => {
    for (const p of ['/app/sessions/abc', '/app/search?q=x', '/app/calendar/2025/07']) {
      const res = await fetch(built.url + p);
      expect(res.status, p).toBe(200);
      expect(await res.text()).toBe(INDEX);
    }
    expect((await fetch(`${built.url}/app/assets/old-999.js`)).status).toBe(404);
  });

  it('never serves files outside the build directory', async () => {
    for (const p of [
      '/app/..%2F..%2F..%2Fetc%2Fpasswd',
      '/app/%2e%2e/%2e%2e/package.json',
      '/app/..%5c..%5cpackage.json',
    ]) {
      const res = await fetch(built.url + p);
      const text = await res.text();
      expect(text, p).not.toContain('root:x:');
      expect(text, p).not.toContain('"name": "transcripts"');
    }
  });
});

describe('/app compression and caching', () => {
  it("sends the build's Brotli or gzip copy to a browser that takes it, identity to one that does not", async () => {
    const url = `${built.url}/app/assets/index-abc.js`;
    const br = await rawGet(url, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(BIG_JS.length / 5);
    expect(brotliDecompressSync(br.body).toString()).toBe(BIG_JS);

    const gz = await rawGet(url, { 'accept-encoding': 'br;q=0, gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(BIG_JS);

    const plain = await rawGet(url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(plain.body.toString()).toBe(BIG_JS);
    expect(Number(plain.headers['content-length'])).toBe(BIG_JS.length);
  });

  it('compresses on the way out without copies, or with copies older than the file; small files go as they are', async () => {
    const css = await rawGet(`${built.url}/app/assets/index-abc.css`, { 'accept-encoding': 'gzip' });
    expect(css.headers['content-encoding']).toBe('gzip');
    expect(css.headers['content-type']).toMatch(/text\/css/);
    expect(gunzipSync(css.body).toString()).toBe(BIG_CSS);
    const stale = await rawGet(`${built.url}/app/assets/stale-abc.js`, { 'accept-encoding': 'br' });
    expect(stale.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(stale.body).toString()).toBe(STALE_JS);
    const small = await rawGet(`${built.url}/app/assets/app-123.js`, { 'accept-encoding': 'br, gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body.toString()).toBe('console.log("ui")');
  });

  it('revalidates index.html (no long caching) and answers 304 to its ETag', async () => {
    for (const p of ['/app/', '/app/sessions/abc']) {
      const res = await rawGet(built.url + p, { 'accept-encoding': 'gzip' });
      expect(res.headers['cache-control'], p).toBe('no-cache');
      expect(res.headers.etag, p).toMatch(/^W\/"/);
      const again = await rawGet(built.url + p, { 'if-none-match': String(res.headers.etag) });
      expect(again.status, p).toBe(304);
      expect(again.body.length).toBe(0);
    }
  });
});

describe('/app without a build', () => {
  it('says how to build the UI', async () => {
    const res = await fetch(`${unbuilt.url}/app/`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('npm run build');
    expect(html).toContain('CT_STATIC_DIR');
  });
});
