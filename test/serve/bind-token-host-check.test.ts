/**
 * Security rules: loopback by default; any other bind needs CT_API_TOKEN and refuses to start
 * without it (saying so); the token is then required on /api; requests whose Host is not the
 * bound host or a loopback name are refused (DNS rebinding); no CORS headers.
 */
import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cleanEnv,
  getJson,
  readJson,
  runCli,
  startTestServer,
  type TestServer,
} from '../support/api-server.js';

/** GET with an explicit Host header (fetch does not let us set it). */
function getWithHost(url: string, pathname: string, host: string): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: u.hostname, port: u.port, path: pathname, headers: { host }, agent: false },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('binding to a non-loopback address', () => {
  it('refuses to start without CT_API_TOKEN, with a message that says so', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'ct-sec-'));
    const env = cleanEnv({ CT_HOME: path.join(root, 'ct'), HOME: root, WEBAPI_PORT: '0' });
    for (const args of [['serve', '--host', '0.0.0.0'], ['serve']]) {
      const r = await runCli(args, {
        env: args.length === 1 ? { ...env, WEBAPI_HOST: '0.0.0.0' } : env,
        timeoutMs: 30_000,
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('CT_API_TOKEN');
      expect(r.stderr).toMatch(/refusing to listen on 0\.0\.0\.0/);
    }
  });

  describe('with a token', () => {
    let server: TestServer;
    const token = 'test-token-0123456789abcdef';

    beforeAll(async () => {
      server = await startTestServer({ env: { WEBAPI_HOST: '0.0.0.0', CT_API_TOKEN: token } });
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('requires the bearer token on every /api route', async () => {
      for (const p of ['/api/health', '/api/sessions', '/api/blueprint', '/api/openapi.json', '/api/nope']) {
        const none = await getJson(server, p);
        expect(none.status, p).toBe(401);
        expect(none.body.error.code).toBe('unauthorized');
        expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
      }
      const wrong = await getJson(server, '/api/health', { headers: { authorization: 'Bearer nope' } });
      expect(wrong.status).toBe(401);
      const right = await getJson(server, '/api/health', { headers: { authorization: `Bearer ${token}` } });
      expect(right.status).toBe(200);
      expect(
        (await getJson(server, '/api/blueprint', { headers: { authorization: `Bearer ${token}` } })).body
          .system.auth,
      ).toEqual({
        tokenRequired: true,
      });
    });

    it('describes the 401 on every operation, and every operation answers it without the token', async () => {
      const auth = { authorization: `Bearer ${token}` };
      const { status, body: doc } = await getJson(server, '/api/openapi.json', { headers: auth });
      expect(status).toBe(200);
      expect(doc.security).toEqual([{ bearer: [] }]);
      expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
      expect(doc.components.responses.Unauthorized.headers['WWW-Authenticate']).toBeDefined();
      let seen = 0;
      for (const [p, item] of Object.entries<Record<string, { responses: Record<string, unknown> }>>(
        doc.paths,
      ))
        for (const [method, op] of Object.entries(item)) {
          expect(op.responses['401'], `${method} ${p}`).toEqual({
            $ref: '#/components/responses/Unauthorized',
          });
          // Path parameters filled in with anything: the token is checked before routing.
          const url = p.replace(/\{[^}]+\}/g, 'x');
          const res = await fetch(server.url + url, { method: method.toUpperCase() });
          expect(res.status, `${method} ${url}`).toBe(401);
          expect((await readJson(res)).error.code).toBe('unauthorized');
          seen++;
        }
      expect(seen).toBeGreaterThan(20);
    });

    it('lets the CLI through with CT_API_TOKEN, and says what is wrong without it', async () => {
      const empty = mkdtempSync(path.join(tmpdir(), 'ct-sec-tree-'));
      const ok = await runCli(['backfill', '--dir', empty, '--webapi', server.url], { env: server.env });
      expect(ok.code, ok.stderr).toBe(0);
      const denied = await runCli(['backfill', '--dir', empty, '--webapi', server.url], {
        env: { ...server.env, CT_API_TOKEN: '' },
      });
      expect(denied.code).toBe(1);
      expect(denied.stderr).toMatch(/bearer token/i);
    });
  });
});

describe('on loopback', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('needs no token', async () => {
    expect((await getJson(server, '/api/health')).status).toBe(200);
  });

  it('refuses a foreign Host header (DNS rebinding) and accepts loopback names', async () => {
    const evil = await getWithHost(server.url, '/api/sessions', 'evil.example');
    expect(evil.status).toBe(403);
    expect(JSON.parse(evil.body).error.code).toBe('forbidden');
    expect((await getWithHost(server.url, '/app/', `attacker.test:${server.port}`)).status).toBe(403);
    for (const host of [
      `localhost:${server.port}`,
      `127.0.0.1:${server.port}`,
      `[::1]:${server.port}`,
      'localhost',
    ]) {
      expect((await getWithHost(server.url, '/api/health', host)).status, host).toBe(200);
    }
  });

  it('sends no CORS headers, and preflights get no blessing', async () => {
    const res = await fetch(`${server.url}/api/sessions`, { headers: { origin: 'http://evil.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    await res.arrayBuffer();
    const pre = await fetch(`${server.url}/api/sessions`, {
      method: 'OPTIONS',
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'GET' },
    });
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    expect((await readJson(pre)).error).toBeDefined();
  });
});
