/**
 * Codex rollouts: each kind of line as the readers need it, and the rollouts of the shared corpus
 * (`../shared/corpus/codex`) through the same projection and rollup as a Claude Code transcript,
 * checked against what a plain reading of their JSON says.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { summaryDocSchema } from '../documents.js';
import { projectLine } from './project-entry.js';
import { createAccumulator } from './session-accumulator.js';
import { turnOf } from './turns.js';

type Json = Record<string, unknown>;
const at = { index: 0, byteStart: 0, byteEnd: 1 };
const project = (record: Json) => projectLine(Buffer.from(JSON.stringify(record)), at).entry;
const item = (payload: Json) => ({ timestamp: '2026-03-13T02:44:07.241Z', type: 'response_item', payload });
const event = (payload: Json) => ({ timestamp: '2026-03-13T02:44:07.241Z', type: 'event_msg', payload });

describe('projecting Codex rollout lines', () => {
  it('reads messages: the prompt, the answer, and the context Codex writes itself', () => {
    const prompt = project(
      item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'List the files' }] }),
    );
    expect(prompt).toMatchObject({ role: 'user', kind: 'response_item:message', text: 'List the files' });
    expect(prompt.timestamp).toBe('2026-03-13T02:44:07.241Z');
    expect(turnOf(prompt)).toEqual({ role: 'user', text: 'List the files' });

    const answer = project(
      item({
        type: 'message',
        role: 'assistant',
        content: [
          { type: 'output_text', text: 'Found 2 files.' },
          { type: 'input_image', image_url: null },
        ],
      }),
    );
    expect(answer).toMatchObject({
      role: 'assistant',
      text: 'Found 2 files.',
      images: [{ mediaType: 'unknown', bytes: 0 }],
    });
    expect(turnOf(answer)).toEqual({ role: 'assistant', text: 'Found 2 files.' });

    const context = project(
      item({
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: '# AGENTS.md instructions for /w\n\n<INSTRUCTIONS>…' },
          { type: 'input_text', text: '<environment_context>\n  <cwd>/w</cwd>\n</environment_context>' },
        ],
      }),
    );
    expect(context).toMatchObject({ role: 'user', isMeta: true });
    expect(turnOf(context)).toBeNull();

    const developer = project(
      item({
        type: 'message',
        role: 'developer',
        content: [{ type: 'input_text', text: '<permissions instructions>' }],
      }),
    );
    expect(developer).toMatchObject({ role: 'system', isMeta: true, text: '<permissions instructions>' });
  });

  it('reads tool calls and their outputs, paired by call id', () => {
    const call = project(
      item({ type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: 'c1' }),
    );
    expect(call).toMatchObject({
      role: 'assistant',
      kind: 'response_item:function_call',
      toolUses: [{ id: 'c1', name: 'shell', input: { command: ['ls'] } }],
    });
    // Older versions: the output is JSON text with the exit code.
    const failed = project(
      item({
        type: 'function_call_output',
        call_id: 'c1',
        output: '{"output":"ls: cannot access","metadata":{"exit_code":2}}',
      }),
    );
    expect(failed).toMatchObject({
      role: 'tool_result',
      toolResults: [{ toolUseId: 'c1', content: 'ls: cannot access', isError: true }],
    });
    const blocks = project(
      item({
        type: 'custom_tool_call_output',
        call_id: 'c2',
        output: [{ type: 'input_text', text: 'a.txt\n' }],
      }),
    );
    expect(blocks.toolResults).toEqual([{ toolUseId: 'c2', content: 'a.txt\n', isError: false }]);
    const custom = project(
      item({ type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin Patch', call_id: 'c3' }),
    );
    expect(custom.toolUses).toEqual([{ id: 'c3', name: 'apply_patch', input: '*** Begin Patch' }]);
  });

  it('keeps reasoning as thinking, and says when it is encrypted', () => {
    const summary = project(
      item({ type: 'reasoning', summary: [{ type: 'summary_text', text: 'Look first' }] }),
    );
    expect(summary).toMatchObject({ role: 'assistant', thinking: 'Look first' });
    const encrypted = project(
      item({ type: 'reasoning', summary: [], content: null, encrypted_content: 'gAAA' }),
    );
    expect(encrypted.thinking).toBe('[encrypted reasoning]');
  });

  it('leaves the events that repeat a message without text, so nothing counts or matches twice', () => {
    for (const type of ['user_message', 'agent_message', 'agent_reasoning']) {
      const e = project(event({ type, message: 'List the files', text: 'x' }));
      expect(e).toMatchObject({ role: 'other', kind: `event_msg:${type}` });
      expect(e.text).toBeUndefined();
    }
  });

  it('reads usage, errors, the model and compactions', () => {
    const info = {
      total_token_usage: { total_tokens: 16422 },
      last_token_usage: { input_tokens: 16341, cached_input_tokens: 3584, output_tokens: 81 },
    };
    expect(project(event({ type: 'token_count', info }))).toMatchObject({
      role: 'other',
      usage: { input: 12757, output: 81, cacheWrite: 0, cacheRead: 3584 },
      messageId: 'codex-tokens:16422',
    });
    expect(project(event({ type: 'token_count', info: null })).usage).toBeUndefined();
    expect(project(event({ type: 'error', message: 'stream disconnected' }))).toMatchObject({
      role: 'system',
      text: 'error: stream disconnected',
      error: 'stream disconnected',
    });
    expect(project({ type: 'turn_context', payload: { model: 'gpt-5.4', cwd: '/w' } }).model).toBe('gpt-5.4');
    expect(project({ type: 'compacted', payload: { message: 'Summary so far' } })).toMatchObject({
      role: 'system',
      isCompactSummary: true,
      text: 'Summary so far',
    });
  });

  it('takes odd values without throwing, and leaves Claude Code lines alone', () => {
    expect(project(item({ type: 'message', role: 'user', content: 7 }))).toMatchObject({ role: 'user' });
    expect(project(item({ type: 'function_call', name: 3, arguments: 'not json' })).toolUses).toEqual([
      { id: '', name: '', input: 'not json' },
    ]);
    expect(project(item({ type: 'something_new' }))).toMatchObject({
      role: 'other',
      kind: 'response_item:something_new',
    });
    // A Claude Code line is never read as Codex: it has no `payload` object.
    expect(project({ type: 'user', message: { role: 'user', content: 'hi' } })).toMatchObject({
      role: 'user',
      text: 'hi',
    });
  });
});

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const codexRoot = path.join(path.resolve(repoRoot, '../shared/corpus'), 'codex');
const rollouts = existsSync(codexRoot)
  ? readdirSync(codexRoot, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.jsonl'))
      .sort()
  : [];
if (rollouts.length === 0) console.log(`Codex corpus tests skipped: no .jsonl files under ${codexRoot}`);

const TOOL_CALLS = new Set([
  'function_call',
  'custom_tool_call',
  'local_shell_call',
  'web_search_call',
  'tool_search_call',
  'image_generation_call',
]);
const CONTEXT =
  /^(# AGENTS\.md instructions|<environment_context>|<user_instructions>|<user_shell_command>|<turn_aborted>)/;

describe.skipIf(rollouts.length === 0)('corpus: every Codex rollout', () => {
  it.each(rollouts)('%s', (file) => {
    const data = readFileSync(path.join(codexRoot, file));
    const acc = createAccumulator({
      sessionId: 'codex',
      hostname: 'h',
      source: 'backfill',
      provenance: 'backfilled',
    });
    const records: Json[] = [];
    let offset = 0;
    data
      .toString('latin1')
      .split('\n')
      .forEach((piece, index) => {
        const bytes = data.subarray(offset, offset + piece.length);
        offset += piece.length + 1;
        if (piece === '') return;
        const { entry, record } = projectLine(bytes, { index, byteStart: 0, byteEnd: bytes.length });
        expect(entry.malformed).toBeUndefined();
        records.push(record!);
        acc.add(entry, record, 'transcript.jsonl');
      });
    const summary = summaryDocSchema.omit({ _rev: true }).parse(acc.summary());

    // What a plain reading of the JSON says.
    const payloads = records.map((r) => r.payload as Json);
    const texts = (p: Json) =>
      Array.isArray(p.content)
        ? (p.content as Json[]).map((c) => c.text).filter((t) => typeof t === 'string')
        : [];
    const prompts = payloads.filter(
      (p, i) =>
        records[i]!.type === 'response_item' &&
        p.type === 'message' &&
        p.role === 'user' &&
        !texts(p).every((t) => CONTEXT.test(t as string)),
    );
    const toolCalls = payloads.filter(
      (p, i) => records[i]!.type === 'response_item' && TOOL_CALLS.has(p.type as string),
    );
    const models = new Set(
      payloads.filter((p, i) => records[i]!.type === 'turn_context').map((p) => p.model),
    );

    expect(summary.counts.prompts).toBe(prompts.length);
    expect(summary.counts.toolCalls).toBe(toolCalls.length);
    expect(new Set(summary.models)).toEqual(models);
    expect(summary.title).toBe((texts(prompts[0]!)[0] as string).trim().split('\n')[0]!.slice(0, 200));
    expect(summary.cwd).not.toBeNull();
    expect(summary.tokens.input + summary.tokens.cacheRead + summary.tokens.output).toBeGreaterThanOrEqual(0);
  });

  it('reads the cwd, branch and version of a Desktop rollout whose session_meta has no cwd', () => {
    const file = rollouts.find((f) => f.includes('rollout-'));
    if (!file) return;
    const acc = createAccumulator({
      sessionId: 'codex',
      hostname: 'h',
      source: 'backfill',
      provenance: 'backfilled',
    });
    for (const line of readFileSync(path.join(codexRoot, file), 'utf8').split('\n').filter(Boolean)) {
      const { entry, record } = projectLine(Buffer.from(line), at);
      acc.add(entry, record, 'transcript.jsonl');
    }
    expect(acc.summary()).toMatchObject({
      cwd: '/Users/mock_user/workspace/history-lab',
      project: 'history-lab',
      gitBranch: 'master',
      version: '0.115.0-alpha.11',
      models: ['gpt-5.4'],
      counts: { prompts: 1 },
    });
  });
});
