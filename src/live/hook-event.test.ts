import { describe, expect, it } from 'vitest';
import { eventDocSchema } from '../core/documents.js';
import { hookEventDoc, payloadHash, toolInputPreview } from './hook-event.js';
import { parseHookPayload, type HookPayload } from './hook-payload.js';

const NOW = Date.parse('2025-07-01T10:00:00.000Z');
const common = {
  session_id: 'sess-1',
  transcript_path: '/home/me/.claude/projects/-work-app/sess-1.jsonl',
  cwd: '/work/app',
  permission_mode: 'default',
};

function build(payload: unknown, now = NOW) {
  const input = Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload));
  const parsed = parseHookPayload(input);
  expect(parsed.sessionId).not.toBeNull();
  const doc = hookEventDoc(parsed as HookPayload & { sessionId: string }, payloadHash(input), {
    now,
    hostname: 'box',
  });
  // Every document the hook builds passes the ingest route's validation.
  expect(eventDocSchema.safeParse(doc).success).toBe(true);
  return { parsed, doc };
}

describe('parseHookPayload', () => {
  it('reads the common fields', () => {
    const p = parseHookPayload(Buffer.from(JSON.stringify({ ...common, hook_event_name: 'Stop' })));
    expect(p).toMatchObject({
      sessionId: 'sess-1',
      event: 'Stop',
      cwd: '/work/app',
      transcriptPath: common.transcript_path,
      problems: [],
      salvaged: false,
    });
  });

  it('salvages what it can from text that is not JSON, and says so', () => {
    const text =
      `{"session_id": "sess-2", "hook_event_name": "PreToolUse", "tool_input": {"command": "ls"` + ' …cut';
    const p = parseHookPayload(Buffer.from(text));
    expect(p).toMatchObject({ sessionId: 'sess-2', event: 'PreToolUse', salvaged: true });
    expect(p.problems.join('\n')).toMatch(/not JSON/);
  });

  it('takes the session id from transcript_path when session_id is missing or unusable', () => {
    const p = parseHookPayload(
      Buffer.from(JSON.stringify({ transcript_path: '/x/abc-123.jsonl', hook_event_name: 'Stop' })),
    );
    expect(p.sessionId).toBe('abc-123');
    expect(p.problems.join('\n')).toMatch(/took "abc-123" from transcript_path/);
    const bad = parseHookPayload(
      Buffer.from(JSON.stringify({ session_id: '../../etc', hook_event_name: 'Stop' })),
    );
    expect(bad.sessionId).toBeNull();
    expect(bad.problems.join('\n')).toMatch(/session_id: .*disallowed/);
  });

  it('reports wrong types and missing names without failing', () => {
    const p = parseHookPayload(
      Buffer.from(JSON.stringify({ session_id: 42, hook_event_name: ['x'], cwd: {} })),
    );
    expect(p.sessionId).toBeNull();
    expect(p.event).toBe('Unknown');
    expect(p.problems.join('\n')).toMatch(/session_id: expected a string, got a number/);
    expect(p.problems.join('\n')).toMatch(/hook_event_name: expected a string, got an array/);
    expect(parseHookPayload(Buffer.from('[1,2]')).problems.join('\n')).toMatch(/an array, not a JSON object/);
    expect(parseHookPayload(Buffer.alloc(0)).problems).toContain('empty payload on stdin');
  });

  it('notes a payload cut at the input cap', () => {
    const p = parseHookPayload(
      Buffer.from('{"session_id":"s","hook_event_name":"Stop","x":"aaaa'),
      10_000_000,
    );
    expect(p.sessionId).toBe('s');
    expect(p.problems.join('\n')).toMatch(/10000000 bytes is over the .*cap/);
  });
});

describe('hookEventDoc', () => {
  it('records a prompt with a short preview', () => {
    const { doc } = build({
      ...common,
      hook_event_name: 'UserPromptSubmit',
      prompt: `fix the bug\n${'x'.repeat(500)}`,
    });
    expect(doc).toMatchObject({
      type: 'event',
      sessionId: 'sess-1',
      event: 'UserPromptSubmit',
      timestamp: '2025-07-01T10:00:00.000Z',
      cwd: '/work/app',
      hostname: 'box',
      data: { permission_mode: 'default', transcript_path: common.transcript_path },
    });
    expect(doc.preview!.length).toBeLessThanOrEqual(200);
    expect(doc.reconstructed).toBeUndefined();
    expect(doc._id).toMatch(/^event:sess-1:2025-07-01T10:00:00.000Z:[0-9a-f]{12}$/);
  });

  it('records tool calls without copying their input or response', () => {
    const pre = build({
      ...common,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_use_id: 'toolu_1',
      tool_input: { command: 'npm test', description: 'run tests' },
    }).doc;
    expect(pre).toMatchObject({ toolName: 'Bash', toolUseId: 'toolu_1', preview: 'npm test' });
    expect(JSON.stringify(pre)).not.toContain('run tests');

    const post = build({
      ...common,
      hook_event_name: 'PostToolUse',
      tool_name: 'Write',
      tool_use_id: 'toolu_2',
      tool_input: { file_path: '/a.ts', content: 'x'.repeat(100_000) },
      tool_response: { success: true, filePath: '/a.ts' },
    }).doc;
    expect(post).toMatchObject({ toolName: 'Write', success: true, preview: '/a.ts' });
    expect(JSON.stringify(post).length).toBeLessThan(2000);

    const failed = build({
      ...common,
      hook_event_name: 'PostToolUseFailure',
      tool_name: 'Bash',
      tool_use_id: 'toolu_3',
      tool_input: { command: 'false' },
      error: 'exit code 1',
    }).doc;
    expect(failed).toMatchObject({ success: false, error: 'exit code 1' });
  });

  it('keeps end reasons, compaction triggers, subagent ids and event-specific data', () => {
    expect(build({ ...common, hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' }).doc.reason).toBe(
      'prompt_input_exit',
    );
    expect(
      build({ ...common, hook_event_name: 'PreCompact', trigger: 'auto', custom_instructions: '' }).doc,
    ).toMatchObject({
      trigger: 'auto',
      data: { custom_instructions: '' },
    });
    expect(
      build({ ...common, hook_event_name: 'SubagentStop', agent_id: 'a1', stop_hook_active: false }).doc,
    ).toMatchObject({
      agentId: 'a1',
      data: { stop_hook_active: false },
    });
    expect(build({ ...common, hook_event_name: 'SessionStart', source: 'resume' }).doc.data).toMatchObject({
      source: 'resume',
    });
  });

  it('records unknown events generically, cutting big values', () => {
    const { doc } = build({
      ...common,
      hook_event_name: 'SomethingNew',
      message: 'hello',
      nested: { a: [1, 2, 3] },
      huge: 'y'.repeat(50_000),
      many: Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`k${i}`, i])),
    });
    expect(doc.event).toBe('SomethingNew');
    expect(doc.preview).toBe('hello');
    expect(doc.data).toMatchObject({
      nested: { a: [1, 2, 3] },
      _cut: expect.arrayContaining(['huge', 'many']),
    });
    expect(JSON.stringify(doc).length).toBeLessThan(12_000);
  });

  it('is deterministic for one call and distinct across calls', () => {
    const payload = { ...common, hook_event_name: 'Stop', stop_hook_active: false };
    expect(build(payload).doc._id).toBe(build(payload).doc._id);
    expect(build(payload, NOW + 1).doc._id).not.toBe(build(payload).doc._id);
    expect(build({ ...payload, hook_event_name: 'SubagentStop' }).doc._id).not.toBe(build(payload).doc._id);
  });

  it('keeps the problems of a salvaged payload on the document', () => {
    const { doc } = build('{"session_id":"sess-9","hook_event_name":"Notification", oops');
    expect(doc.data).toMatchObject({ _salvaged: true, _problems: [expect.stringMatching(/not JSON/)] });
  });
});

describe('toolInputPreview', () => {
  it('says what a call does', () => {
    expect(toolInputPreview({ pattern: 'TODO', path: 'src' })).toBe('src');
    expect(toolInputPreview({ todos: [{ content: 'a' }] })).toBe('{"todos":[{"content":"a"}]}');
    expect(toolInputPreview({})).toBeUndefined();
    expect(toolInputPreview(42)).toBeUndefined();
  });
});
