import { describe, expect, it } from 'vitest';
import { entry } from '../contract/view-fixtures.js';
import { entrySearchText, SEARCH_TEXT_CAP } from './entry-search-text.js';

describe('entrySearchText', () => {
  it('joins text, thinking, tool inputs and tool results', () => {
    const e = entry(0, 'assistant', 'Answer', {
      thinking: 'Reasoning',
      toolUses: [{ id: 't', name: 'Read', input: { path: '/a.ts', limit: 5 } }],
      toolResults: [{ toolUseId: 't', content: 'file body', isError: false }],
    });
    expect(entrySearchText(e)).toBe('Answer\nReasoning\nRead\n{"limit":5,"path":"/a.ts"}\nfile body');
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
