import { describe, expect, it } from 'vitest';
import { entryKind, type EntryLike } from './entry-kind.js';

let next = 0;
function e(partial: Partial<EntryLike> & Pick<EntryLike, 'role'>): EntryLike {
  const index = partial.index ?? next++;
  return { index, byteStart: 0, byteEnd: 1, kind: partial.role, ...partial };
}

describe('entryKind', () => {
  it('names what was said as the reader heads it', () => {
    expect(entryKind(e({ role: 'user', text: 'fix the build' }))).toBe('You');
    expect(entryKind(e({ role: 'user', images: [{ mediaType: 'image/png', bytes: 3 }] }))).toBe('You');
    expect(entryKind(e({ role: 'assistant', text: 'Done.' }))).toBe('Claude');
    expect(entryKind(e({ role: 'assistant', thinking: 'hmm' }))).toBe('Claude');
  });

  it('names tool calls and results', () => {
    expect(entryKind(e({ role: 'assistant', toolUses: [{ id: 't', name: 'Bash', input: {} }] }))).toBe(
      'tool call',
    );
    expect(
      entryKind(e({ role: 'tool_result', toolResults: [{ toolUseId: 't', content: 'ok', isError: false }] })),
    ).toBe('tool result');
  });

  it("names a user line that is not the person's by what it is, never 'user'", () => {
    expect(entryKind(e({ role: 'user', text: 'the story so far', isCompactSummary: true }))).toBe(
      'compaction summary',
    );
    expect(entryKind(e({ role: 'user', text: '<system-reminder>x</system-reminder>' }))).toBe(
      'system reminder',
    );
    expect(entryKind(e({ role: 'user', text: '[Request interrupted by user]' }))).toBe('interrupted');
    expect(entryKind(e({ role: 'user', text: 'do X', isSidechain: true }))).toBe('subagent prompt');
    expect(entryKind(e({ role: 'user', text: 'prompt body', isMeta: true }))).toBe('added by Claude Code');
  });

  it("names a slash command's prompt by the command on the line before it", () => {
    const command = e({
      role: 'user',
      text: '<command-message>init is…</command-message>\n<command-name>/init</command-name>',
    });
    const prompt = e({ role: 'user', text: 'Please analyse this codebase', isMeta: true });
    expect(entryKind(command)).toBe('You');
    expect(entryKind(prompt, command)).toBe('prompt of /init');
    expect(entryKind(prompt)).toBe('added by Claude Code');
  });

  it('names system lines, malformed lines and bookkeeping by their kind', () => {
    expect(entryKind(e({ role: 'system', kind: 'system:compact_boundary', text: 'compacted' }))).toBe(
      'system:compact_boundary',
    );
    expect(entryKind(e({ role: 'other', kind: 'malformed', malformed: true, text: '{' }))).toBe(
      'malformed line',
    );
    expect(entryKind(e({ role: 'other', kind: 'progress' }))).toBe('progress');
    expect(entryKind(e({ role: 'other', kind: 'summary', text: 'A title' }))).toBe('summary');
  });
});
