/**
 * `transcripts backfill` against a real server: loads the corpus through the API, is incremental
 * (a second run writes nothing), dry runs write nothing, failed files are listed with exit 1,
 * plain progress lines on a pipe, and clear errors for a bad --dir or an unreachable API.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillCorpus, getJson, runCli, startTestServer, type TestServer } from '../support/api-server.js';
import { claudeCorpusDir, corpusDir, repoRoot } from '../support/paths.js';
import { databaseFromFiles } from '../support/opencode-db.js';
import { RATE_LIMIT } from '../support/corpus-sessions.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.stop();
});

const writtenOf = (out: string) => Number(/(\d+) documents written/.exec(out)?.[1] ?? NaN);

describe('transcripts backfill', () => {
  it('dry run reports what it would do and writes nothing', async () => {
    const r = await runCli(['backfill', '--dry-run', '--dir', claudeCorpusDir, '--webapi', server.url], {
      env: server.env,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /dry run: \d+ files, \d+ with new data in \d+ sessions, [\d.]+ MB to read; nothing written/,
    );
    expect((await getJson(server, '/api/sessions?limit=0')).body.total).toBe(0);
  });

  it('loads the corpus, with plain progress lines on a pipe', async () => {
    const r = await backfillCorpus(server);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/backfill: \d+\/\d+ files, [\d.]+\/[\d.]+ MB/);
    expect(writtenOf(r.stdout)).toBeGreaterThan(100);
    const { body } = await getJson(server, '/api/sessions?limit=0');
    expect(body.total).toBeGreaterThan(20);
  });

  it('writes nothing the second time', async () => {
    const before = (await getJson(server, '/api/health')).body.counts;
    const r = await backfillCorpus(server);
    expect(r.code, r.stderr).toBe(0);
    expect(writtenOf(r.stdout)).toBe(0);
    expect((await getJson(server, '/api/health')).body.counts).toEqual(before);
  });

  it('ingests only what was appended to a file', async () => {
    const tree = mkdtempSync(path.join(tmpdir(), 'ct-grow-'));
    mkdirSync(path.join(tree, 'proj'));
    const file = path.join(tree, 'proj', 'grow-session.jsonl');
    const line = (i: number) =>
      JSON.stringify({
        type: 'user',
        sessionId: 'grow-session',
        uuid: `u${i}`,
        timestamp: `2025-07-01T10:0${i}:00.000Z`,
        message: { role: 'user', content: `prompt number ${i}` },
      });
    writeFileSync(file, `${line(0)}\n`);
    const first = await runCli(['backfill', '--dir', tree, '--webapi', server.url], { env: server.env });
    expect(first.code, first.stderr).toBe(0);
    writeFileSync(file, `${line(0)}\n${line(1)}\n`);
    const second = await runCli(['backfill', '--dir', tree, '--webapi', server.url], { env: server.env });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/\(1 with new data\)/);
    const t = await getJson(server, '/api/sessions/grow-session/transcript');
    expect(t.body.total).toBe(2);
    const raw = await fetch(`${server.url}/api/store/objects/grow-session/transcript.jsonl`);
    expect(await raw.text()).toBe(`${line(0)}\n${line(1)}\n`);
  });

  it('reads a Codex sessions tree: the session by its uuid, its prompt, answers and cwd', async () => {
    const id = '019ce50a-d285-7a52-b98a-6a3a66a48547';
    const name = `rollout-2026-03-13T10-33-37-${id}.jsonl`;
    const source = path.join(corpusDir, 'codex', 'aaaAlexanderaaa__cchistory', name);
    const tree = mkdtempSync(path.join(tmpdir(), 'ct-codex-'));
    mkdirSync(path.join(tree, '2026', '03', '13'), { recursive: true });
    cpSync(source, path.join(tree, '2026', '03', '13', name));
    const r = await runCli(['backfill', '--dir', tree, '--webapi', server.url], { env: server.env });
    expect(r.code, r.stderr).toBe(0);

    const session = (await getJson(server, `/api/sessions/${id}`)).body;
    expect(session).toMatchObject({
      id,
      cwd: '/Users/mock_user/workspace/history-lab',
      project: 'history-lab',
      models: ['gpt-5.4'],
      gitBranch: 'master',
      counts: { prompts: 1 },
    });
    expect(session.title).toMatch(/^为什么会有一些candidate和unlink/);
    const turns = (await getJson(server, `/api/sessions/${id}/turns`)).body;
    expect(turns.turns.map((t: { role: string }) => t.role)).toEqual([
      'user',
      'assistant',
      'assistant',
      'assistant',
    ]);
    const hits = (await getJson(server, `/api/search?q=linker.ts`)).body;
    expect(hits.hits.map((h: { sessionId: string; role: string }) => [h.sessionId, h.role])).toContainEqual([
      id,
      'assistant',
    ]);
    const raw = await fetch(`${server.url}/api/store/objects/${id}/transcript.jsonl`);
    expect(Buffer.from(await raw.arrayBuffer()).equals(readFileSync(source))).toBe(true);
  });

  it("reads OpenCode's data folder by default (XDG_DATA_HOME), and its database with --dir", async () => {
    const id = 'ses_52a0d1b3effeQ7nV2kLx9TfWcA';
    const root = mkdtempSync(path.join(tmpdir(), 'ct-opencode-'));
    const data = path.join(root, 'xdg', 'opencode');
    cpSync(path.join(repoRoot, 'test', 'fixtures', 'opencode', 'storage'), path.join(data, 'storage'), {
      recursive: true,
    });
    // A fresh home: OpenCode's is the only agent folder there is.
    const env = { ...server.env, HOME: path.join(root, 'home'), XDG_DATA_HOME: path.join(root, 'xdg') };
    const r = await runCli(['backfill', '--webapi', server.url], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/, 1 sessions,/);
    const session = (await getJson(server, `/api/sessions/${id}`)).body;
    expect(session).toMatchObject({ agent: 'opencode', subagents: 1, counts: { prompts: 3, toolCalls: 8 } });
    const listed = (await getJson(server, '/api/sessions?agent=opencode')).body;
    expect(listed.sessions.map((x: { id: string }) => x.id)).toEqual([id]);
    const again = await runCli(['backfill', '--webapi', server.url], { env });
    expect(writtenOf(again.stdout)).toBe(0);

    const dbDir = path.join(root, 'db');
    mkdirSync(dbDir);
    await databaseFromFiles(path.join(data, 'storage'), path.join(dbDir, 'opencode.db'));
    const db = await runCli(['backfill', '--dir', dbDir, '--webapi', server.url], { env });
    expect(db.code, db.stderr).toBe(0);
    expect((await getJson(server, `/api/sessions/${id}`)).body).toMatchObject({
      agent: 'opencode',
      counts: { prompts: 3, toolCalls: 8 },
    });
  });

  it('lists the files that failed and why, and exits 1', async () => {
    const tree = mkdtempSync(path.join(tmpdir(), 'ct-fail-'));
    cpSync(
      path.join(claudeCorpusDir, 'slopus__happy', 'rate-limit.jsonl'),
      path.join(tree, 'proj', 'rate-limit.jsonl'),
      { recursive: true },
    );
    // A subagent file that names no parent session cannot be attached to one.
    writeFileSync(
      path.join(tree, 'proj', 'agent-orphan.jsonl'),
      '{"type":"user","message":{"role":"user","content":"hi"}}\n',
    );
    const r = await runCli(['backfill', '--dir', tree, '--webapi', server.url], { env: server.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/1 file\(s\) failed:/);
    expect(r.stderr).toContain('agent-orphan.jsonl');
    // The good file went in regardless.
    expect((await getJson(server, `/api/sessions/${RATE_LIMIT}`)).status).toBe(200);
  });

  it('is a usage error (2) for a missing --dir or an empty --host', async () => {
    const r = await runCli(['backfill', '--dir', '/no/such/dir', '--webapi', server.url], {
      env: server.env,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--dir');
    const h = await runCli(['backfill', '--host', ' ', '--dir', claudeCorpusDir, '--webapi', server.url], {
      env: server.env,
    });
    expect(h.code).toBe(2);
    const junk = await runCli(['backfill', '--webapi', 'ftp://x', '--dir', claudeCorpusDir], {
      env: server.env,
    });
    expect(junk.code).toBe(2);
    expect(junk.stderr).toContain('--webapi');
  });

  it('says which URL it tried, and how it chose it, when nothing answers', async () => {
    const dead = 'http://127.0.0.1:9';
    const r = await runCli(['backfill', '--dir', claudeCorpusDir, '--webapi', dead], { env: server.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(dead);
    expect(r.stderr).toContain('--webapi');
    const viaEnv = await runCli(['backfill', '--dir', claudeCorpusDir], {
      env: { ...server.env, WEBAPI_PORT: '9' },
    });
    expect(viaEnv.code).toBe(1);
    expect(viaEnv.stderr).toContain('WEBAPI_PORT=9');
  });
});
