import { describe, expect, it } from 'vitest';
import type { ProjectedEntry } from '../core/documents.js';
import {
  CursorError,
  fillPage,
  formatCursor,
  oneLine,
  parseCursor,
  readPage,
  renderEntry,
  renderTurn,
  toolCallLine,
  trimText,
} from './compact.js';

const entry = (e: Partial<ProjectedEntry> & { index: number }): ProjectedEntry => ({
  byteStart: 0,
  byteEnd: 0,
  role: 'assistant',
  kind: 'assistant',
  ...e,
});

describe('cursors', () => {
  it('reads what it writes, and an entry number', () => {
    expect(parseCursor(undefined)).toEqual({ at: 0, char: 0 });
    expect(parseCursor('')).toEqual({ at: 0, char: 0 });
    expect(parseCursor('120')).toEqual({ at: 120, char: 0 });
    expect(parseCursor(' 12.4000 ')).toEqual({ at: 12, char: 4000 });
    expect(formatCursor({ at: 12, char: 4000 })).toBe('12.4000');
    expect(formatCursor({ at: 7, char: 0 })).toBe('7');
  });

  it('refuses anything else, saying what to pass', () => {
    for (const bad of ['-1', 'abc', '1.2.3', '1e5', '12345678901'])
      expect(() => parseCursor(bad), bad).toThrow(CursorError);
    expect(() => parseCursor('x')).toThrow(/nextCursor of the previous page/);
  });
});

describe('rendering', () => {
  it('puts a tool call on one line, naming its most telling input', () => {
    expect(toolCallLine('Bash', { command: 'npm test\n  --run', description: 'tests' })).toBe(
      '→ Bash: npm test --run',
    );
    expect(toolCallLine('Edit', { file_path: 'src/a.ts', old_string: 'x' })).toBe('→ Edit: src/a.ts');
    expect(toolCallLine('Custom', { a: 1 })).toBe('→ Custom: {"a":1}');
    const long = toolCallLine('Bash', { command: 'x'.repeat(500) });
    expect(long.length).toBeLessThan(240);
    expect(long).toMatch(/… \(\+300 chars\)$/);
  });

  it('trims tool results and leaves thinking out unless asked', () => {
    const e = entry({
      index: 3,
      timestamp: '2025-08-21T10:02:33.000Z',
      model: 'claude-opus-4-1',
      thinking: 'secret plan',
      text: 'Running the tests.',
      toolUses: [{ id: 't1', name: 'Bash', input: { command: 'npm test' } }],
    });
    expect(renderEntry(e)).toBe(
      '[#3 · Claude · 2025-08-21 10:02 · claude-opus-4-1]\nRunning the tests.\n→ Bash: npm test\n\n',
    );
    expect(renderEntry(e, { thinking: true })).toContain('[thinking] secret plan\n');
    const result = entry({
      index: 4,
      role: 'user',
      kind: 'user',
      toolResults: [{ toolUseId: 't1', content: 'line\n'.repeat(1000), isError: true }],
    });
    const r = renderEntry(result);
    expect(r.startsWith('[#4 · tool result]\n← error: line line')).toBe(true);
    expect(r.length).toBeLessThan(500);
  });

  it("drops a tool's terminal colours and other control characters, keeping newlines", () => {
    const e = entry({
      index: 2,
      role: 'tool_result',
      kind: 'user',
      toolResults: [{ toolUseId: 't', content: '\x1b[0;32m✓\x1b[0m ok\x07', isError: false }],
    });
    expect(renderEntry(e)).toBe('[#2 · tool result]\n← result: ✓ ok\n\n');
    expect(renderEntry(entry({ index: 3, text: 'a\x1b[1mb\x1b[0m\n\tc' }))).toBe(
      '[#3 · Claude]\nab\n\tc\n\n',
    );
  });

  it('gives nothing for an entry with nothing to show', () => {
    expect(renderEntry(entry({ index: 1, kind: 'progress', role: 'system' }))).toBe('');
    expect(renderEntry(entry({ index: 1, thinking: 'only thinking' }))).toBe('');
  });

  it('names the person for a prompt, with headings in Markdown', () => {
    const e = entry({ index: 0, role: 'user', kind: 'user', text: 'fix the deploy script' });
    expect(renderEntry(e, { style: 'markdown' })).toBe('#### #0 · You\nfix the deploy script\n\n');
    expect(
      renderTurn({
        index: 9,
        file: 'subagents/agent-a.jsonl',
        role: 'assistant',
        timestamp: null,
        text: 'ok',
      }),
    ).toBe('[#9 · Claude · subagents/agent-a.jsonl]\nok\n\n');
  });

  it('cuts text with a note, never inside a surrogate pair', () => {
    expect(trimText('abcdef', 10)).toBe('abcdef');
    expect(trimText('abcdef', 3)).toBe('abc… (+3 chars)');
    expect(oneLine('a😀b', 2)).toBe('a… (+3 chars)');
  });
});

describe('paging', () => {
  it('fills up to the room and says where to go on, mid-block if need be', () => {
    const blocks = ['aaaa', '', 'bbbbbb', 'cc'];
    expect(fillPage(blocks, { at: 10, char: 0 }, 100)).toEqual({ text: 'aaaabbbbbbcc', next: null });
    expect(fillPage(blocks, { at: 10, char: 0 }, 7)).toEqual({ text: 'aaaabbb', next: { at: 12, char: 3 } });
    // Going on: the blocks from the cursor's entry, its first characters already given.
    expect(fillPage(blocks.slice(2), { at: 12, char: 3 }, 4)).toEqual({
      text: 'bbbc',
      next: { at: 13, char: 1 },
    });
    expect(fillPage(['ab😀cd'], { at: 0, char: 0 }, 3)).toEqual({ text: 'ab', next: { at: 0, char: 2 } });
  });

  it('gives back the whole text, page by page, for any budget', async () => {
    const items = Array.from({ length: 57 }, (_, i) => (i % 5 === 0 ? '' : `${i}:${'x'.repeat(i * 13)}\n`));
    const whole = items.join('');
    const load = async (offset: number) => ({ items: items.slice(offset, offset + 10), total: items.length });
    for (const budget of [7, 50, 333, 5000]) {
      let text = '';
      let cursor = parseCursor(undefined);
      let pages = 0;
      for (;;) {
        const page = await readPage(load, (s) => s, cursor, budget);
        expect(page.text.length).toBeLessThanOrEqual(budget);
        expect(page.total).toBe(57);
        text += page.text;
        pages++;
        if (!page.next) break;
        cursor = parseCursor(formatCursor(page.next));
      }
      expect(text, `budget ${budget}`).toBe(whole);
      expect(pages).toBeGreaterThanOrEqual(Math.ceil(whole.length / budget));
    }
  });
});
