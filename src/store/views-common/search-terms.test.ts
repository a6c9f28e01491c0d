import { describe, expect, it } from 'vitest';
import { searchTerms, splitSnippet } from './search-terms.js';

describe('searchTerms', () => {
  it('keeps words, phrases and prefixes; drops what has no letter or digit', () => {
    expect(searchTerms('conf* "pool si"* -x')).toEqual([
      { text: 'conf', prefix: true },
      { text: 'pool si', prefix: true },
      { text: '-x', prefix: false },
    ]);
    expect(searchTerms('  " * 🚀 a\u0000b')).toEqual([{ text: 'a b', prefix: false }]);
  });
});

describe('splitSnippet', () => {
  it('splits marked snippets into plain segments', () => {
    expect(splitSnippet('…the \u0001pool\u0002 size \u0001pool\u0002…')).toEqual([
      { text: '…the ', mark: false },
      { text: 'pool', mark: true },
      { text: ' size ', mark: false },
      { text: 'pool', mark: true },
      { text: '…', mark: false },
    ]);
    expect(splitSnippet('\u0001a\u0002\u0001b\u0002')).toEqual([{ text: 'ab', mark: true }]);
    expect(splitSnippet('')).toEqual([]);
  });
});
