import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeCorpusDir, corpusDir } from '../../test/support/paths.js';
import { scanTree, sessionIdOf, type SkippedPath } from './scan-tree.js';
import { classifyTranscriptPath } from './transcript-path.js';

const of = (file: string) => sessionIdOf(file, classifyTranscriptPath(file)!);

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'ct-scan-'));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

const A = '967e501d-aa48-4eab-a21f-b17058bd78f0';
const B = '36d9e1bc-63bf-4e97-8a3e-2b20ba8583f2';
const line = (rec: object) => JSON.stringify(rec) + '\n';

describe('sessionIdOf', () => {
  it('takes the id of a file named by it without reading the file', async () => {
    const file = path.join(tmp, 'no-such-dir', `${B}.jsonl`);
    expect(await of(file)).toBe(B);
  });

  it("reads the corpus's renamed transcripts as the sessions their lines name", async () => {
    // claude-history's export: session.jsonl beside agents/agent-*.jsonl of the same session.
    const dir = path.join(claudeCorpusDir, 'randlee__claude-history', 'claude-history-simple');
    expect(await of(path.join(dir, 'session.jsonl'))).toBe(A);
    expect(await of(path.join(dir, 'agents', 'agent-aae161c.jsonl'))).toBe(A);
    expect(
      await of(path.join(claudeCorpusDir, 'yoavf__ai-sessions', 'claude-code-pomodoro-timer.jsonl')),
    ).toBe(B);
    // A Codex rollout not named rollout-*-<uuid>: its session_meta, not its stem.
    expect(await of(path.join(corpusDir, 'codex', 'jazzyalex__agent-sessions', 'small.jsonl'))).toBe(
      '019fc8be-3658-7ca3-9e29-000000000000',
    );
  });

  it("keeps the stem when the lines name no uuid (fixtures' made-up ids)", async () => {
    expect(await of(path.join(claudeCorpusDir, 'jazzyalex__agent-sessions', 'small.jsonl'))).toBe('small');
    expect(await of(path.join(claudeCorpusDir, 'daaain__claude-code-log', 'edge_cases.jsonl'))).toBe(
      'edge_cases',
    );
    expect(await of(path.join(claudeCorpusDir, 'tombelieber__claude-view', 'malformed.jsonl'))).toBe(
      'malformed',
    );
    const empty = path.join(tmp, 'empty.jsonl');
    await writeFile(empty, '');
    expect(await of(empty)).toBe('empty');
  });

  it('names the session writing the file, not one whose lines were copied in first', async () => {
    const file = path.join(tmp, 'resumed.jsonl');
    await writeFile(
      file,
      line({ type: 'user', sessionId: A }) +
        line({ type: 'assistant', sessionId: A }) +
        line({ type: 'user', sessionId: B }),
    );
    expect(await of(file)).toBe(B);
  });

  it('reads the tail of a large file, and the head when its last lines are too long to read', async () => {
    const pad = 'x'.repeat(100_000);
    const big = path.join(tmp, 'big.jsonl');
    const lines = [line({ type: 'user', sessionId: A, pad })];
    for (let i = 0; i < 5; i++) lines.push(line({ type: 'assistant', sessionId: B, pad }));
    await writeFile(big, lines.join(''));
    expect(await of(big)).toBe(B);

    // The last line alone is longer than what is read of the tail: the head still names A.
    const long = path.join(tmp, 'long-tail.jsonl');
    await writeFile(
      long,
      line({ type: 'user', sessionId: A }) +
        line({ type: 'assistant', sessionId: B, pad: 'y'.repeat(600_000) }),
    );
    expect(await of(long)).toBe(A);
  });

  it("gives an older subagent file its parent's session, and null when its lines name none", async () => {
    const agent = path.join(tmp, 'agent-1.jsonl');
    await writeFile(agent, '{"type":"user","sessionId":"parent-1"}\n');
    expect(await of(agent)).toBe('parent-1');
    const orphan = path.join(tmp, 'agent-2.jsonl');
    await writeFile(orphan, 'not json\n{"type":"user"}\n');
    expect(await of(orphan)).toBeNull();
  });
});

describe('scanTree: what it cannot read', () => {
  it('names a looping link and a folder that is not one, keeps the rest, and says nothing of a dangling link', async () => {
    const root = await mkdtemp(path.join(tmp, 'tree-'));
    const project = path.join(root, 'p');
    await mkdir(project);
    await writeFile(path.join(project, `${A}.jsonl`), line({ sessionId: A }));
    await symlink('loop.jsonl', path.join(project, 'loop.jsonl'));
    await symlink('gone.jsonl', path.join(project, 'dangling.jsonl'));
    const skipped: SkippedPath[] = [];
    const files = await scanTree(root, undefined, skipped);
    expect(files.map((f) => path.basename(f.path))).toEqual([`${A}.jsonl`]);
    expect(skipped).toEqual([
      { path: path.join(project, 'loop.jsonl'), reason: 'ELOOP: a symbolic link that leads back to itself' },
    ]);
    // A root that is a file is unreadable as a folder.
    const notDir: SkippedPath[] = [];
    await scanTree(path.join(project, `${A}.jsonl`), undefined, notDir);
    expect(notDir).toEqual([{ path: path.join(project, `${A}.jsonl`), reason: 'ENOTDIR: not a directory' }]);
  });

  // Mode 000 does not stop root; test/cli/unreadable-scan.test.ts runs the CLI as `nobody` for that.
  it.skipIf(process.getuid?.() === 0)('names a folder and a file it may not read (not as root)', async () => {
    const root = await mkdtemp(path.join(tmp, 'tree-'));
    const closed = path.join(root, 'closed');
    await mkdir(closed);
    const open = path.join(root, 'open');
    await mkdir(open);
    const file = path.join(open, `${B}.jsonl`);
    await writeFile(file, line({ sessionId: B }));
    await chmod(closed, 0o000);
    await chmod(file, 0o000);
    try {
      const skipped: SkippedPath[] = [];
      expect(await scanTree(root, undefined, skipped)).toEqual([]);
      expect(skipped).toEqual([
        { path: closed, reason: 'EACCES: permission denied' },
        { path: file, reason: 'EACCES: permission denied' },
      ]);
    } finally {
      await chmod(closed, 0o755);
    }
  });
});
