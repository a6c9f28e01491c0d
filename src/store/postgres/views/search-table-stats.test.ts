import { describe, expect, it } from 'vitest';
import { expectedMatches, plainLexeme, planSearch, type TermStats } from './search-table-stats.js';

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

describe('planSearch', () => {
  const window = 5_000;

  it('walks for a word in a large share of the history', () => {
    expect(planSearch(100_000, window, 200_000)).toEqual({ way: 'walk' });
    // 200 MB of history: "the" in half the entries, "with" in a quarter.
    expect(planSearch(21_700, window, 43_400)).toEqual({ way: 'walk' });
    expect(planSearch(10_900, window, 43_400)).toEqual({ way: 'walk' });
  });

  it('collects a word the walk would look far for, up to twice what is expected', () => {
    // In an eighth of 200 MB: the walk would visit 40,000 entries for 5,400 matches.
    expect(planSearch(5_400, window, 43_400)).toEqual({ way: 'collect', cap: 10_800 });
    // The same share of a history five times larger: the walk costs as much, collecting more.
    expect(planSearch(27_000, window, 217_000)).toEqual({ way: 'walk' });
    // 20,000 matches in 1,000,000 entries: walking would visit 250,000.
    expect(planSearch(20_000, window, 1_000_000)).toEqual({ way: 'collect', cap: 40_000 });
  });

  it('collects when the window holds every expected match, or nothing is expected', () => {
    expect(planSearch(4_000, window, 4_100)).toEqual({ way: 'collect', cap: 10_000 });
    expect(planSearch(0, window, 200_000)).toEqual({ way: 'collect', cap: 10_000 });
    expect(planSearch(0, 9_020, 0)).toEqual({ way: 'collect', cap: 18_040 });
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
