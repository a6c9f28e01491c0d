/**
 * Two API processes on one PostgreSQL + S3 store, each fed by its own `transcripts backfill` of
 * the very same sessions at the same time (two machines importing one shared history). Their
 * writes interleave on the same documents, cursors and objects; conflicts are retried by
 * re-reading revisions. The end state must be exactly what one backfill alone writes: no
 * duplicate, no lost update, every object byte for byte.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { snapshotApi } from '../support/api-snapshot.js';
import { getJson, runCli, startTestServer, type TestServer } from '../support/api-server.js';
import { describeSharedEngine } from '../support/engines.js';
import { claudeCorpusDir } from '../support/paths.js';

const PROJECTS = ['SWORDIntel__claude-backups', 'aaaAlexanderaaa__cchistory'];

describeSharedEngine('two processes ingesting the same sessions', (engine) => {
  let tmp: string;
  let projects: string;
  let a: TestServer;
  let b: TestServer;
  let reference: TestServer;

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'ct-same-session-'));
    projects = path.join(tmp, 'projects');
    for (const p of PROJECTS)
      await cp(path.join(claudeCorpusDir, p), path.join(projects, p), { recursive: true });
    const env = await engine.serverEnv();
    [a, b, reference] = await Promise.all([
      startTestServer({ env }),
      startTestServer({ env }),
      startTestServer(), // the embedded engine, fed by one backfill alone
    ]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop(), reference?.stop()]);
    await rm(tmp, { recursive: true, force: true });
  });

  const backfill = (server: TestServer) =>
    runCli(['backfill', '--dir', projects, '--webapi', server.url, '--host', 'test-host'], {
      env: server.env,
    });

  it('ends exactly as one backfill alone would, through either process', async () => {
    const [ra, rb, rr] = await Promise.all([backfill(a), backfill(b), backfill(reference)]);
    for (const r of [ra, rb, rr]) expect(r.code, r.stdout + r.stderr).toBe(0);

    const expected = await snapshotApi(reference.url);
    const [viaA, viaB] = await Promise.all([snapshotApi(a.url), snapshotApi(b.url)]);
    expect(viaA).toEqual(viaB);
    expect([...viaA.docs.keys()]).toEqual([...expected.docs.keys()]);
    for (const [id, doc] of expected.docs) expect(viaA.docs.get(id), id).toBe(doc);
    expect(viaA.objects).toEqual(expected.objects);

    // Nothing twice: the counts are the documents and objects, once each.
    const health = await getJson(a, '/api/health');
    expect(health.body.counts).toMatchObject({
      documents: expected.docs.size,
      objects: expected.objects.size,
    });
    const [listA, listR] = await Promise.all([
      getJson(a, '/api/sessions?limit=500'),
      getJson(reference, '/api/sessions?limit=500'),
    ]);
    expect(listA.body).toEqual(listR.body);
  });

  it('writes nothing when either process backfills again', async () => {
    const before = await getJson(a, '/api/store/docs?limit=10000');
    const again = await backfill(b);
    expect(again.code).toBe(0);
    expect((await getJson(a, '/api/store/docs?limit=10000')).body).toEqual(before.body);
  });
});
