/**
 * Upgrading over a search index an earlier version made in an older form: `transcripts serve`
 * rebuilds it in the background by itself (no `transcripts reindex` needed), search says it is
 * behind until then, and of two servers starting on one PostgreSQL database one rebuilds.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { resolvePaths } from '../../src/config/paths.js';
import { SEARCH_STALE } from '../../src/store/contract.js';
import { openStore } from '../../src/store/open-store.js';
import { olderFormStale } from '../../src/store/views-common/search-stale.js';
import { getJson, startTestServer, type TestServer } from '../support/api-server.js';
import { describeEngines } from '../support/engines.js';

const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0).reverse()) await s.stop();
});

async function waitFor<T>(fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting; last value ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describeEngines('serve over a search index of an older form', (engine) => {
  it('rebuilds it in the background at start, once, and search catches up', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'ct-catch-up-'));
    const first = await startTestServer({ root, corpus: engine, args: ['--no-import', '--no-watch'] });
    const before = await getJson(first, '/api/search?q=pomodoro');
    expect(before.body.total).toBeGreaterThan(0);
    await first.stop({ keep: true });

    // As an older version leaves it when the store opens: search marked behind for its form.
    const store = await openStore({ dataDir: resolvePaths(first.env).dataDir, env: first.env });
    await store.docs.putLocal(SEARCH_STALE, olderFormStale(new Date().toISOString()));
    await store.close();

    // Two servers on the same store: on PostgreSQL both run, and one rebuilds; the embedded
    // engine's data directory takes one.
    const options = { root, env: first.env, args: ['--no-import', '--no-watch'] };
    const started = [await startTestServer(options)];
    if (engine.name === 'postgres') started.push(await startTestServer(options));
    servers.push(...started);
    const health = await waitFor(
      () => getJson(started[0]!, '/api/health'),
      (r) => r.body.search.stale === false,
    );
    expect(health.body.search).toMatchObject({ enabled: true, stale: false });
    await waitFor(
      async () => started.map((s) => s.logs()).join('\n'),
      (logs) => /search: index rebuilt: \d+ entries in \d+ sessions/.test(logs),
    );
    const logs = started.map((s) => s.logs());
    expect(logs.filter((l) => /search: index rebuilt/.test(l))).toHaveLength(1);
    expect(logs.join('\n')).toMatch(/search: the index was made by an earlier version \(.+\); rebuilding it/);
    const after = await getJson(started.at(-1)!, '/api/search?q=pomodoro');
    expect(after.body).toMatchObject({ total: before.body.total, stale: false });
    expect(after.body.hits).toEqual(before.body.hits);

    // Started again: nothing to rebuild, nothing said.
    for (const s of servers.splice(0).reverse()) await s.stop({ keep: true });
    const again = await startTestServer(options);
    servers.push(again);
    expect((await getJson(again, '/api/search?q=pomodoro')).body.stale).toBe(false);
    await new Promise((r) => setTimeout(r, 500));
    expect(again.logs()).not.toMatch(/search: /);
  });
});
