/**
 * A bundle whose manifest.json holds only what the specification requires, the schema version
 * it was taken at, imports: what import needs is read from docs.ndjson and blobs/, with a
 * warning that there are no checksums to verify. The bundle's own checks still hold: every
 * document line, safe object paths of sessions the documents name, regular files only.
 */
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotApi, type ApiSnapshot } from '../support/api-snapshot.js';
import { startTestServer, type TestServer } from '../support/api-server.js';
import { testEngine } from '../support/engines.js';
import { runCommand } from '../support/bundle-cli.js';

let a: TestServer;
let b: TestServer;
let tmp: string;
let full: string;
let snapA: ApiSnapshot;
let n = 0;

/** A copy of the exported bundle with its manifest replaced by `manifest`. */
async function bundleWith(manifest: unknown): Promise<string> {
  const dir = path.join(tmp, `case-${++n}`);
  await cp(full, dir, { recursive: true });
  await writeFile(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
  return dir;
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'ct-minimal-manifest-'));
  full = path.join(tmp, 'full');
  [a, b] = await Promise.all([startTestServer({ corpus: testEngine('sqlite') }), startTestServer()]);
  snapA = await snapshotApi(a.url);
  const r = await runCommand(['export', full, '--webapi', a.url]);
  expect(r.code, r.stderr).toBe(0);
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await rm(tmp, { recursive: true, force: true });
});

describe('import of a bundle whose manifest holds only schemaVersion', () => {
  it('refuses what it cannot restore, writing nothing', async () => {
    const refused = async (dir: string, message: RegExp) => {
      const r = await runCommand(['import', dir, '--webapi', b.url]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toContain('nothing was written');
    };
    await refused(await bundleWith({}), /manifest\.schemaVersion/);
    // A blob of a session with no document, and a link that would upload a file from elsewhere.
    const session = [...snapA.objects.keys()][0]!.split('/')[0]!;
    const orphan = await bundleWith({ schemaVersion: 10 });
    await cp(path.join(orphan, 'blobs', session), path.join(orphan, 'blobs', 'orphan'), { recursive: true });
    await refused(
      orphan,
      /blobs\/orphan\/.* belongs to session orphan, which has no document in docs\.ndjson/,
    );
    const linked = await bundleWith({ schemaVersion: 10 });
    await symlink('/etc/hostname', path.join(linked, 'blobs', session, 'extra.jsonl'));
    await refused(linked, new RegExp(`blobs/${session}/extra\\.jsonl is not a regular file`));
    const badLine = await bundleWith({ schemaVersion: 10 });
    await writeFile(path.join(badLine, 'docs.ndjson'), '{"not": "a document"}\n');
    await refused(badLine, /docs\.ndjson line 1: /);
    expect((await snapshotApi(b.url)).docs.size).toBe(0);
  });

  it('imports every document and object, warning that there are no checksums to verify', async () => {
    const dir = await bundleWith({ schemaVersion: 10 });
    const dry = await runCommand(['import', dir, '--dry-run', '--webapi', b.url]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toMatch(
      /^warning: manifest\.json holds no file list, so there are no checksums to verify/m,
    );
    expect(dry.stdout).toContain(`documents: ${snapA.docs.size} new, 0 unchanged, 0 conflicting`);
    expect(dry.stdout).toContain(`objects:   ${snapA.objects.size} new`);
    expect(dry.stdout).toMatch(/schema version 10; its manifest names no source or date/);
    expect(dry.stdout).toContain('no checksums (the manifest lists no files), every document line');

    const r = await runCommand(['import', dir, '--webapi', b.url]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/no checksums to verify/);
    expect(r.stdout).toContain(`documents: ${snapA.docs.size} written, 0 unchanged, 0 conflicting`);
    const snapB = await snapshotApi(b.url);
    expect([...snapB.docs.keys()]).toEqual([...snapA.docs.keys()]);
    for (const [id, doc] of snapA.docs) expect(snapB.docs.get(id), id).toBe(doc);
    expect(snapB.objects).toEqual(snapA.objects);

    // Again: nothing to write, and the full bundle of the same history agrees.
    const again = await runCommand(['import', dir, '--webapi', b.url]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^nothing to import/m);
    const fullAgain = await runCommand(['import', full, '--webapi', b.url]);
    expect(fullAgain.code, fullAgain.stderr).toBe(0);
    expect(fullAgain.stdout).toMatch(/^nothing to import/m);
    expect(JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8'))).toEqual({
      schemaVersion: 10,
    });
  });
});
