/**
 * Cross-site writes (issue 42, same-origin-writes.ts), from a real Chromium: a page on another
 * origin — `localhost` on another port (another site than 127.0.0.1) and `127.0.0.1` on another
 * port (the same site, another origin) — fires the requests a browser sends without a CORS
 * preflight at `POST /api/migrate/down` and `POST /api/ingest/reindex`: no body, a text/plain
 * body, a form. None may change the schema version. The server's own page still writes.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, startTestServer, type TestServer } from '../support/api-server.js';
import { hasChromium, launchBrowser, openPage, skipReason } from './harness.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

if (!hasChromium) console.log(skipReason);

describe.skipIf(!hasChromium)('cross-site writes from a page in Chromium', () => {
  let server: TestServer;
  let evil: Server;
  let evilPort: number;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer({ args: ['--no-import', '--no-watch'] });
    // Another origin's page: any path answers the same empty page.
    evil = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<p>elsewhere</p>'),
    );
    await new Promise<void>((r) => evil.listen(0, '127.0.0.1', r));
    evilPort = (evil.address() as AddressInfo).port;
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => evil?.close(r));
    await server?.stop();
  });

  const version = async () => (await getJson(server, '/api/migrate/status')).body.currentVersion as number;

  for (const host of ['localhost', '127.0.0.1']) {
    it(`a page on http://${host}:<other port> cannot revert a migration or reindex`, async () => {
      const before = await version();
      expect(before).toBeGreaterThan(0);
      const api = server.url.replace('localhost', '127.0.0.1');
      const w = await openPage(browser);
      try {
        await w.page.goto(`http://${host}:${evilPort}/`);
        // The requests a page can send blind: no-cors, no preflight. The answers are opaque to it.
        await w.page.evaluate(async (base: string) => {
          const sends: Array<[string, RequestInit]> = [];
          for (const path of ['/api/migrate/down', '/api/ingest/reindex']) {
            sends.push([path, { method: 'POST', mode: 'no-cors' }]);
            sends.push([path, { method: 'POST', mode: 'no-cors', body: '{"steps":1}' }]);
            sends.push([
              path,
              { method: 'POST', mode: 'no-cors', body: '{}', headers: { 'content-type': 'text/plain' } },
            ]);
          }
          for (const [path, init] of sends) await fetch(base + path, init).catch(() => undefined);
        }, api);
        // A form posted by the page (a navigation, which no-cors fetch is not): the answer shows.
        await w.page.evaluate((base: string) => {
          const form = document.createElement('form');
          form.method = 'POST';
          form.action = `${base}/api/migrate/down`;
          form.enctype = 'text/plain';
          const input = document.createElement('input');
          input.name = '{"steps":1,"x":"';
          input.value = '"}';
          form.appendChild(input);
          document.body.appendChild(form);
          form.submit();
        }, api);
        await w.page.waitForURL(`${api}/api/migrate/down`);
        const answer = JSON.parse((await w.page.textContent('body')) ?? '{}');
        expect(answer.error.code).toBe('forbidden');
        expect(answer.error.message).toMatch(
          /^cross-site request refused: Sec-Fetch-Site is "(cross|same)-site"/,
        );
      } finally {
        await w.context.close();
      }
      expect(await version()).toBe(before);
    });
  }

  it("the server's own page still writes (same origin)", async () => {
    const w = await openPage(browser);
    try {
      // A page of the server's own (without a built UI, the page that says how to build one).
      await w.page.goto(`${server.url}/app/`);
      const res = await w.page.evaluate(async () => {
        const r = await fetch('/api/migrate/down', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"dryRun":true}',
        });
        return { status: r.status, body: await r.json() };
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ dryRun: true });
      // The page without a built UI has no icon: its 404 is the browser's own console line.
      w.assertNoErrors([/Failed to load resource: .* 404/]);
    } finally {
      await w.context.close();
    }
  });
});
