/**
 * Export selections take exactly what they say, as whole sessions: `--since`, several `--session`
 * (ids or unique prefixes), `--no-blobs`; sessions whose objects are missing on the source are
 * named in the manifest. Export refuses a non-empty target directory and unknown or ambiguous
 * sessions without writing anything, and fails at once on a target it cannot create.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotApi, type ApiSnapshot } from '../support/api-snapshot.js';
import { getJson, sendJson, startTestServer, type TestServer } from '../support/api-server.js';
import { testEngine } from '../support/engines.js';
import { runCommand, runCommandChild } from '../support/bundle-cli.js';
import { RATE_LIMIT } from '../support/corpus-sessions.js';

let a: TestServer;
let tmp: string;
let snapA: ApiSnapshot;
let n = 0;
/** The corpus's longest session (4 MB, one file): long enough for a progress bar to draw. */
const LONGEST = '1b2c0332-e2dc-459f-88b9-1aad6e941e18';
const target = () => path.join(tmp, `bundle-${++n}`);

async function readBundle(dir: string) {
  const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8'));
  const docs = (await readFile(path.join(dir, 'docs.ndjson'), 'utf8'))
    .trimEnd()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { _id: string; sessionId: string });
  return { manifest, docs };
}

/** Every document id and object key of these sessions on A. */
function expectedFor(sessions: string[]) {
  const set = new Set(sessions);
  const docs = [...snapA.docs]
    .filter(([, d]) => set.has(JSON.parse(d).sessionId))
    .map(([id]) => id)
    .sort();
  const objects = [...snapA.objects.keys()].filter((k) => set.has(k.slice(0, k.indexOf('/')))).sort();
  return { docs, objects };
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'ct-selection-'));
  a = await startTestServer({ corpus: testEngine('sqlite') });
  // A session whose transcript object the source does not have (documents only).
  const summary = (await getJson(a, `/api/store/docs/summary:${RATE_LIMIT}`)).body;
  const { _rev, ...ghost } = { ...summary, _id: 'summary:ghost', sessionId: 'ghost' };
  const w = await sendJson(a, 'POST', '/api/ingest/docs', { docs: [ghost] });
  expect(w.status).toBe(200);
  snapA = await snapshotApi(a.url);
}, 120_000);

afterAll(async () => {
  await a?.stop();
  await rm(tmp, { recursive: true, force: true });
});

describe('export selections', () => {
  it('--since takes whole sessions active at or after that time', async () => {
    const since = '2026-01-01T00:00:00Z';
    const active = (await getJson(a, `/api/sessions?from=${since}&limit=500`)).body.sessions
      .map((s: { id: string }) => s.id)
      .sort();
    expect(active.length).toBeGreaterThan(2);
    expect(active.length).toBeLessThan(snapA.docs.size);
    const dir = target();
    const r = await runCommand(['export', dir, '--since', since, '--webapi', a.url]);
    expect(r.code, r.stderr).toBe(0);
    const { manifest, docs } = await readBundle(dir);
    expect(manifest.sessions).toEqual(active);
    expect(manifest.selection).toEqual({ since: '2026-01-01T00:00:00.000Z', sessions: null, blobs: true });
    const want = expectedFor(active);
    expect(docs.map((d) => d._id).sort()).toEqual(want.docs);
    expect(
      Object.keys(manifest.files)
        .filter((f) => f.startsWith('blobs/'))
        .map((f) => f.slice(6))
        .sort(),
    ).toEqual(want.objects);
  });

  it('several --session, by id or unique prefix', async () => {
    const dir = target();
    const r = await runCommand([
      'export',
      dir,
      '--session',
      '5c0375b4',
      '--session',
      '1af7fc5e-8455-4414-9ccd-011d40f70b2a',
      '--session',
      RATE_LIMIT,
      '--webapi',
      a.url,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const { manifest, docs } = await readBundle(dir);
    const sessions = [
      '1af7fc5e-8455-4414-9ccd-011d40f70b2a',
      '5c0375b4-57a5-4f26-b12d-d022ee4e51b7',
      RATE_LIMIT,
    ];
    expect(manifest.sessions).toEqual(sessions);
    expect(manifest.selection.sessions).toEqual([
      '5c0375b4',
      '1af7fc5e-8455-4414-9ccd-011d40f70b2a',
      RATE_LIMIT,
    ]);
    const want = expectedFor(sessions);
    expect(docs.map((d) => d._id).sort()).toEqual(want.docs);
    expect(
      Object.keys(manifest.files)
        .filter((f) => f.startsWith('blobs/'))
        .map((f) => f.slice(6))
        .sort(),
    ).toEqual(want.objects);
    // The subagent transcript travels with its session.
    expect(
      manifest.files['blobs/5c0375b4-57a5-4f26-b12d-d022ee4e51b7/subagents/agent-test-hash-123.jsonl'],
    ).toBeDefined();
  });

  it('takes the directory after --session: each --session holds one id (gh-style)', async () => {
    const dir = target();
    const r = await runCommand([
      'export',
      '--session',
      RATE_LIMIT,
      '--session',
      '5c0375b4',
      dir,
      '--webapi',
      a.url,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect((await readBundle(dir)).manifest.sessions).toEqual([
      '5c0375b4-57a5-4f26-b12d-d022ee4e51b7',
      RATE_LIMIT,
    ]);
    // Two words after one --session: the second is the directory, a third is one too many.
    const extra = await runCommand(['export', '--session', RATE_LIMIT, target(), 'more', '--webapi', a.url]);
    expect(extra.code).toBe(2);
    expect(extra.stderr).toContain('too many arguments');
  });

  it('--since and --session together take the sessions that match both', async () => {
    const dir = target();
    const r = await runCommand([
      'export',
      dir,
      '--since',
      '2026-01-01',
      '--session',
      RATE_LIMIT,
      '--session',
      '5c0375b4',
      '--webapi',
      a.url,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect((await readBundle(dir)).manifest.sessions).toEqual([RATE_LIMIT]);
  });

  it('--no-blobs writes documents only, and imports as documents only', async () => {
    const dir = target();
    const r = await runCommand(['export', dir, '--no-blobs', '--session', RATE_LIMIT, '--webapi', a.url]);
    expect(r.code, r.stderr).toBe(0);
    expect(await readdir(dir)).toEqual(['docs.ndjson', 'manifest.json']);
    const { manifest, docs } = await readBundle(dir);
    expect(Object.keys(manifest.files)).toEqual(['docs.ndjson']);
    expect(manifest.counts.objects).toBe(0);
    expect(manifest.selection.blobs).toBe(false);
    expect(docs.map((d) => d._id).sort()).toEqual(expectedFor([RATE_LIMIT]).docs);
    const b = await startTestServer();
    try {
      const imp = await runCommand(['import', dir, '--webapi', b.url]);
      expect(imp.code, imp.stderr).toBe(0);
      expect((await getJson(b, '/api/health')).body.counts.objects).toBe(0);
      expect(
        (await getJson(b, `/api/sessions/${RATE_LIMIT}/transcript`)).body.entries.length,
      ).toBeGreaterThan(0);
    } finally {
      await b.stop();
    }
  });

  it('import --no-blobs leaves the objects of a full bundle out', async () => {
    const dir = target();
    expect((await runCommand(['export', dir, '--session', RATE_LIMIT, '--webapi', a.url])).code).toBe(0);
    const b = await startTestServer();
    try {
      const imp = await runCommand(['import', dir, '--no-blobs', '--webapi', b.url]);
      expect(imp.code, imp.stderr).toBe(0);
      expect(imp.stdout).toContain('objects:   none (--no-blobs)');
      expect((await getJson(b, '/api/health')).body.counts).toMatchObject({ objects: 0, sessions: 1 });
    } finally {
      await b.stop();
    }
  });

  it('names sessions whose objects the source does not have', async () => {
    const dir = target();
    const r = await runCommand([
      'export',
      dir,
      '--session',
      'ghost',
      '--session',
      RATE_LIMIT,
      '--webapi',
      a.url,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/session ghost has no stored transcript\.jsonl on the source/);
    const { manifest } = await readBundle(dir);
    expect(manifest.missingObjects).toEqual([{ sessionId: 'ghost', names: ['transcript.jsonl'] }]);
  });

  it('shows a progress bar on a terminal and plain lines otherwise', async () => {
    const tty = await runCommand(['export', target(), '--session', LONGEST, '--webapi', a.url], {
      tty: true,
    });
    expect(tty.code).toBe(0);
    expect(tty.stderr).toMatch(/export objects \[[=-]+\] \d+%/);
    const plain = await runCommand(['export', target(), '--session', LONGEST, '--webapi', a.url]);
    expect(plain.stderr).toMatch(/export objects: 1\/1 files/);
    // Documents: bytes so far while they stream (no guessed total), the exact size once written.
    expect(plain.stderr).toMatch(/export documents: \d+\/\d+ files, [\d.]+ MB\n/);
    expect(plain.stderr).toMatch(/export documents: (\d+)\/\1 files, ([\d.]+)\/\2 MB\n/);
    expect(plain.stderr).not.toContain(String.fromCharCode(27));
  });
});

describe('export refuses, writing nothing', () => {
  it('a non-empty target directory', async () => {
    const dir = target();
    await mkdir(dir);
    await writeFile(path.join(dir, 'notes.txt'), 'mine');
    const r = await runCommand(['export', dir, '--webapi', a.url]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/is not empty .*bundles never mix/);
    expect(await readdir(dir)).toEqual(['notes.txt']);
  });

  it('an unknown or ambiguous session', async () => {
    const dir = target();
    const unknown = await runCommand(['export', dir, '--session', 'no-such-session', '--webapi', a.url]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no session matches "no-such-session"/);
    const ambiguous = await runCommand(['export', dir, '--session', 'a7', '--webapi', a.url]);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain(
      '"a7" matches several sessions (a76fc974-3091-4485-9127-e667272dc322, a7cf1760-ec41-4c5e-8546-866e1abd17df)',
    );
    expect(existsSync(dir)).toBe(false);
  });

  it('a target that cannot be created: fails at once naming the path, exit 1 (the built bin)', async () => {
    const file = path.join(tmp, 'a-file');
    await writeFile(file, 'not a directory');
    const dangling = path.join(tmp, 'dangling');
    await symlink(path.join(tmp, 'nowhere', 'at-all'), dangling);
    const esc = (p: string) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const cases: Array<[string, RegExp]> = [
      [
        path.join(file, 'bundle'),
        new RegExp(
          `^error: cannot create ${esc(path.join(file, 'bundle'))}: ${esc(file)} exists and is not a directory$`,
          'm',
        ),
      ],
      [
        path.join(dangling, 'bundle'),
        new RegExp(
          `cannot create ${esc(path.join(dangling, 'bundle'))}: ${esc(dangling)} is a symbolic link to nothing`,
        ),
      ],
    ];
    // /proc takes no new directories, and answers mkdir with ENOENT: Node's recursive mkdir spun there for ever.
    if (process.platform === 'linux')
      cases.push(
        [
          '/proc/ct-export-test',
          /^error: cannot create \/proc\/ct-export-test: \/proc does not take new directories/m,
        ],
        [
          '/proc/ct-export-test/deeper/bundle',
          /cannot create \/proc\/ct-export-test\/deeper\/bundle: \/proc\/ct-export-test: \/proc does not take new directories/,
        ],
      );
    for (const [dir, message] of cases) {
      const started = Date.now();
      const r = await runCommandChild(['export', dir, '--webapi', a.url], { killAfterMs: 30_000 });
      expect(r.killed, `${dir} hung`).toBe(false);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(Date.now() - started).toBeLessThan(15_000);
    }
    expect(await readFile(file, 'utf8')).toBe('not a directory');
  });

  it('a source that fails before anything is written leaves no directory, nor the parents made for it', async () => {
    const parent = path.join(tmp, `parent-${++n}`);
    const r = await runCommand(['export', path.join(parent, 'a', 'b'), '--webapi', 'http://127.0.0.1:1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot reach the transcripts API/);
    expect(existsSync(parent)).toBe(false);
  });

  it('a bad --since (usage error, exit 2)', async () => {
    const dir = target();
    const r = await runCommand(['export', dir, '--since', 'last tuesday', '--webapi', a.url]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--since must be an ISO 8601 date or time/);
    expect(existsSync(dir)).toBe(false);
  });
});
