/**
 * Moving a history from the embedded engine to PostgreSQL + S3 with `transcripts export` and
 * `import --webapi` (docs/deployment.md): the new instance holds the same documents and objects
 * and answers the read routes as the old one does. And an API process killed (SIGKILL) while an
 * import writes through it loses nothing: the import, run again through another process on the
 * same database and bucket, completes it, nothing twice.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { snapshotApi, type ApiSnapshot } from '../support/api-snapshot.js';
import { binPath, cleanEnv, getJson, startTestServer, type TestServer } from '../support/api-server.js';
import { runCommand } from '../support/bundle-cli.js';
import { describeSharedEngine, testEngine } from '../support/engines.js';

describeSharedEngine('moving an embedded instance', (engine) => {
  let tmp: string;
  let bundle: string;
  let source: TestServer;
  let snapSource: ApiSnapshot;
  const servers: TestServer[] = [];

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'ct-move-'));
    bundle = path.join(tmp, 'bundle');
    source = await startTestServer({ corpus: testEngine('sqlite') }); // embedded: SQLite file + object directory
    snapSource = await snapshotApi(source.url);
    const exported = await runCommand(['export', bundle, '--webapi', source.url]);
    expect(exported.code, exported.stderr).toBe(0);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([source?.stop(), ...servers.map((s) => s.stop())]);
    await rm(tmp, { recursive: true, force: true });
  });

  async function expectHolds(target: TestServer) {
    const snap = await snapshotApi(target.url);
    expect([...snap.docs.keys()]).toEqual([...snapSource.docs.keys()]);
    for (const [id, doc] of snapSource.docs) expect(snap.docs.get(id), id).toBe(doc);
    expect(snap.objects).toEqual(snapSource.objects);
    const health = await getJson(target, '/api/health');
    expect(health.body.counts).toMatchObject({
      documents: snapSource.docs.size,
      objects: snapSource.objects.size,
    });
  }

  /** The same route on both instances answers the same. */
  async function same(target: TestServer, route: string) {
    const [a, b] = await Promise.all([getJson(source, route), getJson(target, route)]);
    expect(b.status, route).toBe(a.status);
    expect(b.body, route).toEqual(a.body);
  }

  it('moves everything with export + import --webapi, and answers as before', async () => {
    const target = await startTestServer({ env: await engine.serverEnv() });
    servers.push(target);
    const imported = await runCommand(['import', bundle, '--webapi', target.url]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/search reindexed: \d+ entries/);
    await expectHolds(target);

    await same(target, '/api/sessions?limit=500');
    for (const filter of ['source=backfill', 'hostname=test-host', 'from=2025-09-01&to=2025-09-30']) {
      await same(target, `/api/sessions?limit=500&${filter}`);
    }
    const list = (await getJson(source, '/api/sessions?limit=500')).body.sessions as Array<{
      id: string;
      files: Array<{ name: string }>;
    }>;
    for (const s of list) {
      await same(target, `/api/sessions/${s.id}`);
      for (const f of s.files)
        await same(target, `/api/sessions/${s.id}/transcript?file=${encodeURIComponent(f.name)}&limit=1000`);
      await same(target, `/api/sessions/${s.id}/turns?limit=1000`);
      await same(target, `/api/sessions/${s.id}/raw/0`);
    }
    await same(target, '/api/activity?from=2025-01-01&to=2026-12-31');
    for (const facet of ['cwd', 'model', 'hostname', 'source']) await same(target, `/api/facets/${facet}`);

    // Search finds the same entries; ranking (bm25 vs ts_rank) and snippet windows are the engine's own.
    for (const q of ['todo', 'migration', '"tool use"', 'test*', 'pomodoro timer']) {
      const route = `/api/search?q=${encodeURIComponent(q)}&limit=100`;
      const [a, b] = await Promise.all([getJson(source, route), getJson(target, route)]);
      expect(b.body.total, q).toBe(a.body.total);
      if (a.body.total <= 100) {
        const hits = (r: typeof a) =>
          (r.body.hits as Array<{ sessionId: string; file: string; index: number }>)
            .map((h) => `${h.sessionId}/${h.file}#${h.index}`)
            .sort();
        expect(hits(b), q).toEqual(hits(a));
      }
    }
  });

  it('completes an import whose API process was killed mid-write, through another process', async () => {
    const env = await engine.serverEnv();
    const doomed = await startTestServer({ env });
    servers.push(doomed);
    const importing = spawn(process.execPath, [binPath, 'import', bundle, '--webapi', doomed.url], {
      env: cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => importing.once('exit', resolve));
    let output = '';
    importing.stderr.on('data', (d: Buffer) => (output += d.toString()));
    // Kill the server when every object is up and the documents are on their way (one large
    // write transaction), so the process dies with documents half written.
    let killed = false;
    for (let i = 0; i < 1500 && !killed; i++) {
      const h = await getJson(doomed, '/api/health').catch(() => null);
      if ((h?.body?.counts?.objects ?? 0) >= snapSource.objects.size) {
        doomed.process.kill('SIGKILL');
        killed = true;
      } else {
        await sleep(10);
      }
    }
    expect(killed, output).toBe(true);
    expect(await exited, output).not.toBe(0);

    const survivor = await startTestServer({ env });
    servers.push(survivor);
    const mid = await getJson(survivor, '/api/health');
    expect(mid.body.counts.documents).toBeLessThan(snapSource.docs.size);
    const again = await runCommand(['import', bundle, '--webapi', survivor.url]);
    expect(again.code, again.stderr).toBe(0);
    await expectHolds(survivor);
    const third = await runCommand(['import', bundle, '--webapi', survivor.url]);
    expect(third.stdout).toMatch(/nothing to import/);
  });
});
