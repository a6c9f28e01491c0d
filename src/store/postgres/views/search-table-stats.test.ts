import { describe, expect, it } from 'vitest';
import { expectedMatches, plainLexeme, type TermStats } from './search-table-stats.js';

const stats: TermStats = {
  rows: 200_000,
  shares: new Map([
    ['the', 0.5],
    ['file', 0.3],
    ['pomodoro', 0.02],
  ]),
};

describe('expectedMatches', () => {
  it('multiplies the shares of words that all must match', () => {
    expect(expectedMatches(['the'], stats)).toBe(100_000);
    expect(expectedMatches(['the', 'file'], stats)).toBeCloseTo(30_000);
    expect(expectedMatches(['pomodoro'], stats)).toBe(4_000);
  });

  it('promises nothing for a word the statistics do not know, a phrase or a prefix', () => {
    expect(expectedMatches(['the', 'zebra'], stats)).toBe(0);
    expect(expectedMatches(['the', null], stats)).toBe(0);
    expect(expectedMatches([], stats)).toBe(0);
    expect(expectedMatches(['the'], null)).toBe(0);
  });
});

describe('plainLexeme', () => {
  it('is the lower-cased word for one plain ASCII word', () => {
    expect(plainLexeme('The', false)).toBe('the');
    expect(plainLexeme(' utf8 ', false)).toBe('utf8');
  });

  it('is null for prefixes, several words and other scripts', () => {
    expect(plainLexeme('the', true)).toBeNull();
    expect(plainLexeme('read the file', false)).toBeNull();
    expect(plainLexeme('cafe au lait', false)).toBeNull();
    expect(plainLexeme('日本語', false)).toBeNull();
    expect(plainLexeme('', false)).toBeNull();
  });
});
