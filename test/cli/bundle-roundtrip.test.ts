/**
 * The headline use: copy the whole corpus from instance A to a fresh instance B through a bundle.
 * Every document (revision markers aside) and every object (sha256) must arrive, and B must answer
 * the list, transcript, turns and search routes exactly as A does. A second import changes nothing
 * and says so; both APIs keep answering throughout.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotApi, type ApiSnapshot } from '../support/api-snapshot.js';
import { getJson, startTestServer, type TestServer } from '../support/api-server.js';
import { testEngine } from '../support/engines.js';
import { runCommand } from '../support/bundle-cli.js';
import { latestVersion } from '../../src/migrations/runner.js';

const L = latestVersion();

let a: TestServer;
let b: TestServer;
let tmp: string;
let bundle: string;
let snapA: ApiSnapshot;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'ct-roundtrip-'));
  bundle = path.join(tmp, 'bundle');
  [a, b] = await Promise.all([startTestServer({ corpus: testEngine('sqlite') }), startTestServer()]);
  snapA = await snapshotApi(a.url);
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await rm(tmp, { recursive: true, force: true });
});

describe('export → import round trip over the whole corpus', () => {
  it('exports every session document and object, manifest last', async () => {
    expect(snapA.docs.size).toBeGreaterThan(500);
    const r = await runCommand(['export', bundle, '--webapi', a.url]);
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    const manifest = JSON.parse(await readFile(path.join(bundle, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ format: 'transcripts-bundle', formatVersion: 1, schemaVersion: L });
    expect(manifest.source.url).toBe(a.url);
    expect(manifest.counts.documents).toBe(snapA.docs.size);
    expect(manifest.counts.objects).toBe(snapA.objects.size);
    // Every blob's checksum is the object's on A.
    for (const [key, sha] of snapA.objects) expect(manifest.files[`blobs/${key}`]?.sha256, key).toBe(sha);
    // No revision markers, design documents or local state.
    const lines = (await readFile(path.join(bundle, 'docs.ndjson'), 'utf8')).trimEnd().split('\n');
    expect(lines).toHaveLength(snapA.docs.size);
    for (const line of lines) {
      const doc = JSON.parse(line);
      expect(doc._rev).toBeUndefined();
      expect(doc._id.startsWith('_')).toBe(false);
    }
  });

  it('a dry run on the fresh instance reports everything new and writes nothing', async () => {
    const r = await runCommand(['import', bundle, '--dry-run', '--webapi', b.url]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`documents: ${snapA.docs.size} new, 0 unchanged, 0 conflicting`);
    expect(r.stdout).toContain(`objects:   ${snapA.objects.size} new`);
    expect(r.stdout).toContain('nothing written');
    const snapB = await snapshotApi(b.url);
    expect(snapB.docs.size).toBe(0);
  });

  it('imports into a fresh instance: every document and object arrives', async () => {
    const r = await runCommand(['import', bundle, '--webapi', b.url]);
    expect(r.stderr).not.toMatch(/error|refused|differ/i);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`documents: ${snapA.docs.size} written, 0 unchanged, 0 conflicting`);
    expect(r.stdout).toMatch(/search reindexed: \d+ entries/);
    const snapB = await snapshotApi(b.url);
    expect([...snapB.docs.keys()]).toEqual([...snapA.docs.keys()]);
    for (const [id, doc] of snapA.docs) expect(snapB.docs.get(id), id).toBe(doc);
    expect(snapB.objects).toEqual(snapA.objects);
  });

  it('B answers list, transcript, turns, raw and search as A does', async () => {
    const listA = await getJson(a, '/api/sessions?limit=500');
    const listB = await getJson(b, '/api/sessions?limit=500');
    expect(listB.status).toBe(200);
    expect(listB.body).toEqual(listA.body);
    for (const s of listA.body.sessions as Array<{ id: string; files: Array<{ name: string }> }>) {
      for (const f of s.files) {
        const q = `?file=${encodeURIComponent(f.name)}&limit=1000`;
        const [ta, tb] = await Promise.all([
          getJson(a, `/api/sessions/${s.id}/transcript${q}`),
          getJson(b, `/api/sessions/${s.id}/transcript${q}`),
        ]);
        expect(tb.body, `${s.id} ${f.name}`).toEqual(ta.body);
      }
      const [ua, ub] = await Promise.all([
        getJson(a, `/api/sessions/${s.id}/turns?limit=1000`),
        getJson(b, `/api/sessions/${s.id}/turns?limit=1000`),
      ]);
      expect(ub.body, s.id).toEqual(ua.body);
      const [ra, rb] = await Promise.all([
        getJson(a, `/api/sessions/${s.id}/raw/0`),
        getJson(b, `/api/sessions/${s.id}/raw/0`),
      ]);
      expect(rb.status).toBe(ra.status);
      expect(rb.body).toEqual(ra.body);
    }
    for (const q of ['todo', 'migration', 'error', '"tool use"', 'test*']) {
      const [sa, sb] = await Promise.all([
        getJson(a, `/api/search?q=${encodeURIComponent(q)}&limit=100`),
        getJson(b, `/api/search?q=${encodeURIComponent(q)}&limit=100`),
      ]);
      expect(sb.body, q).toEqual(sa.body);
    }
    const [aa, ab] = await Promise.all([
      getJson(a, '/api/activity?from=2025-01-01&to=2026-12-31'),
      getJson(b, '/api/activity?from=2025-01-01&to=2026-12-31'),
    ]);
    expect(ab.body).toEqual(aa.body);
  });

  it('a second import changes nothing and says so', async () => {
    const before = await getJson(b, '/api/store/docs?limit=10000');
    const r = await runCommand(['import', bundle, '--webapi', b.url]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /nothing to import: .* already holds the \d+ documents and \d+ objects of this bundle; nothing written/,
    );
    const after = await getJson(b, '/api/store/docs?limit=10000');
    expect(after.body).toEqual(before.body); // same ids, same revisions
    const dry = await runCommand(['import', bundle, '--dry-run', '--webapi', b.url]);
    expect(dry.stdout).toContain(`documents: 0 new, ${snapA.docs.size} unchanged, 0 conflicting`);
  });

  it('both APIs kept answering', async () => {
    for (const s of [a, b]) {
      const h = await getJson(s, '/api/health');
      expect(h.status).toBe(200);
      expect(h.body.status).toBe('ok');
    }
  });
});
