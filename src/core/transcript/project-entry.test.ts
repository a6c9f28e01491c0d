import { describe, expect, it } from 'vitest';
import { projectedEntrySchema } from '../documents.js';
import { canonicalJson } from '../revision.js';
import { FIELD_CAP, nestedDeeperThan } from './caps.js';
import { projectLine } from './project-entry.js';

const at = { index: 3, byteStart: 100, byteEnd: 200 };
const project = (line: unknown) =>
  projectLine(Buffer.from(typeof line === 'string' ? line : JSON.stringify(line)), at);
const entryOf = (line: unknown) => project(line).entry;

describe('projectLine: malformed lines', () => {
  it.each([
    ['not json at all', 'not JSON'],
    ['{"incomplete":', 'not JSON'],
    ['"a bare string"', 'not a JSON object: a string'],
    ['42', 'not a JSON object: a number'],
    ['[1]', 'not a JSON object: an array'],
    ['null', 'not a JSON object: null'],
  ])('keeps %j as a flagged other entry', (line, reason) => {
    const { entry, record } = project(line);
    expect(record).toBeNull();
    expect(entry).toMatchObject({ ...at, role: 'other', kind: 'malformed', malformed: true, text: line });
    expect(entry.error).toContain(reason);
    expect(entry.truncated).toBeUndefined();
  });

  it('keeps only the first 2000 characters of a long bad line', () => {
    const { entry } = project('x'.repeat(50_000));
    expect(entry.text).toHaveLength(2000);
    expect(entry.truncated).toBe(true);
  });
});

describe('projectLine: user and tool result lines', () => {
  it('projects a typed prompt with string content', () => {
    const { entry, record } = project({
      type: 'user',
      uuid: 'u1',
      parentUuid: null,
      timestamp: '2026-01-28T10:00:00Z',
      message: { role: 'user', content: 'Read and fix auth.rs' },
    });
    expect(record).toMatchObject({ type: 'user' });
    expect(entry).toEqual({
      ...at,
      role: 'user',
      kind: 'user',
      uuid: 'u1',
      parentUuid: null,
      timestamp: '2026-01-28T10:00:00Z',
      text: 'Read and fix auth.rs',
    });
  });

  it('joins text blocks and keeps images as media type and decoded size only', () => {
    const data = Buffer.alloc(1000, 7).toString('base64');
    const entry = entryOf({
      type: 'user',
      message: {
        role: 'user',
        content: [
          { type: 'text', text: 'look at this' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data } },
          { type: 'text', text: 'and fix it' },
        ],
      },
    });
    expect(entry.role).toBe('user');
    expect(entry.text).toBe('look at this\n\nand fix it');
    expect(entry.images).toEqual([{ mediaType: 'image/png', bytes: 1000 }]);
    expect(JSON.stringify(entry)).not.toContain(data.slice(0, 40));
  });

  it('makes a user line of tool_result blocks a tool_result entry, flattening block content', () => {
    const entry = entryOf({
      type: 'user',
      isSidechain: true,
      agentId: 'a1',
      message: {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'tu1', content: 'fn main() {}' },
          {
            type: 'tool_result',
            tool_use_id: 'tu2',
            is_error: true,
            content: [
              { type: 'text', text: 'line one' },
              { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: 'AAAA' } },
            ],
          },
        ],
      },
    });
    expect(entry.role).toBe('tool_result');
    expect(entry.isSidechain).toBe(true);
    expect(entry.agentId).toBe('a1');
    expect(entry.toolResults).toEqual([
      { toolUseId: 'tu1', content: 'fn main() {}', isError: false },
      { toolUseId: 'tu2', content: 'line one\n[image: image/jpeg, 3 bytes]', isError: true },
    ]);
    expect(entry.images).toEqual([{ mediaType: 'image/jpeg', bytes: 3 }]);
  });

  it('flags meta and compact summary lines', () => {
    const entry = entryOf({
      type: 'user',
      isMeta: true,
      isCompactSummary: true,
      message: { role: 'user', content: 'This session is being continued…' },
    });
    expect(entry).toMatchObject({ role: 'user', isMeta: true, isCompactSummary: true });
  });
});

describe('projectLine: assistant lines', () => {
  it('projects text, thinking, tool uses, model, message id and usage', () => {
    const entry = entryOf({
      type: 'assistant',
      uuid: 'a1',
      parentUuid: 'u1',
      message: {
        id: 'msg_1',
        model: 'claude-sonnet-4-20250514',
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Let me read the file first', signature: 'sig' },
          { type: 'redacted_thinking', data: 'opaque' },
          { type: 'text', text: "I'll read the file first." },
          { type: 'tool_use', id: 'tu1', name: 'Read', input: { file_path: '/p/auth.rs' } },
        ],
        usage: {
          input_tokens: 10,
          output_tokens: 5,
          cache_creation_input_tokens: 3,
          cache_read_input_tokens: 7,
        },
      },
    });
    expect(entry).toEqual({
      ...at,
      role: 'assistant',
      kind: 'assistant',
      uuid: 'a1',
      parentUuid: 'u1',
      text: "I'll read the file first.",
      thinking: 'Let me read the file first\n\n[redacted thinking]',
      toolUses: [{ id: 'tu1', name: 'Read', input: { file_path: '/p/auth.rs' } }],
      model: 'claude-sonnet-4-20250514',
      messageId: 'msg_1',
      usage: { input: 10, output: 5, cacheWrite: 3, cacheRead: 7 },
    });
  });

  it('keeps <synthetic> as the model and the API error text', () => {
    const entry = entryOf({
      type: 'assistant',
      error: 'rate_limit',
      isApiErrorMessage: true,
      message: { model: '<synthetic>', content: [{ type: 'text', text: "You've hit your limit" }] },
    });
    expect(entry).toMatchObject({ model: '<synthetic>', error: 'rate_limit', text: "You've hit your limit" });
  });

  it('reads missing or odd usage fields as 0', () => {
    const entry = entryOf({
      type: 'assistant',
      message: { usage: { input_tokens: 12, output_tokens: 'many', cache_read_input_tokens: -4 } },
    });
    expect(entry.usage).toEqual({ input: 12, output: 0, cacheWrite: 0, cacheRead: 0 });
  });

  it('uses message.role as the kind of a line without type (usage-only records)', () => {
    const entry = entryOf({ message: { role: 'assistant', id: 'm', usage: { input_tokens: 1 } } });
    expect(entry).toMatchObject({ role: 'assistant', kind: 'assistant', messageId: 'm' });
    expect(entryOf({ silly: 'this' })).toMatchObject({ role: 'other', kind: 'unknown' });
  });
});

describe('projectLine: system and other lines', () => {
  it('refines kind by subtype and keeps system content and error text', () => {
    expect(
      entryOf({ type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted' }),
    ).toMatchObject({ role: 'system', kind: 'system:compact_boundary', text: 'Conversation compacted' });
    const apiError = entryOf({
      type: 'system',
      subtype: 'api_error',
      level: 'error',
      error: { message: 'Overloaded', status: 529 },
    });
    expect(apiError).toMatchObject({
      kind: 'system:api_error',
      text: 'error: Overloaded',
      error: 'Overloaded',
    });
    expect(entryOf({ type: 'system', subtype: 'turn_duration', durationMs: 5 }).text).toBeUndefined();
  });

  it('puts summaries and titles in text', () => {
    expect(entryOf({ type: 'summary', summary: 'Fixed auth', leafUuid: 'a2' })).toMatchObject({
      role: 'other',
      kind: 'summary',
      text: 'Fixed auth',
    });
    expect(entryOf({ type: 'custom-title', customTitle: 'Mine' }).text).toBe('Mine');
    expect(entryOf({ type: 'ai-title', aiTitle: 'Generated' }).text).toBe('Generated');
  });

  it.each(['file-history-snapshot', 'progress', 'attachment', 'queue-operation', 'some-future-type'])(
    'makes %s an other entry of its own kind',
    (type) => {
      expect(entryOf({ type, uuid: 'x', timestamp: '2026-01-01T00:00:00Z' })).toMatchObject({
        role: 'other',
        kind: type,
        uuid: 'x',
      });
    },
  );

  it('refines the kind of attachment and progress lines by what they carry', () => {
    expect(entryOf({ type: 'attachment', attachment: { type: 'todo_reminder', content: [] } }).kind).toBe(
      'attachment:todo_reminder',
    );
    expect(entryOf({ type: 'progress', data: { type: 'hook_progress', hookEvent: 'PreToolUse' } }).kind).toBe(
      'progress:hook_progress',
    );
  });

  it('shows a prompt queued while Claude worked, with its images, as an other entry', () => {
    const queued = (prompt: unknown) =>
      entryOf({ type: 'attachment', attachment: { type: 'queued_command', prompt, commandMode: 'prompt' } });
    expect(queued('also run the linter')).toMatchObject({
      role: 'other',
      kind: 'attachment:queued_command',
      text: 'also run the linter',
    });
    const withImage = queued([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'text', text: 'this screenshot' },
    ]);
    expect(withImage).toMatchObject({ text: 'this screenshot', images: [{ mediaType: 'image/png' }] });
  });
});

describe('projectLine: caps', () => {
  it('cuts long text, thinking and tool results and says so', () => {
    const long = 'é'.repeat(FIELD_CAP + 10);
    const entry = entryOf({
      type: 'assistant',
      message: {
        content: [
          { type: 'text', text: long },
          { type: 'thinking', thinking: long },
        ],
      },
    });
    expect(entry.text).toHaveLength(FIELD_CAP);
    expect(entry.thinking).toHaveLength(FIELD_CAP);
    expect(entry.truncated).toBe(true);
    const result = entryOf({
      type: 'user',
      message: { content: [{ type: 'tool_result', tool_use_id: 't', content: long }] },
    });
    expect(result.toolResults![0]!.content).toHaveLength(FIELD_CAP);
    expect(result.truncated).toBe(true);
  });

  it('never splits a surrogate pair', () => {
    const entry = entryOf({ type: 'user', message: { content: 'a' + '😀'.repeat(FIELD_CAP) } });
    expect(entry.text!.length).toBeLessThanOrEqual(FIELD_CAP);
    expect(entry.text).toBe(Buffer.from(entry.text!, 'utf8').toString('utf8'));
  });

  it('cuts the long string members of a big tool input and keeps its shape', () => {
    const input = { file_path: '/a.ts', content: 'x'.repeat(100_000), old: 'y'.repeat(30_000) };
    const entry = entryOf({
      type: 'assistant',
      message: { content: [{ type: 'tool_use', id: 't', name: 'Write', input }] },
    });
    const kept = entry.toolUses![0]!.input as Record<string, string>;
    expect(kept.file_path).toBe('/a.ts');
    expect(kept.content!.length).toBeLessThan(3000);
    expect(JSON.stringify(kept).length).toBeLessThanOrEqual(FIELD_CAP);
    expect(entry.truncated).toBe(true);
  });

  it('falls back to the start of the JSON when no member cut is enough', () => {
    const input = { items: Array.from({ length: 10_000 }, (_, i) => i) };
    const entry = entryOf({
      type: 'assistant',
      message: { content: [{ type: 'tool_use', id: 't', name: 'X', input }] },
    });
    const kept = entry.toolUses![0]!.input;
    expect(typeof kept).toBe('string');
    expect((kept as string).startsWith('{"items":[0,1,2')).toBe(true);
  });

  it('leaves a small input untouched', () => {
    const input = { command: 'ls', nested: { a: [1, 2] } };
    const entry = entryOf({
      type: 'assistant',
      message: { content: [{ type: 'tool_use', id: 't', name: 'Bash', input }] },
    });
    expect(entry.toolUses![0]!.input).toEqual(input);
    expect(entry.truncated).toBeUndefined();
  });
});

describe('projectLine: never throws', () => {
  const hostile: unknown[] = [
    { type: 'user', message: 5 },
    { type: 'user', message: { content: {} } },
    { type: 'user', message: { content: [null, 1, 'str', [], { type: 5 }, { type: 'text', text: 9 }] } },
    {
      type: 'assistant',
      message: { usage: 'x', model: 7, id: {}, content: [{ type: 'tool_use', id: 1, name: null }] },
    },
    {
      type: 'user',
      message: { content: [{ type: 'tool_result', content: { weird: true }, is_error: 'yes' }] },
    },
    { type: 'user', message: { content: [{ type: 'image', source: 'nope' }, { type: 'image' }] } },
    { type: ['system'], subtype: {}, uuid: 1, parentUuid: 2, timestamp: {}, isSidechain: 'true' },
    { type: 'system', error: [1, 2], level: 3, content: ['a'] },
    { type: 'summary', summary: { text: 'no' } },
    { type: 'x'.repeat(10_000) },
  ];
  it.each(hostile.map((h) => [JSON.stringify(h).slice(0, 60), h]))('projects %s', (_name, line) => {
    const { entry } = project(line);
    expect(projectedEntrySchema.parse(entry)).toEqual(entry);
  });

  it('projects deeply nested input', () => {
    const deep =
      '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t","name":"X","input":' +
      '['.repeat(50_000) +
      ']'.repeat(50_000) +
      '}]}}';
    const { entry } = project(deep);
    expect(projectedEntrySchema.parse(entry)).toEqual(entry);
    expect(project('['.repeat(200_000)).entry.malformed).toBe(true);
  });

  it('cuts deep nesting even when its JSON is short, so storing the entry cannot overflow the stack', () => {
    // 3,000 levels in 6,000 characters: under the size cap, but canonical JSON (revisions) recursed.
    const line =
      '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t","name":"X","input":{"q":' +
      '['.repeat(3000) +
      ']'.repeat(3000) +
      '}}]}}';
    const { entry } = project(line);
    expect(entry.truncated).toBe(true);
    expect(nestedDeeperThan(entry.toolUses![0]!.input, 66)).toBe(false);
    expect(() => canonicalJson(entry)).not.toThrow();
    expect(projectedEntrySchema.parse(entry)).toEqual(entry);
  });

  it('projects random bytes and random JSON-ish text', () => {
    let seed = 42;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const alphabet = [
      '{',
      '}',
      '[',
      ']',
      '"',
      ':',
      ',',
      'type',
      'message',
      'content',
      'null',
      '1',
      'é',
      '\\',
      'x',
    ];
    for (let i = 0; i < 500; i++) {
      const bytes =
        i % 2 === 0
          ? Buffer.from(Array.from({ length: Math.floor(rnd() * 200) }, () => Math.floor(rnd() * 256)))
          : Buffer.from(
              Array.from(
                { length: Math.floor(rnd() * 60) },
                () => alphabet[Math.floor(rnd() * alphabet.length)],
              ).join(''),
            );
      const { entry } = projectLine(bytes, at);
      expect(projectedEntrySchema.safeParse(entry).success).toBe(true);
    }
  });

  it('projects every field of a real line replaced by a wrong type', () => {
    const base: Record<string, unknown> = {
      type: 'assistant',
      uuid: 'u',
      parentUuid: 'p',
      timestamp: '2026-01-01T00:00:00Z',
      isSidechain: false,
      agentId: 'a',
      message: {
        id: 'm',
        model: 'claude',
        content: [{ type: 'text', text: 'hi' }],
        usage: { input_tokens: 1 },
      },
    };
    const wrong = [5, 'x', null, {}, [], true, [{}], -1];
    for (const key of Object.keys(base)) {
      for (const value of wrong) {
        const { entry } = project({ ...base, [key]: value });
        expect(projectedEntrySchema.safeParse(entry).success).toBe(true);
      }
    }
    for (const key of ['id', 'model', 'content', 'usage', 'role']) {
      for (const value of wrong) {
        const { entry } = project({ ...base, message: { ...(base.message as object), [key]: value } });
        expect(projectedEntrySchema.safeParse(entry).success).toBe(true);
      }
    }
  });
});

describe('subagent results', () => {
  it('names the subagent a Task call ran, from toolUseResult.agentId', () => {
    const entry = entryOf({
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'done' }] },
      toolUseResult: { agentId: 'a96624eba0c4dad97', status: 'completed' },
    });
    expect(entry.toolResults).toEqual([
      { toolUseId: 'toolu_1', content: 'done', isError: false, agentId: 'a96624eba0c4dad97' },
    ]);
    expect(projectedEntrySchema.safeParse(entry).success).toBe(true);
  });

  it('leaves results without an agent untouched', () => {
    const entry = entryOf({
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'ok' }] },
      toolUseResult: { stdout: 'ok' },
    });
    expect(entry.toolResults?.[0]).not.toHaveProperty('agentId');
  });
});
