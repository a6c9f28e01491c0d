/**
 * `transcripts restore` against a real server over the shared corpus: every session with a
 * working directory goes back to Claude Code's layout byte for byte (sha256 equal to the corpus
 * file it came from), deleted files come back, a different file is refused and kept as `.bak`
 * with --force, --dry-run writes nothing, and the server's watcher reads a restored unchanged
 * session as nothing new (every document revision and object the same), clearing its
 * "kept after deletion" mark.
 */
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeProjectDir } from '../../src/core/claude-layout.js';
import { getJson, runCli, startTestServer, type TestServer } from '../support/api-server.js';
import { testEngine } from '../support/engines.js';
import { claudeCorpusDir, corpusDir } from '../support/paths.js';

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

interface ListedSession {
  id: string;
  cwd: string | null;
  files: Array<{ name: string }>;
}

describe('transcripts restore, over the corpus', () => {
  let server: TestServer;
  let sessions: ListedSession[];
  const out = mkdtempSync(path.join(tmpdir(), 'ct-restore-'));
  const corpusShas = new Set(
    (
      JSON.parse(readFileSync(path.join(corpusDir, 'manifest.json'), 'utf8')) as Array<{ sha256: string }>
    ).map((f) => f.sha256),
  );

  beforeAll(async () => {
    server = await startTestServer({ corpus: testEngine('sqlite') });
    sessions = (await getJson(server, '/api/sessions?limit=500')).body.sessions;
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(out, { recursive: true, force: true });
  });
  const restore = (args: string[]) =>
    runCli(['restore', ...args, '--webapi', server.url], { env: server.env });

  it('writes every session back byte for byte, in Claude Code’s layout', async () => {
    const withCwd = sessions.filter((s) => s.cwd !== null);
    const without = sessions.filter((s) => s.cwd === null);
    expect(withCwd.length).toBeGreaterThan(15);
    const r = await restore([...sessions.map((s) => s.id), '--to', out]);
    // Sessions whose lines never name a directory have no place; they are named, the rest written.
    expect(r.code).toBe(without.length ? 1 : 0);
    for (const s of without) expect(r.stderr).toContain(`${s.id}: its working directory is unknown`);
    const written = filesUnder(out);
    expect(written.length).toBe(withCwd.reduce((n, s) => n + s.files.length, 0));
    for (const s of withCwd) {
      const dir = path.join(out, encodeProjectDir(s.cwd!));
      const main = path.join(dir, `${s.id}.jsonl`);
      expect(existsSync(main), main).toBe(true);
      for (const f of s.files.filter((f) => f.name !== 'transcript.jsonl'))
        expect(existsSync(path.join(dir, s.id, f.name)), f.name).toBe(true);
    }
    // Every file is a corpus file, unchanged (the store keeps them byte for byte).
    for (const f of written) expect(corpusShas, f).toContain(sha256(f));
    expect(r.stdout).toMatch(
      new RegExp(`restored ${written.length} files \\(.+\\) of ${withCwd.length} sessions`),
    );
  });

  it('puts deleted files back, and leaves files already in place alone', async () => {
    const before = new Map(filesUnder(out).map((f) => [f, sha256(f)]));
    const gone = [...before.keys()].filter((_, i) => i % 2 === 0);
    for (const f of gone) rmSync(f);
    const ids = sessions.filter((s) => s.cwd !== null).map((s) => s.id);
    const r = await restore([...ids, '--to', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('already in place');
    expect(r.stdout).toMatch(new RegExp(`restored ${gone.length} files`));
    expect(new Map(filesUnder(out).map((f) => [f, sha256(f)]))).toEqual(before);
  });

  it('refuses to overwrite a different file, and keeps it as .bak with --force', async () => {
    const s = sessions.find((x) => x.cwd !== null && x.files.length === 1)!;
    const file = path.join(out, encodeProjectDir(s.cwd!), `${s.id}.jsonl`);
    const good = sha256(file);
    writeFileSync(file, '{"edited":"by hand"}\n');
    const refused = await restore([s.id, '--to', out]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${file} holds different bytes; --force replaces it`);
    expect(readFileSync(file, 'utf8')).toBe('{"edited":"by hand"}\n');

    const forced = await restore([s.id, '--to', out, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain('1 old file kept as .bak');
    expect(sha256(file)).toBe(good);
    expect(readFileSync(`${file}.bak`, 'utf8')).toBe('{"edited":"by hand"}\n');
  });

  it('--dry-run says what it would write and writes nothing', async () => {
    const s = sessions.find((x) => x.cwd !== null && x.files.length > 1)!;
    const target = mkdtempSync(path.join(tmpdir(), 'ct-restore-dry-'));
    const r = await restore([s.id.slice(0, 8), '--to', target, '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`write  ${path.join(target, encodeProjectDir(s.cwd!), `${s.id}.jsonl`)}`);
    expect(r.stdout).toContain(`dry run: ${s.files.length} files to write; nothing written`);
    expect(filesUnder(target)).toEqual([]);
    rmSync(target, { recursive: true });
  });

  it('restores what the list filters select', async () => {
    const s = sessions.find((x) => x.cwd !== null && x.files.length > 1)!;
    const target = mkdtempSync(path.join(tmpdir(), 'ct-restore-cwd-'));
    const r = await restore(['--cwd', s.cwd!, '--to', target]);
    expect(r.code, r.stderr).toBe(0);
    const n = sessions.filter((x) => x.cwd === s.cwd).reduce((k, x) => k + x.files.length, 0);
    expect(filesUnder(target).length).toBe(n);
    rmSync(target, { recursive: true });
  });

  it('refuses a Codex rollout, which has no place in Claude Code’s layout', async () => {
    const r0 = await runCli(['backfill', '--dir', path.join(corpusDir, 'codex'), '--webapi', server.url], {
      env: server.env,
    });
    expect(r0.code, r0.stderr).toBe(0);
    const codex = (await getJson(server, '/api/sessions?limit=500')).body.sessions.filter(
      (s: ListedSession) => !sessions.some((c) => c.id === s.id),
    );
    expect(codex.length).toBe(2);
    const target = mkdtempSync(path.join(tmpdir(), 'ct-restore-codex-'));
    const r = await restore([...codex.map((s: ListedSession) => s.id), '--to', target]);
    expect(r.code).toBe(1);
    for (const s of codex)
      expect(r.stderr).toContain(`${s.id}: a Codex CLI rollout; restore writes Claude Code's layout only`);
    expect(filesUnder(target)).toEqual([]);
    rmSync(target, { recursive: true });
  });

  it('says clearly what is wrong with its input', async () => {
    const none = await restore([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('restore needs session ids or a filter');
    const unknown = await restore(['ffffffff-0000', '--to', out]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no session matches "ffffffff-0000"');
  });
});

describe('transcripts restore, seen by the watcher', () => {
  const ID = '1af7fc5e-8455-4414-9ccd-011d40f70b2a';
  const source = path.join(claudeCorpusDir, 'd-kimuson__claude-code-viewer', `${ID}.jsonl`);
  const root = mkdtempSync(path.join(tmpdir(), 'ct-restore-watch-'));
  let server: TestServer | undefined;
  afterAll(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  async function waitFor(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check().catch(() => false))) {
      if (Date.now() > deadline)
        throw new Error(`timed out waiting; the server said:\n${server?.logs().slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  /** Every document's revision and every object's size: what "the store changed" would change. */
  const storeState = async () => ({
    docs: (await getJson(server!, '/api/store/docs?limit=10000')).body.rows.map(
      (r: { id: string; value: { rev: string } }) => [r.id, r.value.rev],
    ),
    objects: (await getJson(server!, '/api/store/objects?limit=1000')).body.objects.map(
      (o: { key: string; size: number }) => [o.key, o.size],
    ),
  });

  it('reads a restored unchanged session as nothing new, and clears its deletion mark', async () => {
    const cwd = JSON.parse(readFileSync(source, 'utf8').split('\n')[0]!).cwd as string;
    const projects = path.join(root, 'home', '.claude', 'projects');
    const file = path.join(projects, encodeProjectDir(cwd), `${ID}.jsonl`);
    mkdirSync(path.dirname(file), { recursive: true });
    copyFileSync(source, file);
    server = await startTestServer({ root });
    await waitFor(async () => /watch: recording changes/.test(server!.logs()));
    await waitFor(async () => (await getJson(server!, `/api/sessions/${ID}`)).status === 200);

    rmSync(file);
    await waitFor(async () => (await getJson(server!, `/api/sessions/${ID}`)).body.sourceDeleted !== null);
    const before = await storeState();

    const r = await runCli(['restore', ID, '--webapi', server.url], { env: server.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`${ID}: restored 1 file to ${file}`);
    expect(sha256(file)).toBe(sha256(source));
    // The watcher read it (the mark goes), and the store is as it was.
    await waitFor(async () => (await getJson(server!, `/api/sessions/${ID}`)).body.sourceDeleted === null);
    expect(await storeState()).toEqual(before);
  });
});
