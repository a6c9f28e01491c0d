/**
 * Four API processes started at the same moment on one empty PostgreSQL schema and bucket, as a
 * deployment behind a load balancer starts: the migrations run exactly once between them (the
 * advisory lock), every process comes up healthy, and all answer the same.
 */
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { getJson, startTestServer, type TestServer } from '../support/api-server.js';
import { describeSharedEngine } from '../support/engines.js';
import { latestVersion } from '../../src/migrations/runner.js';

const LATEST = latestVersion();

describeSharedEngine('four API processes racing at start', (engine) => {
  let servers: TestServer[] = [];
  let env: Record<string, string>;

  beforeAll(async () => {
    env = await engine.serverEnv();
    servers = await Promise.all(Array.from({ length: 4 }, () => startTestServer({ env })));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  it('applies each migration exactly once between them', async () => {
    const applied = servers.map((s) => {
      const m = /migrations: (?:applied (\d+) pending|schema version \d+ is current)/.exec(s.logs());
      expect(m, s.logs()).not.toBeNull();
      return Number(m![1] ?? 0);
    });
    expect(applied.reduce((a, b) => a + b, 0)).toBe(LATEST);

    const store = await openStore({ dataDir: path.join(tmpdir(), 'ct-unused'), env });
    try {
      const marker = await store.docs.getSchemaMarker();
      expect(marker?.version).toBe(LATEST);
      expect(marker?.history.map((h) => `${h.direction} ${h.version}`)).toEqual(
        Array.from({ length: LATEST }, (_, i) => `up ${i + 1}`),
      );
      expect(await store.views.materialized()).toHaveLength(LATEST);
    } finally {
      await store.close();
    }
  });

  it('leaves every process healthy and answering alike', async () => {
    const health = await Promise.all(servers.map((s) => getJson(s, '/api/health')));
    for (const h of health) {
      expect(h.body).toMatchObject({
        status: 'ok',
        store: { engine: 'postgres', state: 'ready' },
        schema: { currentVersion: LATEST, pending: [] },
      });
    }
    const status = await Promise.all(servers.map((s) => getJson(s, '/api/migrate/status')));
    for (const s of status) expect(s.body).toEqual(status[0]!.body);
  });
});
