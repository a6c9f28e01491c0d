/**
 * OpenCode projection over the fixtures in test/fixtures/opencode (the file layout, as OpenCode
 * wrote it before its database; the database layout is read in
 * src/ingest/providers/opencode/read-db.test.ts): entry counts, roles, tokens, tools, subagents,
 * titles, and bad input.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectedEntrySchema, summaryDocSchema, type ProjectedEntry } from '../documents.js';
import { FIELD_CAP } from './caps.js';
import { projectLine } from './project-entry.js';
import { createAccumulator } from './session-accumulator.js';
import { openCodeUsage } from './opencode-record.js';
import { emptyOpenCodeCursor, openCodeLines, type OpenCodeSession } from './opencode-session.js';
import { listFileSessions, readFileSession } from '../../ingest/providers/opencode/read-files.js';

const STORAGE = path.resolve('test/fixtures/opencode/storage');
const ROOT = 'ses_52a0d1b3effeQ7nV2kLx9TfWcA';
const CHILD = 'ses_52a0c9e21ffeR4mZ8pYq1HsDuB';

async function session(id: string): Promise<OpenCodeSession> {
  const ref = (await listFileSessions(STORAGE)).find((r) => r.id === id)!;
  return readFileSession(STORAGE, ref);
}

function project(lines: string[]): Array<{ entry: ProjectedEntry; record: Record<string, unknown> | null }> {
  let at = 0;
  return lines.map((line, index) => {
    const bytes = Buffer.from(line);
    const out = projectLine(bytes, { index, byteStart: at, byteEnd: at + bytes.length });
    at += bytes.length + 1;
    return out;
  });
}

async function rootAndChild() {
  const root = openCodeLines(await session(ROOT), emptyOpenCodeCursor()).lines;
  const child = openCodeLines(await session(CHILD), emptyOpenCodeCursor(), { agentId: CHILD }).lines;
  return { root: project(root), child: project(child) };
}

describe('OpenCode projection over the fixtures', () => {
  it('lists both sessions and projects every line to a valid entry', async () => {
    expect((await listFileSessions(STORAGE)).map((r) => r.id).sort()).toEqual([CHILD, ROOT]);
    const { root, child } = await rootAndChild();
    // 1 session line, 8 messages, 36 parts.
    expect(root).toHaveLength(45);
    expect(child).toHaveLength(1 + 2 + 5);
    for (const { entry } of [...root, ...child]) expect(projectedEntrySchema.parse(entry)).toEqual(entry);
  });

  it('maps each part type onto roles, text, thinking and tools', async () => {
    const { root } = await rootAndChild();
    const kinds = root.map((r) => r.entry.kind);
    for (const kind of [
      'opencode.session',
      'opencode.message:user',
      'opencode.message:assistant',
      'opencode.part:text',
      'opencode.part:reasoning',
      'opencode.part:file',
      'opencode.part:patch',
      'opencode.part:step-start',
      'opencode.part:step-finish',
      'opencode.part:tool:completed',
      'opencode.part:tool:error',
      'opencode.part:tool:running',
      'opencode.part:tool:pending',
      'opencode.part:compaction',
      'opencode.part:agent',
      'opencode.part:subtask',
      'opencode.part:retry',
      'opencode.part:hologram',
    ])
      expect(kinds).toContain(kind);
    const by = (kind: string) => root.filter((r) => r.entry.kind === kind).map((r) => r.entry);

    const prompt = by('opencode.part:text').find((e) => e.role === 'user' && !e.isMeta)!;
    expect(prompt.text).toMatch(/^The checkout test fails/);
    expect(prompt.timestamp).toBe('2025-11-24T16:00:01.000Z');
    expect(by('opencode.part:text').filter((e) => e.isMeta)).toHaveLength(1); // the synthetic read
    expect(by('opencode.part:reasoning')[0]).toMatchObject({ role: 'assistant', model: 'claude-sonnet-4-5' });
    expect(by('opencode.part:reasoning')[0]!.thinking).toMatch(/rounded twice/);

    const [image] = by('opencode.part:file').filter((e) => e.images);
    expect(image!.images).toEqual([{ mediaType: 'image/png', bytes: 1024 }]);
    expect(by('opencode.part:file')[0]!.text).toBe('[file: src/checkout.ts (text/plain)]');

    const bash = by('opencode.part:tool:completed')[0]!;
    expect(bash.toolUses).toEqual([
      {
        id: 'toolu_01Bash',
        name: 'bash',
        input: { command: 'npm test -- checkout', description: 'Run the checkout test' },
      },
    ]);
    expect(bash.toolResults).toEqual([
      { toolUseId: 'toolu_01Bash', content: expect.stringMatching(/^FAIL/), isError: false },
    ]);
    expect(by('opencode.part:tool:error')[0]!.toolResults![0]).toMatchObject({
      isError: true,
      content: 'Error: oldString not found in content',
    });
    // A running or pending call has no result: the turn was aborted before it came back.
    for (const e of [...by('opencode.part:tool:running'), ...by('opencode.part:tool:pending')]) {
      expect(e.toolUses).toHaveLength(1);
      expect(e.toolResults).toBeUndefined();
    }
    // The very long read output is capped; the raw line keeps all of it.
    const read = root.find((r) => r.entry.toolUses?.[0]?.name === 'read')!;
    expect(read.entry.truncated).toBe(true);
    expect(read.entry.toolResults![0]!.content).toHaveLength(FIELD_CAP);
    // The task call names its child session, as a Claude Code Task result names its subagent.
    const task = root.find((r) => r.entry.toolUses?.[0]?.name === 'task')!.entry;
    expect(task.toolResults![0]!.agentId).toBe(CHILD);

    const aborted = by('opencode.message:assistant').find((e) => e.error)!;
    expect(aborted).toMatchObject({
      role: 'system',
      error: 'MessageAbortedError: The operation was aborted.',
    });
    expect(by('opencode.part:retry')[0]).toMatchObject({
      role: 'system',
      error: 'APIError: Resource exhausted',
    });
    expect(by('opencode.part:hologram')[0]).toMatchObject({ role: 'other' });
    expect(by('opencode.part:patch')[0]!.text).toBe('Changed 1 file: /home/dev/shop/src/checkout.ts');
    expect(by('opencode.part:text').find((e) => e.isCompactSummary)!.text).toMatch(/^Summary:/);
  });

  it('folds into a summary: title, cwd, models, tokens, tools, subagent', async () => {
    const { root, child } = await rootAndChild();
    const acc = createAccumulator({
      sessionId: ROOT,
      hostname: 'h',
      source: 'backfill',
      provenance: 'backfilled',
    });
    for (const r of root) acc.add(r.entry, r.record, 'transcript.jsonl');
    for (const r of child) acc.add(r.entry, r.record, `subagents/agent-${CHILD}.jsonl`);
    acc.setFile('transcript.jsonl', 1, root.length);
    acc.setFile(`subagents/agent-${CHILD}.jsonl`, 1, child.length, CHILD);
    const s = summaryDocSchema.parse({ ...acc.summary() });
    expect(s.title).toBe('Fix the failing checkout test');
    expect(s.titleSource).toBe('ai');
    expect(s.cwd).toBe('/home/dev/shop');
    expect(s.project).toBe('shop');
    expect(s.version).toBe('1.0.85');
    expect(s.models).toEqual(['claude-sonnet-4-5', 'gemini-2.5-pro', 'claude-haiku-4-5']);
    // Step-finish tokens, summed over every step (OpenCode keeps only the last step's on the
    // message); the aborted message had no step, so its (zero) message tokens count.
    expect(s.tokens).toEqual({
      input: 4800 + 410 + 5210 + 22000 + 3000 + 900,
      output: 120 + 140 + 380 + 600 + (200 + 150) + 60,
      cacheRead: 11200 + 20480 + 1000 + 3000,
      cacheWrite: 9000 + 310,
    });
    expect(s.counts.prompts).toBe(3);
    expect(s.counts.assistantMessages).toBe(4 + 1);
    expect(s.counts.toolCalls).toBe(8);
    expect(s.counts.toolErrors).toBe(1);
    expect(s.counts.compactions).toBe(1);
    expect(s.counts.images).toBe(1);
    expect(s.toolCallsByName).toEqual({ bash: 3, edit: 2, read: 1, task: 1, grep: 1 });
    expect(s.subagents).toBe(1);
    expect(s.counts.sidechainEntries).toBe(child.length);
    expect(s.firstActivity).toBe('2025-11-24T16:00:00.000Z');
  });

  it('maps OpenCode tokens: reasoning is output, input excludes the cache', () => {
    expect(openCodeUsage({ input: 10, output: 5, reasoning: 40, cache: { read: 7, write: 3 } })).toEqual({
      input: 10,
      output: 45,
      cacheRead: 7,
      cacheWrite: 3,
    });
    expect(openCodeUsage({ input: -1, output: 'x' })).toEqual({
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
    });
    expect(openCodeUsage('nope')).toBeUndefined();
  });
});

describe('OpenCode bad input', () => {
  const line = (o: unknown) => project([JSON.stringify(o)])[0]!.entry;

  it('keeps an unknown part type, a part of the wrong shape and a line without its object', () => {
    expect(
      line({ type: 'opencode.part', message: { role: 'assistant' }, part: { type: 'laser', id: 'p' } }),
    ).toMatchObject({
      role: 'other',
      kind: 'opencode.part:laser',
    });
    const wrong = line({
      type: 'opencode.part',
      message: { role: 'assistant' },
      part: { type: 'tool', tool: 7, callID: ['x'], state: 'done', time: 'soon' },
    });
    expect(wrong).toMatchObject({ role: 'assistant', kind: 'opencode.part:tool:unknown' });
    expect(wrong.toolUses).toEqual([{ id: '', name: 'unknown', input: {} }]);
    expect(wrong.timestamp).toBeUndefined();
    expect(line({ type: 'opencode.message', message: 'hello' })).toMatchObject({
      role: 'other',
      kind: 'opencode.message:invalid',
      error: 'opencode.message line without its object',
    });
    expect(line({ type: 'opencode.session', session: { title: 42, time: { created: 'x' } } })).toMatchObject({
      kind: 'opencode.session',
    });
  });

  it('does not take the placeholder title for a real one', () => {
    const e = line({
      type: 'opencode.session',
      session: { title: 'New session - 2025-11-24T16:00:00.000Z' },
    });
    expect(e.text).toBeUndefined();
  });
});
