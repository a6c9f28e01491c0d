/**
 * `/app`: a built UI from CT_STATIC_DIR with SPA fallback to index.html, correct content types,
 * 404 for missing assets, no escaping the directory; and the build-instructions page without one.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/api-server.js';

let built: TestServer;
let unbuilt: TestServer;
const INDEX = '<!doctype html><title>transcripts ui</title><div id="root"></div>';

beforeAll(async () => {
  const dist = mkdtempSync(path.join(tmpdir(), 'ct-ui-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), INDEX);
  writeFileSync(path.join(dist, 'assets', 'app-123.js'), 'console.log("ui")');
  writeFileSync(path.join(dist, 'assets', 'app-123.css'), 'body{}');
  writeFileSync(path.join(dist, 'favicon.svg'), '<svg/>');
  built = await startTestServer({ env: { CT_STATIC_DIR: dist } });
  unbuilt = await startTestServer({ env: { CT_STATIC_DIR: path.join(dist, 'missing') } });
});

afterAll(async () => {
  await built?.stop();
  await unbuilt?.stop();
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

describe('/app without a build', () => {
  it('says how to build the UI', async () => {
    const res = await fetch(`${unbuilt.url}/app/`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('npm run build');
    expect(html).toContain('CT_STATIC_DIR');
  });
});
