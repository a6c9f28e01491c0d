import { describe, expect, it } from 'vitest';
import { ignoredTerms, searchTerms, splitSnippet } from './search-terms.js';

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

describe('ignoredTerms', () => {
  it('names the terms searchTerms drops, as typed and once each', () => {
    expect(ignoredTerms('deploy 🎉 -> ✅')).toEqual(['🎉', '->', '✅']);
    // Quotes and prefix stars stay as typed; a quoted phrase with a word in it is searched.
    expect(ignoredTerms('"->" "🎉 ok" 🎉* 🎉 *')).toEqual(['"->"', '🎉*', '🎉', '*']);
    expect(ignoredTerms('"" 🚀"🚀"')).toEqual(['""', '🚀', '"🚀"']);
  });

  it('is empty when every term is searched; an unbalanced quote is no term', () => {
    expect(ignoredTerms('conf* "pool si"* -x a\u0000b')).toEqual([]);
    expect(ignoredTerms('deploy "')).toEqual([]);
    expect(ignoredTerms('   ')).toEqual([]);
  });

  it('with searchTerms, accounts for every term typed', () => {
    const q = 'a 🎉 "b c" -> d*';
    expect(searchTerms(q).map((t) => t.text)).toEqual(['a', 'b c', 'd']);
    expect(ignoredTerms(q)).toEqual(['🎉', '->']);
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
