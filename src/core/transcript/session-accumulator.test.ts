import { describe, expect, it } from 'vitest';
import { eventDocSchema, summaryDocSchema, type EventDoc } from '../documents.js';
import { accumulatorStateSchema } from './accumulator-state-schema.js';
import { projectLine } from './project-entry.js';
import { createAccumulator, type AccumulatorInit } from './session-accumulator.js';

const init: AccumulatorInit = {
  sessionId: 's1',
  hostname: 'box',
  source: 'backfill',
  provenance: 'backfilled',
};
const MAIN = 'transcript.jsonl';
const SUB = 'subagents/agent-a1.jsonl';

const ts = (s: number) => new Date(Date.UTC(2026, 0, 1) + s * 1000).toISOString();
const base = { cwd: '/home/me/work/app', gitBranch: 'main', version: '2.1.0' };
const prompt = (s: number, text: string) => ({
  ...base,
  type: 'user',
  timestamp: ts(s),
  message: { role: 'user', content: text },
});
const assistant = (
  s: number,
  id: string,
  content: unknown[],
  usage = { input_tokens: 10, output_tokens: 5 },
  model = 'claude-opus-4-5',
) => ({
  ...base,
  type: 'assistant',
  timestamp: ts(s),
  message: { id, model, role: 'assistant', content, usage },
});
const toolUse = (id: string, name: string) => ({ type: 'tool_use', id, name, input: {} });
const toolResult = (s: number, id: string, isError = false) => ({
  ...base,
  type: 'user',
  timestamp: ts(s),
  message: {
    role: 'user',
    content: [{ type: 'tool_result', tool_use_id: id, content: isError ? 'boom' : 'ok', is_error: isError }],
  },
});

/** Feeds lines (objects or raw strings) of one file; returns the events. */
function feed(
  acc: ReturnType<typeof createAccumulator>,
  file: string,
  lines: unknown[],
  firstIndex = 0,
): EventDoc[] {
  const events: EventDoc[] = [];
  lines.forEach((line, i) => {
    const { entry, record } = projectLine(
      Buffer.from(typeof line === 'string' ? line : JSON.stringify(line)),
      {
        index: firstIndex + i,
        byteStart: 0,
        byteEnd: 0,
      },
    );
    events.push(...acc.add(entry, record, file));
  });
  return events;
}

const session = [
  { type: 'summary', summary: 'An older summary', leafUuid: 'x' },
  prompt(0, 'Fix the login bug\nit fails on empty passwords'),
  assistant(5, 'm1', [{ type: 'thinking', thinking: 'hmm' }]),
  assistant(6, 'm1', [toolUse('t1', 'Read'), toolUse('t2', 'Bash')], { input_tokens: 10, output_tokens: 30 }),
  toolResult(7, 't1'),
  toolResult(8, 't2', true),
  assistant(
    9,
    'm2',
    [{ type: 'text', text: 'Fixed.' }],
    { input_tokens: 1, output_tokens: 1 },
    '<synthetic>',
  ),
  '{"type":"user", half written',
  { type: 'system', subtype: 'compact_boundary', timestamp: ts(100), content: 'Conversation compacted' },
  {
    type: 'user',
    isCompactSummary: true,
    timestamp: ts(101),
    message: { role: 'user', content: 'This session is being continued…' },
  },
  prompt(
    200,
    '<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args>haiku</command-args>',
  ),
];

describe('session accumulator', () => {
  it('summarises a session', () => {
    const acc = createAccumulator(init);
    feed(acc, MAIN, session);
    acc.setFile(MAIN, 5000, session.length);
    const summary = summaryDocSchema.parse(acc.summary());
    expect(summary).toMatchObject({
      _id: 'summary:s1',
      type: 'summary',
      sessionId: 's1',
      timestamp: ts(200),
      cwd: '/home/me/work/app',
      project: 'app',
      models: ['claude-opus-4-5'],
      hostname: 'box',
      gitBranch: 'main',
      source: 'backfill',
      provenance: 'backfilled',
      version: '2.1.0',
      firstActivity: ts(0),
      lastActivity: ts(200),
      title: 'Fix the login bug',
      titleSource: 'prompt',
      counts: {
        entries: 11,
        prompts: 1,
        assistantMessages: 2,
        toolCalls: 2,
        toolErrors: 1,
        malformed: 1,
        sidechainEntries: 0,
        compactions: 1,
        images: 0,
      },
      toolCallsByName: { Read: 1, Bash: 1 },
      tokens: { input: 11, output: 31, cacheWrite: 0, cacheRead: 0 },
      transcriptBytes: 5000,
      files: [{ name: MAIN, bytes: 5000, entries: 11 }],
      subagents: 0,
    });
    // 0–9 s is one segment; the compaction at 100 s and the command at 200 s are more than a minute apart.
    expect(summary.activity).toEqual([
      [Date.parse(ts(0)), Date.parse(ts(9))],
      [Date.parse(ts(100)), Date.parse(ts(101))],
      [Date.parse(ts(200)), Date.parse(ts(200))],
    ]);
  });

  it('reconstructs session start, prompt and tool events', () => {
    const events = feed(createAccumulator(init), MAIN, session);
    for (const e of events) eventDocSchema.parse(e);
    expect(events.map((e) => [e.event, e.entryIndex, e.timestamp])).toEqual([
      ['SessionStart', 1, ts(0)],
      ['UserPromptSubmit', 1, ts(0)],
      ['PostToolUse', 4, ts(7)],
      ['PostToolUseFailure', 5, ts(8)],
    ]);
    expect(events[1]).toMatchObject({
      preview: 'Fix the login bug\nit fails on empty passwords',
      cwd: '/home/me/work/app',
    });
    expect(events[2]).toMatchObject({
      toolName: 'Read',
      toolUseId: 't1',
      success: true,
      reconstructed: true,
      hostname: 'box',
    });
    expect(events[3]).toMatchObject({ toolName: 'Bash', toolUseId: 't2', success: false, error: 'boom' });
    expect(events[3]!._id).toMatch(/^event:s1:2026-01-01T00:00:08\.000Z:[0-9a-f]{12}$/);
    expect(new Set(events.map((e) => e._id)).size).toBe(events.length);
    // Deterministic: a second run makes the same ids.
    expect(feed(createAccumulator(init), MAIN, session).map((e) => e._id)).toEqual(events.map((e) => e._id));
  });

  it('prefers a custom title, then an AI title, then the first prompt, then a summary line', () => {
    const titled = (lines: unknown[]) => {
      const acc = createAccumulator(init);
      feed(acc, MAIN, lines);
      const { title, titleSource } = acc.summary();
      return [title, titleSource];
    };
    const summaryLine = { type: 'summary', summary: 'Summary title' };
    const ai = { type: 'ai-title', aiTitle: 'AI title' };
    const custom = { type: 'custom-title', customTitle: 'My title' };
    const p = prompt(0, 'The prompt');
    expect(titled([summaryLine])).toEqual(['Summary title', 'summary']);
    expect(titled([summaryLine, p])).toEqual(['The prompt', 'prompt']);
    expect(titled([p, ai, summaryLine])).toEqual(['AI title', 'ai']);
    expect(titled([custom, p, ai])).toEqual(['My title', 'custom']);
    expect(titled([prompt(0, 'x'.repeat(500))])[0]).toHaveLength(200);
    expect(titled([])).toEqual([null, null]);
  });

  it('counts subagent files: tokens deduplicated across files, no prompts or titles from them', () => {
    const acc = createAccumulator(init);
    feed(acc, MAIN, [prompt(0, 'main prompt'), assistant(1, 'm1', [toolUse('t1', 'Task')])]);
    const sub = [
      { ...prompt(2, 'subagent task'), isSidechain: true, agentId: 'a1' },
      // A copy of the parent's message: same id, counted once.
      { ...assistant(1, 'm1', [{ type: 'text', text: 'copied' }]), isSidechain: true, agentId: 'a1' },
      {
        ...assistant(
          3,
          'm9',
          [toolUse('t9', 'Grep')],
          { input_tokens: 100, output_tokens: 1 },
          'claude-haiku-4-5',
        ),
        isSidechain: true,
        agentId: 'a1',
      },
      { ...toolResult(4, 't9'), isSidechain: true, agentId: 'a1', cwd: '/elsewhere' },
    ];
    const events = feed(acc, SUB, sub);
    acc.setFile(MAIN, 100, 2);
    acc.setFile(SUB, 50, 4, 'a1');
    const s = summaryDocSchema.parse(acc.summary());
    expect(s.tokens).toEqual({ input: 110, output: 6, cacheWrite: 0, cacheRead: 0 });
    expect(s.models).toEqual(['claude-opus-4-5', 'claude-haiku-4-5']);
    expect(s.counts).toMatchObject({
      prompts: 1,
      entries: 6,
      sidechainEntries: 4,
      toolCalls: 2,
      assistantMessages: 2,
    });
    expect(s.title).toBe('main prompt');
    expect(s).toMatchObject({ transcriptBytes: 150, subagents: 1 });
    expect(s.files).toEqual([
      { name: MAIN, bytes: 100, entries: 2 },
      { name: SUB, bytes: 50, entries: 4, agentId: 'a1' },
    ]);
    expect(events.map((e) => [e.event, e.toolName, e.agentId, e.cwd])).toEqual([
      ['PostToolUse', 'Grep', 'a1', '/elsewhere'],
    ]);
  });

  it('puts first the model that wrote most of the main conversation, not a warm-up or subagent model', () => {
    const acc = createAccumulator(init);
    const haiku = 'claude-haiku-4-5';
    feed(acc, MAIN, [
      // A warm-up sidechain first, on another model, then the conversation itself.
      { ...prompt(0, 'Warmup'), isSidechain: true, parentUuid: null },
      { ...assistant(1, 'w1', [{ type: 'text', text: 'ready' }], undefined, haiku), isSidechain: true },
      prompt(2, 'real work'),
      assistant(3, 'm1', [{ type: 'text', text: 'a' }], undefined, 'claude-sonnet-4-5'),
      assistant(4, 'm2', [{ type: 'text', text: 'b' }], undefined, 'claude-opus-4-5'),
      assistant(5, 'm3', [{ type: 'text', text: 'c' }], undefined, 'claude-opus-4-5'),
      // Another line of m3 (a streamed message) counts once.
      assistant(5, 'm3', [toolUse('t1', 'Read')], undefined, 'claude-opus-4-5'),
    ]);
    feed(acc, SUB, [
      { ...assistant(6, 's1', [{ type: 'text', text: 'x' }], undefined, haiku), isSidechain: true },
      { ...assistant(7, 's2', [{ type: 'text', text: 'y' }], undefined, haiku), isSidechain: true },
      { ...assistant(8, 's3', [{ type: 'text', text: 'z' }], undefined, haiku), isSidechain: true },
    ]);
    acc.setFile(MAIN, 100, 7);
    acc.setFile(SUB, 50, 3, 'a1');
    const s = summaryDocSchema.parse(acc.summary());
    expect(s.models).toEqual(['claude-opus-4-5', 'claude-sonnet-4-5', haiku]);
    // One subagent file and one subagent thread inside the main transcript (the older layout).
    expect(s.subagents).toBe(2);
  });

  it('takes cwd and branch from the main transcript even when a subagent file came first', () => {
    const acc = createAccumulator(init);
    feed(acc, SUB, [{ ...prompt(0, 'x'), cwd: '/sub', gitBranch: 'b', version: '9' }]);
    expect(acc.summary()).toMatchObject({ cwd: '/sub', gitBranch: 'b', version: '9' });
    feed(acc, MAIN, [{ ...prompt(1, 'y'), cwd: 'C:\\Users\\me\\proj', gitBranch: '', version: '2.0.1' }]);
    expect(acc.summary()).toMatchObject({
      cwd: 'C:\\Users\\me\\proj',
      project: 'proj',
      gitBranch: 'b',
      version: '2.0.1',
    });
  });

  it('dates an event of an untimed line with the last time seen in its file', () => {
    const acc = createAccumulator(init);
    const events = feed(acc, MAIN, [
      assistant(5, 'm1', [toolUse('t1', 'Read')]),
      {
        type: 'user',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] },
      },
    ]);
    expect(events.map((e) => [e.event, e.timestamp])).toEqual([
      ['SessionStart', ts(5)],
      ['PostToolUse', ts(5)],
    ]);
    // Without any time there is no event to make, but the counts still move.
    const bare = createAccumulator(init);
    expect(feed(bare, MAIN, [{ type: 'user', message: { content: 'hello' } }])).toEqual([]);
    expect(bare.summary().counts.prompts).toBe(1);
  });

  it('makes a valid summary from nothing, with the epoch as its time', () => {
    const s = summaryDocSchema.parse(createAccumulator(init).summary());
    expect(s).toMatchObject({
      timestamp: '1970-01-01T00:00:00.000Z',
      firstActivity: null,
      cwd: null,
      project: null,
      title: null,
    });
  });

  it('resumes from JSON state to the same summary and events as one pass', () => {
    const once = createAccumulator(init);
    const allEvents = feed(once, MAIN, session);
    for (let split = 0; split <= session.length; split++) {
      const first = createAccumulator(init);
      const events = feed(first, MAIN, session.slice(0, split));
      const state = accumulatorStateSchema.parse(JSON.parse(JSON.stringify(first.state())));
      const second = createAccumulator(init, state);
      events.push(...feed(second, MAIN, session.slice(split), split));
      expect(second.summary()).toEqual(once.summary());
      expect(events).toEqual(allEvents);
    }
  });

  it('does not let later feeding change an earlier state snapshot', () => {
    const acc = createAccumulator(init);
    feed(acc, MAIN, session.slice(0, 3));
    const snapshot = JSON.stringify(acc.state());
    feed(acc, MAIN, session.slice(3), 3);
    expect(JSON.stringify(createAccumulator(init, JSON.parse(snapshot)).state())).toBe(snapshot);
  });

  it('counts a tool named __proto__ like any other', () => {
    const acc = createAccumulator(init);
    feed(acc, MAIN, [assistant(0, 'm', [toolUse('t', '__proto__')])]);
    const state = JSON.parse(JSON.stringify(acc.state()));
    expect(createAccumulator(init, state).summary().toolCallsByName).toEqual(JSON.parse('{"__proto__":1}'));
  });

  it('refuses a state of another version', () => {
    const state = { ...createAccumulator(init).state(), v: 99 } as never;
    expect(() => createAccumulator(init, state)).toThrow(/version/);
  });

  it('keeps a line stamped outside 2000 .. now + 1 day, flagged, out of the activity (issue 42)', () => {
    const acc = createAccumulator(init);
    const far = { ...prompt(0, 'from the far future'), timestamp: '+275760-09-13T00:00:00.000Z' };
    const old = { ...prompt(0, 'from the last century'), timestamp: '1999-12-31T23:59:59.000Z' };
    const lines = [prompt(0, 'hello'), far, old, assistant(60, 'm1', [{ type: 'text', text: 'hi' }])];
    const entries = lines.map((line, index) => {
      const { entry, record } = projectLine(Buffer.from(JSON.stringify(line)), {
        index,
        byteStart: 0,
        byteEnd: 0,
      });
      acc.add(entry, record, MAIN);
      return entry;
    });
    expect(entries.map((e) => e.timestampOutOfRange ?? false)).toEqual([false, true, true, false]);
    expect(entries[1]!.timestamp).toBe('+275760-09-13T00:00:00.000Z');
    const s = summaryDocSchema.parse(acc.summary());
    expect(s.counts.entries).toBe(4);
    expect(s.firstActivity).toBe(ts(0));
    expect(s.lastActivity).toBe(ts(60));
    expect(s.activity).toEqual([[Date.parse(ts(0)), Date.parse(ts(60))]]);
  });
});
