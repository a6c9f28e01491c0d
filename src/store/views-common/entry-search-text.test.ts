import { describe, expect, it } from 'vitest';
import { entry } from '../contract/view-fixtures.js';
import { entrySearchText, SEARCH_TEXT_CAP, toolInputText } from './entry-search-text.js';

describe('entrySearchText', () => {
  it('joins text, thinking, tool inputs and tool results', () => {
    const e = entry(0, 'assistant', 'Answer', {
      thinking: 'Reasoning',
      toolUses: [{ id: 't', name: 'Read', input: { path: '/a.ts', limit: 5 } }],
      toolResults: [{ toolUseId: 't', content: 'file body', isError: false }],
    });
    expect(entrySearchText(e)).toBe('Answer\nReasoning\nRead\nlimit: 5\npath: /a.ts\nfile body');
  });

  it('gives tool inputs as their keys and values, strings as they are, in one order whatever the key order', () => {
    const input = {
      command: 'cd /tmp\nzebra --flag\ttabbed "quoted"',
      opts: { b: [1, 'two'], a: true },
      none: null,
    };
    const text = toolInputText(input);
    expect(text).toBe('command: cd /tmp\nzebra --flag\ttabbed "quoted"\nopts:\na: true\nb: 1\nb: two');
    // The words after a line break and a tab stand alone, as a tokenizer sees them.
    expect(text.split(/[^A-Za-z0-9]+/)).toEqual(expect.arrayContaining(['zebra', 'tabbed', 'quoted']));
    expect(toolInputText({ opts: { a: true, b: [1, 'two'] }, command: input.command })).toBe(text);
    expect(toolInputText('plain')).toBe('plain');
    expect(toolInputText([{ x: 1 }, 'y'])).toBe('x: 1\ny');
  });

  it('caps the indexed text and strips the snippet markers', () => {
    const long = entry(0, 'tool_result', undefined, {
      toolResults: [{ toolUseId: 't', content: 'x'.repeat(100_000), isError: false }],
    });
    expect(entrySearchText(long)).toHaveLength(SEARCH_TEXT_CAP);
    expect(entrySearchText(entry(0, 'user', 'a\u0001b\u0002c'))).toBe('a b c');
    expect(entrySearchText(entry(0, 'system', undefined))).toBe('');
  });
});
