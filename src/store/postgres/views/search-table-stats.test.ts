import { describe, expect, it } from 'vitest';
import {
  expectedMatches,
  plainLexeme,
  planSearch,
  RANGE_MARGIN,
  SearchCutoffs,
  type TermStats,
} from './search-table-stats.js';

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

  // Cases measured on the bench history: 43,400 entries (200 MB) and 222,000 (1 GB).
  it('walks for a word in a large share of the history', () => {
    expect(planSearch(21_900, window, 43_400)).toEqual({ way: 'walk' }); // "the": walk 6 ms, range 10
    expect(planSearch(112_000, window, 222_000)).toEqual({ way: 'walk' }); // "the": 7 ms, range 14.5
    expect(planSearch(56_000, window, 222_000)).toEqual({ way: 'walk' }); // "with": 11 ms, range 14
  });

  it('takes a recent range for a word in a middling share, reaching past the window by a margin', () => {
    // "project", in an eighth of 1 GB: range 13 ms, walk 22, collect 49.
    const plan = planSearch(27_500, window, 222_000);
    expect(plan).toMatchObject({ way: 'range' });
    // The entries expected to hold the window and one more, with the margin.
    const entries = (plan as { entries: number }).entries;
    expect(entries).toBe(Math.ceil((RANGE_MARGIN * 5_001 * 222_000) / 27_500));
    expect(entries).toBeGreaterThan(40_000);
    // 20,000 matches in 1,000,000 entries: the walk would visit 250,000, collecting all 20,000.
    expect(planSearch(20_000, window, 1_000_000)).toMatchObject({ way: 'range' });
  });

  it('collects a word the other ways would look far for, up to twice what is expected', () => {
    // In an eighth of 200 MB: collect 7 ms, range 8.7, walk 22.5.
    expect(planSearch(5_400, window, 43_400)).toEqual({ way: 'collect', cap: 10_800 });
    expect(planSearch(7_700, window, 43_400)).toEqual({ way: 'collect', cap: 15_400 }); // 9.3 ms, range 11
  });

  it('collects when the window holds every expected match, or nothing is expected', () => {
    expect(planSearch(4_000, window, 4_100)).toEqual({ way: 'collect', cap: 10_000 });
    expect(planSearch(4_800, window, 222_000)).toEqual({ way: 'collect', cap: 10_000 });
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

describe('SearchCutoffs', () => {
  it('remembers a cutoff per search until it is replaced or forgotten', () => {
    const cutoffs = new SearchCutoffs();
    expect(cutoffs.get('a')).toBeUndefined();
    cutoffs.set('a', 120);
    cutoffs.set('b', 7);
    expect(cutoffs.get('a')).toBe(120);
    cutoffs.set('a', 130);
    expect(cutoffs.get('a')).toBe(130);
    cutoffs.set('a', null); // the range held too few
    expect(cutoffs.get('a')).toBeUndefined();
    expect(cutoffs.get('b')).toBe(7);
  });

  it('keeps the 512 most recently used', () => {
    const cutoffs = new SearchCutoffs();
    for (let i = 0; i < 512; i++) cutoffs.set(`q${i}`, i);
    expect(cutoffs.get('q0')).toBe(0); // used: now the most recent
    cutoffs.set('new', 1);
    expect(cutoffs.get('q1')).toBeUndefined();
    expect(cutoffs.get('q0')).toBe(0);
    expect(cutoffs.get('q2')).toBe(2);
    expect(cutoffs.get('new')).toBe(1);
  });
});
