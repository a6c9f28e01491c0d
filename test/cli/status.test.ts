/**
 * `transcripts status` and `transcripts reindex`, and how every command finds the API: `--webapi`,
 * then WEBAPI_HOST/WEBAPI_PORT (blank = unset, 0.0.0.0 dialled as loopback), then the installed
 * instance's instance.env, then http://127.0.0.1:7650 — and when nothing answers, the message names
 * the address tried and how it was chosen.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillCorpus, getJson, startTestServer, type TestServer } from '../support/api-server.js';
import { runCommand } from '../support/bundle-cli.js';
import { MIGRATIONS } from '../../src/migrations/index.js';

/** The schema version: the last migration's (a new migration moves it). */
const N = MIGRATIONS.length;

let s: TestServer;
let emptyHome: string;

beforeAll(async () => {
  s = await startTestServer();
  await backfillCorpus(s);
  emptyHome = await mkdtemp(path.join(os.tmpdir(), 'ct-status-home-'));
}, 120_000);
afterAll(async () => {
  await s?.stop();
  await rm(emptyHome, { recursive: true, force: true });
});

/** The environment of a user of this instance: its CT_HOME holds the instance.env it wrote. */
const installed = () => ({ CT_HOME: s.env.CT_HOME!, HOME: s.env.HOME! });

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const p = (srv.address() as { port: number }).port;
      srv.close(() => resolve(p));
    });
  });
}

describe('transcripts status', () => {
  it('says which instance it found and how, its version, schema and sessions', async () => {
    const health = (await getJson(s, '/api/health')).body;
    const r = await runCommand(['status', '--webapi', s.url]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`instance  ${s.url} (from --webapi ${s.url})`);
    expect(r.stdout).toMatch(
      new RegExp(`^version\\s+transcripts ${health.version.replace(/\./g, '\\.')} \\(ok\\)$`, 'm'),
    );
    expect(r.stdout).toMatch(new RegExp(`^schema\\s+version ${N} of ${N}; no pending migrations$`, 'm'));
    expect(r.stdout).toMatch(new RegExp(`^sessions\\s+${health.counts.sessions} \\(`, 'm'));
    expect(r.stdout).toMatch(/^search\s+enabled$/m);
    const json = JSON.parse((await runCommand(['status', '--json', '--webapi', s.url])).stdout);
    expect(json.instance).toMatchObject({ url: s.url, source: 'flag' });
    expect(json.health.counts).toEqual(health.counts);
    expect(json.migrate.currentVersion).toBe(N);
  });

  it('finds the installed instance through its instance.env', async () => {
    const r = await runCommand(['status'], { env: installed() });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(`instance  ${s.url} \\(from the installed instance's .*instance\\.env\\)`),
    );
  });

  it('prefers WEBAPI_HOST/WEBAPI_PORT, dials 0.0.0.0 as loopback, and treats a blank variable as unset', async () => {
    const env = await runCommand(['status'], {
      env: { ...installed(), WEBAPI_HOST: '0.0.0.0', WEBAPI_PORT: String(s.port) },
    });
    expect(env.stdout).toContain(
      `instance  http://127.0.0.1:${s.port} (from the environment: WEBAPI_HOST=0.0.0.0 WEBAPI_PORT=${s.port})`,
    );
    const blank = await runCommand(['status'], {
      env: { ...installed(), WEBAPI_PORT: '  ', WEBAPI_HOST: '' },
    });
    expect(blank.stdout).toMatch(/from the installed instance's/);
    // --webapi wins over the environment.
    const flag = await runCommand(['status', '--webapi', s.url], {
      env: { ...installed(), WEBAPI_PORT: '1' },
    });
    expect(flag.code).toBe(0);
  });

  it('when nothing answers: names the address and how it was chosen, exit 1', async () => {
    const port = await closedPort();
    const env = await runCommand(['status'], { env: { HOME: emptyHome, WEBAPI_PORT: String(port) } });
    expect(env.code).toBe(1);
    expect(env.stderr).toMatch(
      new RegExp(
        `cannot reach the transcripts API at http://127\\.0\\.0\\.1:${port} \\(from the environment: WEBAPI_PORT=${port}\\)`,
      ),
    );
    expect(env.stdout).toBe('');
    const bad = await runCommand(['status', '--webapi', 'ftp://x'], { env: { HOME: emptyHome } });
    expect(bad.code).toBe(2);
  });

  it('falls back to http://127.0.0.1:7650 and says it is the default', async (ctx) => {
    const answering = await fetch('http://127.0.0.1:7650/api/health').then(
      () => true,
      () => false,
    );
    if (answering) ctx.skip(); // something listens on the default port on this machine; the message cannot be provoked
    const r = await runCommand(['status'], { env: { HOME: emptyHome } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/http:\/\/127\.0\.0\.1:7650 \(the default; pass --webapi URL or set CT_API_URL/);
  });
});

describe('transcripts reindex', () => {
  it('rebuilds the search index and reports what it indexed', async () => {
    const r = await runCommand(['reindex', '--webapi', s.url]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/reindexing search at /);
    expect(r.stdout).toMatch(/^indexed \d+ entries in \d+ sessions \(\d+\.\ds\)$/m);
    const json = JSON.parse((await runCommand(['reindex', '--json', '--webapi', s.url])).stdout);
    expect(json.entries).toBeGreaterThan(100);
    expect((await getJson(s, '/api/search?q=todo')).body.total).toBeGreaterThan(0);
  });
});
