import { describe, expect, it } from 'vitest';
import type { ProjectedEntry } from '../../../src/core/documents.js';
import { turnOf } from '../../../src/core/transcript/turns.js';
import {
  EntryGrouper,
  classifyEntry,
  groupEntries,
  noticeLabel,
  subagentFileFor,
  summarizeCalls,
  type Entry,
  type ReaderItem,
} from './entry-groups.js';

let next = 0;
function e(partial: Partial<Entry> & Pick<Entry, 'role'>): Entry {
  const index = partial.index ?? next++;
  return { index, byteStart: index * 10, byteEnd: index * 10 + 9, kind: partial.role, ...partial };
}
const user = (text: string, extra: Partial<Entry> = {}) => e({ role: 'user', text, ...extra });
const says = (text: string, extra: Partial<Entry> = {}) => e({ role: 'assistant', text, ...extra });
const call = (id: string, name: string, input: unknown = {}, extra: Partial<Entry> = {}) =>
  e({ role: 'assistant', toolUses: [{ id, name, input }], ...extra });
const result = (id: string, content = 'ok', extra: Partial<Entry> = {}) =>
  e({
    role: 'tool_result',
    kind: 'user',
    toolResults: [{ toolUseId: id, content, isError: false }],
    ...extra,
  });
const other = (kind: string, extra: Partial<Entry> = {}) => e({ role: 'other', kind, ...extra });

function shape(items: ReaderItem[]): string[] {
  return items.map((i) => {
    if (i.type === 'tools')
      return `tools[${i.calls.map((c) => `${c.name}${c.result ? '✓' : ''}${c.subagent ? `+${c.subagent.length}` : ''}`).join(',')}${i.orphans.length ? `;orphans ${i.orphans.length}` : ''}]`;
    if (i.type === 'meta') return `meta×${i.entries.length}`;
    if (i.type === 'subagent') return `subagent×${i.entries.length}`;
    return `${i.type}:${i.entry.role}`;
  });
}

describe('groupEntries', () => {
  it('folds a run of tool calls and pairs each with its result', () => {
    next = 0;
    const entries = [
      user('read the files'),
      call('a', 'Read'),
      call('b', 'Read'),
      result('b'),
      result('a'),
      call('c', 'Bash'),
      result('c'),
      says('done'),
    ];
    const { items, itemOf } = groupEntries(entries, { groupSidechains: true });
    expect(shape(items)).toEqual(['message:user', 'tools[Read✓,Read✓,Bash✓]', 'message:assistant']);
    for (const i of [1, 2, 3, 4, 5, 6]) expect(itemOf(i)).toBe(1);
    expect(itemOf(7)).toBe(2);
  });

  it('starts a new run after text, and keeps text+tool lines in both', () => {
    next = 0;
    const entries = [
      says('looking', { toolUses: [{ id: 'a', name: 'Grep', input: {} }] }),
      result('a'),
      says('now edit'),
      call('b', 'Edit'),
      result('b'),
    ];
    const { items, itemOf } = groupEntries(entries, { groupSidechains: true });
    expect(shape(items)).toEqual(['message:assistant', 'tools[Grep✓]', 'message:assistant', 'tools[Edit✓]']);
    expect(itemOf(0)).toBe(0);
    expect(itemOf(1)).toBe(1);
  });

  it('lets bookkeeping join a run without breaking it, and folds it elsewhere', () => {
    next = 0;
    const entries = [
      other('file-history-snapshot'),
      other('progress'),
      user('go'),
      call('a', 'Task'),
      other('progress'),
      other('progress'),
      result('a'),
      says('ok'),
    ];
    const { items } = groupEntries(entries, { groupSidechains: true });
    expect(shape(items)).toEqual(['meta×2', 'message:user', 'tools[Task✓]', 'message:assistant']);
  });

  it('groups sidechain entries under the Task call whose prompt started them', () => {
    next = 0;
    const entries = [
      user('research two things'),
      call('t1', 'Task', { prompt: 'Find the parser' }),
      call('t2', 'Task', { prompt: 'Find the tests' }),
      user('Find the tests', { isSidechain: true, uuid: 's1', parentUuid: null }),
      says('searching tests', { isSidechain: true, uuid: 's2', parentUuid: 's1' }),
      user('Find the parser', { isSidechain: true, uuid: 'p1', parentUuid: null }),
      call('x', 'Grep', {}, { isSidechain: true, uuid: 'p2', parentUuid: 'p1' }),
      result('x', 'hits', { isSidechain: true, uuid: 'p3', parentUuid: 'p2' }),
      result('t2', 'tests found'),
      result('t1', 'parser found'),
      says('both done'),
    ];
    const { items, itemOf } = groupEntries(entries, { groupSidechains: true });
    expect(shape(items)).toEqual(['message:user', 'tools[Task✓+3,Task✓+2]', 'message:assistant']);
    const tools = items[1] as Extract<ReaderItem, { type: 'tools' }>;
    expect(tools.calls[0]!.subagent!.map((x) => x.text ?? x.toolUses?.[0]?.name ?? 'result')).toEqual([
      'Find the parser',
      'Grep',
      'result',
    ]);
    for (let i = 3; i <= 7; i++) expect(itemOf(i)).toBe(1);
  });

  it('attaches a sidechain root with an unknown prompt to the call still waiting, or shows it alone', () => {
    next = 0;
    const { items } = groupEntries(
      [call('t', 'Task', { prompt: 'p' }), user('other prompt', { isSidechain: true, uuid: 'r' })],
      { groupSidechains: true },
    );
    expect(shape(items)).toEqual(['tools[Task+1]']);
    next = 0;
    const lone = groupEntries([user('hi', { isSidechain: true }), says('yo', { isSidechain: true })], {
      groupSidechains: true,
    });
    expect(shape(lone.items)).toEqual(['subagent×2']);
  });

  it('shows a subagent file as a conversation whose prompt (from Claude, not the person) is a notice', () => {
    next = 0;
    const { items } = groupEntries(
      [user('task', { isSidechain: true }), says('done', { isSidechain: true })],
      { groupSidechains: false },
    );
    expect(shape(items)).toEqual(['notice:user', 'message:assistant']);
    expect(noticeLabel((items[0] as Extract<ReaderItem, { type: 'notice' }>).entry)).toBe('subagent prompt');
  });

  it('keeps orphan results, notices, thinking and malformed lines visible', () => {
    next = 0;
    const entries = [
      result('nobody'),
      e({ role: 'system', kind: 'system:compact_boundary', text: 'Conversation compacted' }),
      user('summary of before', { isCompactSummary: true }),
      e({ role: 'assistant', thinking: 'hmm' }),
      e({ role: 'other', kind: 'malformed', malformed: true, text: '{"trunc', error: 'Unexpected end' }),
      user('caveat', { isMeta: true }),
      other('summary', { text: 'A title' }),
    ];
    const { items } = groupEntries(entries, { groupSidechains: true });
    expect(shape(items)).toEqual([
      'tools[;orphans 1]',
      'notice:system',
      'notice:user',
      'message:assistant',
      'notice:other',
      'notice:user',
      'notice:other',
    ]);
  });

  it("labels Claude Code's meta lines by what they are, keeping their text", () => {
    next = 0;
    const entries = [
      user('Caveat: The messages below were generated by the user while running local commands.', {
        isMeta: true,
      }),
      user('<local-command-caveat>Caveat: The messages below were generated…</local-command-caveat>', {
        isMeta: true,
      }),
      user('<local-command-stdout>Set model to opus</local-command-stdout>', { isMeta: true }),
      user(
        '<command-message>init is analyzing your codebase…</command-message>\n<command-name>/init</command-name>',
      ),
      user('Please analyze this codebase and create a CLAUDE.md file', { isMeta: true }),
      user('System init', { isMeta: true }),
    ];
    const { items } = groupEntries(entries, { groupSidechains: true });
    expect(shape(items)).toEqual([
      'notice:user',
      'notice:user',
      'notice:user',
      'message:user',
      'notice:user',
      'notice:user',
    ]);
    const notices = items.filter((i) => i.type === 'notice');
    expect(notices.map((i) => i.label ?? noticeLabel(i.entry))).toEqual([
      'command caveat',
      'command caveat',
      'command output',
      'prompt of /init',
      'added by Claude Code',
    ]);
  });

  it('is incremental: appending page by page equals grouping at once, and unchanged items keep identity', () => {
    next = 0;
    const entries = [
      user('a'),
      call('1', 'Read'),
      result('1'),
      says('b'),
      call('2', 'Bash'),
      call('3', 'Bash'),
      result('3'),
      result('2'),
      says('c'),
    ];
    const whole = groupEntries(entries, { groupSidechains: true }).items;
    const g = new EntryGrouper({ groupSidechains: true });
    const first = g.append(entries.slice(0, 5));
    const second = g.append(entries.slice(5));
    expect(shape(second)).toEqual(shape(whole));
    expect(second[0]).toBe(first[0]);
    expect(second[4]).not.toBe(first[4]);
    expect(g.count).toBe(entries.length);
    expect(g.append([])).toBe(second);
  });

  it('stays fast at 50,000 entries', () => {
    next = 0;
    const entries: Entry[] = [];
    for (let i = 0; i < 10_000; i++)
      entries.push(user(`q${i}`), call(`c${i}`, 'Read'), result(`c${i}`), other('progress'), says(`a${i}`));
    const g = new EntryGrouper({ groupSidechains: true });
    for (let i = 0; i < entries.length; i += 100) g.append(entries.slice(i, i + 100));
    expect(g.items).toHaveLength(30_000);
    expect(g.itemOf(49_999)).toBe(29_999);
  });
});

/** User lines as Claude Code writes them (edge_cases #5-#7, 37f83ec9 #72, session.jsonl, 1af7fc5e #0). */
const CAVEAT =
  'Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages or otherwise consider them in your response unless the user explicitly asks you to.';
const notPrompts: Array<[string, string]> = [
  [CAVEAT, 'command caveat'],
  [`<local-command-caveat>${CAVEAT}</local-command-caveat>`, 'command caveat'],
  [
    '<command-name>test-command</command-name><command-args>--verbose --output /tmp/test.log</command-args><command-message>Running a test command</command-message>',
    'local command',
  ],
  [
    '<command-name>/model</command-name>\n            <command-message>model</command-message>',
    'local command',
  ],
  ['<local-command-stdout>Command output here:\nLine 1 of output</local-command-stdout>', 'command output'],
  ['<local-command-stderr>oops</local-command-stderr>', 'command output'],
  ['<bash-input>git pull</bash-input>', 'shell command'],
  ['<bash-stdout>Fast-forward</bash-stdout><bash-stderr></bash-stderr>', 'shell output'],
  ['<task-notification>\n<task-id>aae161c</task-id>\n<status>completed</status>', 'task notification'],
  ['[Request interrupted by user for tool use]', 'interrupted'],
  ['[Request interrupted by user]', 'interrupted'],
  ['<system-reminder>The TodoWrite tool has not been used recently.</system-reminder>', 'system reminder'],
  [
    'This session is being continued from a previous conversation that ran out of context.',
    'compaction summary',
  ],
];

describe("who speaks: the You turns' predicate", () => {
  it("shows Claude Code's lines on the person's side as labelled notices, not as You", () => {
    next = 0;
    const entries = notPrompts.map(([text]) => user(text));
    const { items } = groupEntries(entries, { groupSidechains: true });
    expect(shape(items)).toEqual(entries.map(() => 'notice:user'));
    expect(items.map((i) => noticeLabel((i as Extract<ReaderItem, { type: 'notice' }>).entry))).toEqual(
      notPrompts.map(([, label]) => label),
    );
  });

  it('shows a prompt as the You turn has it: a slash command as /name args, reminders left out', () => {
    next = 0;
    const entries = [
      user(
        '<command-message>init is analyzing your codebase…</command-message>\n<command-name>/init</command-name>',
      ),
      user(
        '<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>this project</command-args>',
      ),
      user('fix the bug\n<system-reminder>a reminder</system-reminder>'),
      user('plain words'),
      user('', { images: [{ mediaType: 'image/png', bytes: 10 }] }),
    ];
    const { items } = groupEntries(entries, { groupSidechains: true });
    expect(items.map((i) => (i.type === 'message' ? i.prompt : i.type))).toEqual([
      '/init',
      '/review this project',
      'fix the bug',
      'plain words',
      '',
    ]);
  });

  it('has a You message exactly where /turns has a user turn, with its text', () => {
    next = 0;
    const entries = [
      ...notPrompts.map(([text]) => user(text)),
      user('<command-message>init is…</command-message>\n<command-name>/init</command-name>'),
      user('typed\n<system-reminder>r</system-reminder>'),
      user('meta words', { isMeta: true }),
      user('summary', { isCompactSummary: true }),
      user('a question'),
      says('an answer'),
      result('x'),
    ];
    const { items } = groupEntries(entries, { groupSidechains: true });
    const you = items.flatMap((i) =>
      i.type === 'message' && i.entry.role === 'user' ? [{ index: i.entry.index, text: i.prompt }] : [],
    );
    const turns = entries.flatMap((x) => {
      const t = turnOf(x as ProjectedEntry);
      return t?.role === 'user' ? [{ index: x.index, text: t.text }] : [];
    });
    expect(you).toEqual(turns);
    expect(you.map((t) => t.text)).toEqual(['/init', 'typed', 'a question']);
  });
});

describe('helpers', () => {
  it('classifies entries', () => {
    expect(classifyEntry(e({ role: 'user', images: [{ mediaType: 'image/png', bytes: 10 }] }))).toBe(
      'message',
    );
    expect(classifyEntry(e({ role: 'user' }))).toBe('meta');
    expect(classifyEntry(e({ role: 'user', text: '[Request interrupted by user]' }))).toBe('notice');
    expect(classifyEntry(e({ role: 'user', text: 'hello' }))).toBe('message');
    expect(classifyEntry(e({ role: 'assistant' }))).toBe('meta');
    expect(classifyEntry(e({ role: 'other', kind: 'progress', text: 'x' }))).toBe('meta');
  });
  it('finds the subagent file a Task call started', () => {
    const heads = [
      { file: 'subagents/agent-1.jsonl', prompt: 'Find X ' },
      { file: 'subagents/agent-2.jsonl', prompt: 'Find Y' },
    ];
    expect(subagentFileFor({ name: 'Agent', input: { prompt: 'Find X' } }, heads)?.file).toBe(
      'subagents/agent-1.jsonl',
    );
    expect(subagentFileFor({ name: 'Read', input: { prompt: 'Find X' } }, heads)).toBeUndefined();
    expect(subagentFileFor({ name: 'Task', input: 'x' }, heads)).toBeUndefined();
  });
  it('prefers the subagent a Task result names over matching prompts', () => {
    const heads = [
      { file: 'subagents/agent-a1.jsonl', prompt: 'Same prompt' },
      { file: 'subagents/agent-b2.jsonl', prompt: 'Same prompt' },
    ];
    const call = {
      name: 'Task',
      input: { prompt: 'Same prompt' },
      result: { index: 9, content: 'done', isError: false, agentId: 'b2' },
    };
    expect(subagentFileFor(call, heads)?.file).toBe('subagents/agent-b2.jsonl');
  });
  it('summarises a run', () => {
    expect(summarizeCalls([{ name: 'Read' }, { name: 'Bash' }, { name: 'Read' }])).toBe('Read ×2, Bash');
  });
});
