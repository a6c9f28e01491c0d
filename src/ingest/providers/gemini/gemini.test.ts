/**
 * The Gemini CLI provider over its fixtures (test/fixtures/gemini/, see the README there): what
 * each format projects to, counted from the fixture's raw JSON here, not by the code under test.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../../../test/support/paths.js';
import type { ProjectedEntry } from '../../../core/documents.js';
import { classifyPath } from '../index.js';
import { gemini } from './index.js';

const fixtures = path.join(repoRoot, 'test', 'fixtures', 'gemini');
const LEGACY_DIR = path.join(
  fixtures,
  'json',
  '02226788d1ed76a8b8cbb0990426125cbb3b10fa2afcdb390d2aea3dc7708dff',
  'chats',
);
const LEGACY = path.join(LEGACY_DIR, 'session-2025-11-03T01-41-7a0c1e2b.json');
const JSONL = path.join(fixtures, 'jsonl', 'my-app', 'chats', 'session-2026-05-11T13-22-5f0c2d1e.jsonl');
const MAIN_ID = '5f0c2d1e-8a9b-4c7d-b6e5-0a1b2c3d4e5f';
const AGENT_ID = '9d8c7b6a-1111-4222-8333-944455556666';
const REAL = path.join(
  fixtures,
  'real',
  'BrianV1981__aim',
  'chats',
  'session-2026-03-26T04-33-84ae60e4.json',
);

type Json = Record<string, unknown>;
interface RawMessage {
  id: string;
  type: string;
  tokens?: { input: number; output: number; cached: number; thoughts?: number; tool?: number } | null;
  toolCalls?: Array<{ id: string; status: string }>;
}

function project(file: string, settled = true): ProjectedEntry[] {
  const entries = gemini.projectFile(readFileSync(file), { path: file, settled });
  expect(entries, file).not.toBeNull();
  return entries!.map((e) => e.entry);
}

/** Tokens as Gemini's fields say, summed over messages: cached is part of input, tool and thoughts are apart. */
function rawTokens(messages: RawMessage[]) {
  const t = { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 };
  for (const m of messages) {
    if (!m.tokens) continue;
    t.input += m.tokens.input - m.tokens.cached + (m.tokens.tool ?? 0);
    t.output += m.tokens.output + (m.tokens.thoughts ?? 0);
    t.cacheRead += m.tokens.cached;
  }
  return t;
}

function sumUsage(entries: ProjectedEntry[]) {
  const t = { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 };
  for (const e of entries)
    if (e.usage) for (const k of Object.keys(t) as Array<keyof typeof t>) t[k] += e.usage[k];
  return t;
}

/** One entry per message, one more for a gemini message whose tool calls ended. */
const expectedEntries = (messages: RawMessage[]) =>
  messages.reduce(
    (n, m) =>
      n +
      1 +
      (m.type === 'gemini' &&
      (m.toolCalls ?? []).some((c) => ['success', 'error', 'cancelled'].includes(c.status))
        ? 1
        : 0),
    0,
  );

describe('gemini: paths', () => {
  it('knows main files of both formats and subagent files, and nothing else of ~/.gemini/tmp', () => {
    expect(classifyPath(LEGACY)).toEqual({
      kind: 'main',
      sessionId: null,
      objectName: 'transcript.jsonl',
      agent: 'gemini',
      rank: 0,
    });
    expect(classifyPath(JSONL)).toMatchObject({ kind: 'main', sessionId: null, agent: 'gemini', rank: 1 });
    expect(classifyPath(`/h/.gemini/tmp/my-app/chats/${MAIN_ID}/${AGENT_ID}.jsonl`)).toEqual({
      kind: 'subagent',
      sessionId: MAIN_ID,
      objectName: `subagents/${AGENT_ID}.jsonl`,
      agent: 'gemini',
      rank: 1,
    });
    expect(classifyPath('/h/.gemini/tmp/my-app/logs.json')).toBeNull();
    expect(classifyPath('/h/.gemini/tmp/my-app/chats/notes.txt')).toBeNull();
  });

  it('reads the session id from the file, whose name holds only 8 characters of it', async () => {
    expect(await gemini.identify(LEGACY, classifyPath(LEGACY)!)).toEqual({
      sessionId: '7a0c1e2b-5d3f-4c1a-9e8b-2f4a6c8d0e1f',
      agent: 'gemini',
    });
    expect((await gemini.identify(JSONL, classifyPath(JSONL)!))?.sessionId).toBe(MAIN_ID);
  });

  it('takes the cwd from the .project_root Gemini CLI keeps beside the chats (none for hashed folders)', async () => {
    expect(await gemini.sessionMeta!(JSONL, classifyPath(JSONL)!)).toEqual({ cwd: '/home/dev/my-app' });
    expect(await gemini.sessionMeta!(LEGACY, classifyPath(LEGACY)!)).toEqual({});
  });

  it('looks under GEMINI_CLI_HOME, else the home', () => {
    expect(gemini.defaultRoots({ HOME: '/home/u' })).toEqual(['/home/u/.gemini/tmp']);
    expect(gemini.defaultRoots({ HOME: '/home/u', GEMINI_CLI_HOME: '/data/g' })).toEqual([
      '/data/g/.gemini/tmp',
    ]);
  });
});

describe('gemini: the JSON format (up to 0.37)', () => {
  const raw = JSON.parse(readFileSync(LEGACY, 'utf8')) as { messages: RawMessage[]; summary: string };
  const entries = project(LEGACY);

  it('projects each message, the tool results after their call, and the summary as its title', () => {
    expect(entries).toHaveLength(expectedEntries(raw.messages) + 1);
    expect(entries.map((e) => e.index)).toEqual(entries.map((_, i) => i));
    expect(entries.map((e) => e.kind)).toEqual([
      'user',
      'gemini',
      'gemini:tool_results',
      'gemini',
      'user',
      'gemini',
      'gemini:tool_results',
      'info',
      'user',
      'gemini',
      'gemini:tool_results',
      'warning',
      'user',
      'error',
      'gemini',
      'info',
      'ai-title',
    ]);
    expect(entries.at(-1)).toMatchObject({ role: 'other', text: raw.summary });
  });

  it("keeps each message's bytes: the raw range parses to that message", () => {
    const bytes = readFileSync(LEGACY);
    const ids = entries
      .filter((e) => e.kind !== 'ai-title')
      .map((e) => (JSON.parse(bytes.subarray(e.byteStart, e.byteEnd).toString('utf8')) as Json).id);
    expect(new Set(ids)).toEqual(new Set(raw.messages.map((m) => m.id)));
  });

  it("maps Gemini's own token fields, never more than once per message", () => {
    expect(sumUsage(entries)).toEqual(rawTokens(raw.messages));
    // The second message: 8756 prompt of which 2048 cached, 30 out + 177 thinking.
    expect(entries[1]!.usage).toEqual({ input: 6708, output: 207, cacheWrite: 0, cacheRead: 2048 });
  });

  it('reads tools, their errors and cancellations, thoughts, the typed prompt, images and long outputs', () => {
    const [prompt, call, results] = entries;
    expect(prompt!.text).toBe('Why does the login test fail? @src/auth.ts');
    expect(call!.thinking).toBe(
      'Reading the failing test\nI should look at the spec and run it before guessing.',
    );
    expect(call!.toolUses!.map((u) => u.name)).toEqual(['read_file', 'run_shell_command']);
    expect(results!.toolResults!.map((r) => [r.toolUseId, r.isError])).toEqual([
      ['read_file-1762134069400-a1b2c3', false],
      ['run_shell_command-1762134069401-d4e5f6', true],
    ]);
    expect(results!.toolResults![1]!.content).toContain('1 failing');
    const cancelled = entries[6]!.toolResults![0]!;
    expect(cancelled).toMatchObject({ isError: false, content: expect.stringContaining('Cancelled') });
    expect(entries[8]!.images).toEqual([{ mediaType: 'image/png', bytes: 70 }]);
    const long = entries[10]!;
    expect(long.truncated).toBe(true);
    expect(long.toolResults![0]!.content.length).toBeLessThan(40_000);
    expect(entries[13]).toMatchObject({ role: 'system', error: expect.stringContaining('429') });
    // The aborted turn: its text so far, no tokens.
    expect(entries[14]).toMatchObject({ role: 'assistant', text: "I'll commit the change with the message" });
    expect(entries[14]!.usage).toBeUndefined();
  });
});

describe('gemini: the JSONL format (since 0.38)', () => {
  const entries = project(JSONL);

  it('replays upserts, a rewind and unknown kinds into the final conversation', () => {
    expect(entries.map((e) => e.kind)).toEqual([
      'user',
      'gemini',
      'gemini:tool_results',
      'user:function_response',
      'gemini',
      'user',
      'gemini',
      'gemini:tool_results',
      'user:function_response',
      'gemini',
      'tool_group',
      'checkpoint',
      'ai-title',
    ]);
    // Written twice (without, then with tokens): one entry, the last state.
    const answer = entries[4]!;
    expect(answer.text).toMatch(/React front end\.$/);
    expect(answer.usage).toEqual({ input: 1172, output: 85, cacheWrite: 0, cacheRead: 12288 });
    // Rewound away: never an entry.
    expect(entries.some((e) => e.text === 'delete everything')).toBe(false);
    // A tool's answer sent back as a user turn is not a prompt.
    expect(entries[3]).toMatchObject({ role: 'user', isMeta: true });
    expect(entries[3]!.text).toBeUndefined();
    expect(entries.slice(10, 12).map((e) => e.role)).toEqual(['other', 'other']);
  });

  it('links the subagent a tool call ran', () => {
    expect(entries[7]!.toolResults).toEqual([
      expect.objectContaining({
        toolUseId: 'codebase_investigator_1778506000000_0',
        agentId: AGENT_ID,
        isError: false,
      }),
    ]);
  });

  it('takes a $set.messages checkpoint as the messages from then on', () => {
    const file = path.join(fixtures, 'checkpoint', 'p', 'chats', 'session-2026-06-01T10-00-d4000000.jsonl');
    const cp = project(file);
    expect(cp.map((e) => e.kind)).toEqual(['user', 'gemini', 'gemini:tool_results']);
    expect(cp[2]!.toolResults![0]!.content).toBe('<tool_output_masked>');
  });
});

describe('gemini: bad input', () => {
  it('waits for a JSON file caught half written, and keeps it as one malformed entry once it settles', () => {
    const file = path.join(fixtures, 'bad', 'p', 'chats', 'session-2025-11-03T01-41-0badf11e.json');
    expect(gemini.projectFile(readFileSync(file), { path: file, settled: false })).toBeNull();
    const [only, ...rest] = project(file);
    expect(rest).toEqual([]);
    expect(only).toMatchObject({ role: 'other', kind: 'malformed', malformed: true, byteStart: 0 });
    expect(only!.error).toMatch(/^not JSON/);
  });

  it('keeps a JSON file of the wrong type as a malformed entry that says so', () => {
    const file = path.join(fixtures, 'bad', 'q', 'chats', 'session-2025-11-03T01-41-0badf11f.json');
    expect(project(file)).toEqual([
      expect.objectContaining({ kind: 'malformed', malformed: true, error: 'not a JSON object: an array' }),
    ]);
  });

  it('keeps a bad JSONL line, and the unfinished last one only once the file has settled', () => {
    const file = path.join(fixtures, 'bad', 'r', 'chats', 'session-2026-05-11T13-22-0badf120.jsonl');
    expect(project(file, false).map((e) => e.kind)).toEqual(['user', 'malformed']);
    expect(project(file, true).map((e) => e.kind)).toEqual(['user', 'malformed', 'malformed']);
  });
});

describe('gemini: a real session file (BrianV1981/aim)', () => {
  const raw = JSON.parse(readFileSync(REAL, 'utf8')) as { messages: RawMessage[] };
  const entries = project(REAL);

  it('projects every message, tool and token of it', () => {
    expect(entries).toHaveLength(expectedEntries(raw.messages));
    expect(sumUsage(entries)).toEqual(rawTokens(raw.messages));
    const calls = raw.messages.flatMap((m) => m.toolCalls ?? []);
    expect(entries.flatMap((e) => e.toolUses ?? [])).toHaveLength(calls.length);
    const results = entries.flatMap((e) => e.toolResults ?? []);
    expect(results.filter((r) => r.isError)).toHaveLength(calls.filter((c) => c.status === 'error').length);
    expect(entries.filter((e) => e.role === 'user')).toHaveLength(
      raw.messages.filter((m) => m.type === 'user').length,
    );
  });
});
