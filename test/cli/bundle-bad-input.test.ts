/**
 * Import refuses bad bundles before writing anything (issue 4, "Bad input"): a missing manifest
 * (an interrupted export), a flipped byte in docs.ndjson or a blob, a truncated docs.ndjson, a
 * future format, a newer schema, an unreadable line, an altered bundle, a target that is down.
 * Each case exits 1, says what is wrong (and what fixes it), and leaves the target untouched.
 */
import { appendFile, cp, mkdtemp, readFile, rm, truncate, unlink, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, startTestServer, type TestServer } from '../support/api-server.js';
import { testEngine } from '../support/engines.js';
import type { Manifest } from '../../src/bundle/manifest.js';
import { runCommand } from '../support/bundle-cli.js';
import { latestVersion } from '../../src/migrations/runner.js';

const L = latestVersion();

let a: TestServer;
let b: TestServer;
let tmp: string;
let good: string;
let n = 0;

async function copyBundle(): Promise<string> {
  const dir = path.join(tmp, `case-${++n}`);
  await cp(good, dir, { recursive: true });
  return dir;
}

async function editManifest(dir: string, edit: (m: Manifest) => void): Promise<void> {
  const file = path.join(dir, 'manifest.json');
  const m = JSON.parse(await readFile(file, 'utf8'));
  edit(m);
  await writeFile(file, JSON.stringify(m, null, 2));
}

/** Records a changed file's true size and sha256 in the manifest, so the check after checksums is reached. */
async function reseal(dir: string, rel: string): Promise<void> {
  const bytes = await readFile(path.join(dir, rel));
  await editManifest(dir, (m) => {
    m.files[rel] = { bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  });
}

async function flipByte(file: string, at: number): Promise<void> {
  const bytes = await readFile(file);
  bytes[at] = bytes[at]! ^ 0x01;
  await writeFile(file, bytes);
}

async function firstBlob(dir: string): Promise<string> {
  const m = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8'));
  return Object.keys(m.files).find((f) => f.startsWith('blobs/'))!;
}

/** What B holds: its counts and every id with its revision. Equal before and after = nothing written. */
async function stateOfB() {
  const health = await getJson(b, '/api/health');
  const docs = await getJson(b, '/api/store/docs?limit=10000');
  return { counts: health.body.counts, rows: docs.body.rows };
}

async function expectRefused(args: string[], message: RegExp, env?: Record<string, string>) {
  const before = await stateOfB();
  const r = await runCommand(['import', ...args], { env });
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr).toMatch(message);
  expect(await stateOfB()).toEqual(before);
  return r;
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'ct-bad-bundle-'));
  good = path.join(tmp, 'good');
  [a, b] = await Promise.all([startTestServer({ corpus: testEngine('sqlite') }), startTestServer()]);
  const r = await runCommand(['export', good, '--webapi', a.url]);
  expect(r.code, r.stderr).toBe(0);
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await rm(tmp, { recursive: true, force: true });
});

describe('import refuses a bad bundle and writes nothing', () => {
  it('a directory without a manifest (an interrupted export)', async () => {
    const dir = await copyBundle();
    await unlink(path.join(dir, 'manifest.json'));
    const r = await expectRefused([dir, '--webapi', b.url], /has no manifest\.json: .*interrupted/);
    expect(r.stderr).toContain('nothing was written');
  });

  it('a flipped byte in docs.ndjson', async () => {
    const dir = await copyBundle();
    await flipByte(path.join(dir, 'docs.ndjson'), 5000);
    await expectRefused(
      [dir, '--webapi', b.url],
      /docs\.ndjson: sha256 [0-9a-f]+ does not match .*corrupted/,
    );
  });

  it('a flipped byte in a blob', async () => {
    const dir = await copyBundle();
    const blob = await firstBlob(dir);
    await flipByte(path.join(dir, blob), 10);
    await expectRefused(
      [dir, '--webapi', b.url],
      new RegExp(`${blob.replace(/[.]/g, '\\.')}: sha256 .* does not match`),
    );
  });

  it('a truncated docs.ndjson', async () => {
    const dir = await copyBundle();
    const file = path.join(dir, 'docs.ndjson');
    const size = (await readFile(file)).length;
    await truncate(file, size - 100);
    await expectRefused(
      [dir, '--webapi', b.url],
      /docs\.ndjson: \d+ bytes, but the manifest says \d+ \(truncated\?\)/,
    );
    // Even with a manifest that agrees, the cut last line is found.
    await reseal(dir, 'docs.ndjson');
    await expectRefused(
      [dir, '--webapi', b.url],
      /docs\.ndjson line \d+: the last line has no newline: the file is truncated/,
    );
  });

  it('a manifest from a future format', async () => {
    const dir = await copyBundle();
    await editManifest(dir, (m) => (m.formatVersion = 2));
    await expectRefused(
      [dir, '--webapi', b.url],
      /format version 2, newer than this transcripts reads \(up to 1\); upgrade transcripts/,
    );
  });

  it('a manifest of another format', async () => {
    const dir = await copyBundle();
    await editManifest(dir, (m) => Object.assign(m, { format: 'something-else' }));
    await expectRefused([dir, '--webapi', b.url], /not a transcripts bundle/);
  });

  it('a bundle from a newer schema than the target knows: upgrade transcripts', async () => {
    const dir = await copyBundle();
    await editManifest(dir, (m) => (m.schemaVersion = L + 1));
    await expectRefused(
      [dir, '--webapi', b.url],
      new RegExp(
        `schema version ${L + 1}, newer than the target's ${L}[\\s\\S]*upgrade transcripts on the target`,
      ),
    );
  });

  it('a bundle newer than the target, which migrate up fixes', async () => {
    const down = await runCommand(['migrate', 'down', '--steps', '4', '--webapi', b.url]);
    expect(down.code).toBe(0);
    try {
      await expectRefused(
        [good, '--webapi', b.url],
        new RegExp(
          `newer than the target's ${L - 4}[\\s\\S]*transcripts migrate up --to ${L} --webapi ${b.url.replace(/[.]/g, '\\.')}`,
        ),
      );
    } finally {
      expect((await runCommand(['migrate', 'up', '--webapi', b.url])).code).toBe(0);
    }
  });

  it('an unreadable line inside docs.ndjson, named by its number', async () => {
    const dir = await copyBundle();
    const file = path.join(dir, 'docs.ndjson');
    const lines = (await readFile(file, 'utf8')).split('\n');
    lines[4] = '{"_id": "summary:x", oops';
    await writeFile(file, lines.join('\n'));
    await reseal(dir, 'docs.ndjson');
    await expectRefused([dir, '--webapi', b.url], /docs\.ndjson line 5: not valid JSON/);
  });

  it('a line that is JSON but not a session document', async () => {
    const dir = await copyBundle();
    const file = path.join(dir, 'docs.ndjson');
    const lines = (await readFile(file, 'utf8')).split('\n');
    const doc = JSON.parse(lines[2]!);
    lines[2] = JSON.stringify({ ...doc, timestamp: 'yesterday' });
    await writeFile(file, lines.join('\n'));
    await reseal(dir, 'docs.ndjson');
    await expectRefused([dir, '--webapi', b.url], /docs\.ndjson line 3: .*timestamp/);
  });

  it('two versions of one document id, refused before anything is written', async () => {
    const dir = await copyBundle();
    const file = path.join(dir, 'docs.ndjson');
    const lines = (await readFile(file, 'utf8')).split('\n');
    const at = lines.findIndex((l) => l.startsWith('{"_id":"summary:'));
    const doc = JSON.parse(lines[at]!);
    lines.splice(lines.length - 1, 0, JSON.stringify({ ...doc, title: 'a second version' }));
    await writeFile(file, lines.join('\n'));
    await reseal(dir, 'docs.ndjson');
    await editManifest(dir, (m) => {
      m.counts.documents++;
      m.counts.documentsByType.summary = (m.counts.documentsByType.summary ?? 0) + 1;
    });
    const dry = await runCommand(['import', dir, '--dry-run', '--webapi', b.url]);
    expect(dry.code).toBe(1);
    expect(dry.stderr).toMatch(
      new RegExp(`docs\\.ndjson line ${lines.length - 1}: duplicate _id ${doc._id}`),
    );
    await expectRefused(
      [dir, '--webapi', b.url],
      new RegExp(`docs\\.ndjson line ${lines.length - 1}: duplicate _id ${doc._id}`),
    );
  });

  it('a file added to the bundle after export', async () => {
    const dir = await copyBundle();
    const blob = await firstBlob(dir);
    await appendFile(path.join(dir, path.dirname(blob), 'extra.jsonl'), '{}\n');
    await expectRefused([dir, '--webapi', b.url], /extra\.jsonl is in the bundle but not in its manifest/);
  });

  it('a target API that is down: says which address was tried and how it was chosen', async () => {
    const port = await new Promise<number>((resolve) => {
      const srv = createServer().listen(0, '127.0.0.1', () => {
        const p = (srv.address() as { port: number }).port;
        srv.close(() => resolve(p));
      });
    });
    const viaFlag = await expectRefused(
      [good, '--webapi', `http://127.0.0.1:${port}`],
      new RegExp(`cannot reach the transcripts API at http://127\\.0\\.0\\.1:${port} \\(from --webapi`),
    );
    expect(viaFlag.stdout).toBe('');
    await expectRefused(
      [good],
      new RegExp(`http://127\\.0\\.0\\.1:${port} \\(from the environment: WEBAPI_PORT=${port}\\)`),
      {
        WEBAPI_PORT: String(port),
        HOME: path.join(tmp, 'home'),
      },
    );
  });
});

describe('import accepts what it can restore', () => {
  it('an older bundle when only view migrations lie between, saying so', async () => {
    const dir = await copyBundle();
    await editManifest(dir, (m) => (m.schemaVersion = 7));
    const r = await runCommand(['import', dir, '--webapi', b.url]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(
        `note: the bundle's schema version 7 is older than the target's ${L}; only view migrations lie between`,
      ),
    );
    expect(r.stdout).toMatch(/documents: \d+ written/);
  });
});
