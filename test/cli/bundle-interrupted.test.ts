/**
 * An import killed halfway (SIGKILL, as a crash or a closed laptop would) is completed by running
 * it again: the target then holds exactly the bundle, nothing twice, and a further run writes
 * nothing. Killed once while uploading objects (before any document) and once after the documents
 * but before the reindex finished.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resolvePaths } from '../../src/config/paths.js';
import { SEARCH_STALE } from '../../src/store/contract.js';
import { openStore } from '../../src/store/open-store.js';
import { ABANDONED_IMPORT_MS, deferredStale } from '../../src/store/views-common/search-stale.js';
import { snapshotApi, type ApiSnapshot } from '../support/api-snapshot.js';
import { getJson, startTestServer, type TestServer } from '../support/api-server.js';
import { testEngine } from '../support/engines.js';
import { runCommand, runCommandChild } from '../support/bundle-cli.js';

let a: TestServer;
let tmp: string;
let bundle: string;
let snapA: ApiSnapshot;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'ct-interrupted-'));
  bundle = path.join(tmp, 'bundle');
  a = await startTestServer({ corpus: testEngine('sqlite') });
  snapA = await snapshotApi(a.url);
  expect((await runCommand(['export', bundle, '--webapi', a.url])).code).toBe(0);
}, 120_000);

afterAll(async () => {
  await a?.stop();
  await rm(tmp, { recursive: true, force: true });
});

async function expectComplete(b: TestServer) {
  const snapB = await snapshotApi(b.url);
  expect([...snapB.docs.keys()]).toEqual([...snapA.docs.keys()]);
  for (const [id, doc] of snapA.docs) expect(snapB.docs.get(id), id).toBe(doc);
  expect(snapB.objects).toEqual(snapA.objects);
  // Nothing twice: the store counts exactly the bundle's documents and objects.
  const h = await getJson(b, '/api/health');
  expect(h.body.counts.documents).toBe(snapA.docs.size);
  expect(h.body.counts.objects).toBe(snapA.objects.size);
  // The import wrote its documents leaving search behind; its reindex caught up with all of them.
  expect(h.body.search).toEqual({ enabled: true, stale: false });
  const total = async (s: TestServer) => (await getJson(s, '/api/search?q=the')).body.total;
  expect(await total(b)).toBe(await total(a!));
}

describe('import killed halfway', () => {
  it('killed while uploading objects: a re-run completes it', async () => {
    const b = await startTestServer();
    try {
      // Plain progress prints the first object upload at once: kill right then.
      const killed = await runCommandChild(['import', bundle, '--webapi', b.url], {
        killWhen: /import: objects: \d+\/\d+/,
      });
      expect(killed.killed).toBe(true);
      const mid = await getJson(b, '/api/health');
      expect(mid.body.counts.objects).toBeGreaterThan(0);
      expect(mid.body.counts.sessions).toBe(0);

      const again = await runCommand(['import', bundle, '--webapi', b.url]);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toMatch(/objects: +\d+ uploaded .*, [1-9]\d* unchanged/);
      expect(again.stdout).toMatch(/search reindexed/);
      await expectComplete(b);

      const third = await runCommand(['import', bundle, '--webapi', b.url]);
      expect(third.stdout).toMatch(/nothing to import/);
    } finally {
      await b.stop();
    }
  });

  it('killed after the documents, before the reindex ended: the re-run finishes the reindex', async () => {
    const b = await startTestServer();
    try {
      const killed = await runCommandChild(['import', bundle, '--webapi', b.url], {
        killWhen: /import: documents: (\d+)\/\1 /,
      });
      expect(killed.killed).toBe(true);
      const again = await runCommand(['import', bundle, '--webapi', b.url]);
      expect(again.code, again.stderr).toBe(0);
      // Everything was there already; the unfinished import is finished (reindexed), not skipped.
      expect(again.stdout).toMatch(/documents: 0 written, \d+ unchanged/);
      expect(again.stdout).toMatch(/search reindexed: \d+ entries/);
      await expectComplete(b);
      const third = await runCommand(['import', bundle, '--webapi', b.url]);
      expect(third.stdout).toMatch(/nothing to import/);
    } finally {
      await b.stop();
    }
  });

  it('killed after the documents and never run again: the server rebuilds search itself once the import has been silent long enough', async () => {
    const root = await mkdtemp(path.join(tmp, 'abandoned-'));
    const b = await startTestServer({ root });
    let b2: TestServer | undefined;
    try {
      const killed = await runCommandChild(['import', bundle, '--webapi', b.url], {
        killWhen: /import: documents: (\d+)\/\1 /,
      });
      expect(killed.killed).toBe(true);
      expect((await getJson(b, '/api/health')).body.search).toEqual({ enabled: true, stale: true });
      await b.stop({ keep: true });
      // Time passes: the import's last write is made older than ABANDONED_IMPORT_MS.
      const store = await openStore({ dataDir: resolvePaths(b.env).dataDir, env: b.env });
      const marker = await store.docs.getLocal<{ deferredAt: string }>(SEARCH_STALE);
      expect(Date.now() - Date.parse(marker!.deferredAt)).toBeLessThan(ABANDONED_IMPORT_MS);
      const long = new Date(Date.now() - ABANDONED_IMPORT_MS - 60_000).toISOString();
      await store.docs.putLocal(SEARCH_STALE, deferredStale(long));
      await store.close();
      b2 = await startTestServer({ root, env: b.env });
      // Health can say so before the server's log line has reached this process: wait for both.
      await vi.waitFor(
        async () => {
          expect((await getJson(b2!, '/api/health')).body.search.stale).toBe(false);
          expect(b2!.logs()).toMatch(/search: index rebuilt: \d+ entries/);
        },
        {
          timeout: 60_000,
          interval: 100,
        },
      );
      expect(b2.logs()).toContain(
        `search: an import left the index behind (last write ${long}) and has written nothing since`,
      );
      await expectComplete(b2);
    } finally {
      await b2?.stop();
      await b.stop();
    }
  });

  it('an object left by an interrupted import of an older version, with no document of its session, is replaced', async () => {
    const b = await startTestServer();
    try {
      // What an import of an older bundle killed after its uploads leaves: the transcript as it
      // was then (a prefix of today's), and no document of the session.
      const manifest = JSON.parse(await readFile(path.join(bundle, 'manifest.json'), 'utf8'));
      const blob = Object.keys(manifest.files).find((f) => f.startsWith('blobs/'))!;
      const key = blob.slice('blobs/'.length);
      const bytes = await readFile(path.join(bundle, blob));
      const older = bytes.subarray(0, Math.floor(bytes.length / 2));
      const put = await fetch(`${b.url}/api/ingest/objects/${key}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream' },
        body: older,
      });
      expect(put.status).toBe(200);

      const dry = await runCommand(['import', bundle, '--dry-run', '--webapi', b.url]);
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.stdout).toMatch(/1 object on the target belongs to no stored session .* would be replaced/);
      const r = await runCommand(['import', bundle, '--webapi', b.url]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toMatch(/differs/);
      expect(r.stdout).toMatch(/1 object left on the target by an interrupted import.*replaced/);
      await expectComplete(b);
    } finally {
      await b.stop();
    }
  });

  it('killed at several moments in a row: the final run still reaches the same state', async () => {
    const b = await startTestServer();
    try {
      let kills = 0;
      for (const ms of [250, 500, 750, 1000, 1300])
        if ((await runCommandChild(['import', bundle, '--webapi', b.url], { killAfterMs: ms })).killed)
          kills++;
      expect(kills).toBeGreaterThan(0);
      const last = await runCommand(['import', bundle, '--webapi', b.url]);
      expect(last.code, last.stderr).toBe(0);
      await expectComplete(b);
    } finally {
      await b.stop();
    }
  });
});
