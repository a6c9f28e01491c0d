import { describe, expect, it } from 'vitest';
import {
  EM_DASH,
  formatClock,
  formatCount,
  formatCountOf,
  formatDuration,
  formatRelative,
  formatTimestamp,
  formatTokens,
  formatUtc,
  middleEllipsis,
  shortModel,
  totalTokens,
} from './format.js';

describe('formatTokens', () => {
  it('compacts counts', () => {
    expect(formatTokens(950)).toBe('950');
    expect(formatTokens(1234)).toBe('1.2k');
    expect(formatTokens(34_000)).toBe('34k');
    expect(formatTokens(999_999)).toBe('1M');
    expect(formatTokens(5_600_000)).toBe('5.6M');
    expect(formatTokens(1_200_000_000)).toBe('1.2B');
    expect(formatTokens(null)).toBe(EM_DASH);
  });
  it('sums a usage record', () => {
    expect(totalTokens({ input: 1, output: 2, cacheWrite: 3, cacheRead: 4 })).toBe(10);
    expect(totalTokens(null)).toBe(0);
  });
});

describe('timestamps and text', () => {
  it('formats UTC timestamps', () => {
    expect(formatTimestamp('2025-07-14T22:59:30.699Z')).toBe('2025-07-14 22:59');
    expect(formatTimestamp('2025-07-14T23:59:30+02:00')).toBe('2025-07-14 21:59');
    expect(formatTimestamp(null)).toBe(EM_DASH);
    expect(formatTimestamp('garbage')).toBe(EM_DASH);
    expect(formatClock('2025-07-14T22:59:30.699Z')).toBe('22:59:30');
    expect(formatClock(undefined)).toBe('');
  });
  it('formats relative times', () => {
    const now = Date.parse('2026-03-11T12:00:00Z');
    expect(formatRelative('2026-03-11T11:59:45Z', now)).toBe('just now');
    expect(formatRelative('2026-03-11T11:30:00Z', now)).toBe('30 min ago');
    expect(formatRelative('2026-03-11T07:00:00Z', now)).toBe('5 h ago');
    expect(formatRelative('2026-03-10T11:00:00Z', now)).toBe('1 day ago');
    expect(formatRelative('2025-01-01T00:00:00Z', now)).toBe('2025-01-01');
  });
  it('counts, ellipses and model names', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCountOf(1, 'compaction')).toBe('1 compaction');
    expect(formatCountOf(0, 'compaction')).toBe('0 compactions');
    expect(formatCountOf(1204, 'image')).toBe('1,204 images');
    expect(formatCountOf(2, 'entry', 'entries')).toBe('2 entries');
    expect(middleEllipsis('/home/me/projects/deep/nested/app', 16)).toBe('/home/me…ted/app');
    expect(middleEllipsis('short', 16)).toBe('short');
    expect(shortModel('claude-opus-4-1-20250805')).toBe('opus-4-1');
    expect(shortModel(null)).toBe(EM_DASH);
  });
});

describe('one rule for durations and zoned times on every view', () => {
  it('reads no active time as 0s and an unknown one as an em dash', () => {
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(null)).toBe(EM_DASH);
    expect(formatDuration(undefined)).toBe(EM_DASH);
    expect(formatDuration(850)).toBe('850ms');
    expect(formatDuration(2_739_786)).toBe('45m 39s');
  });
  it('shows just the em dash for a missing time, not "— UTC"', () => {
    expect(formatUtc('2025-08-24T18:36:16.952Z')).toBe('2025-08-24 18:36 UTC');
    expect(formatUtc(null)).toBe(EM_DASH);
    expect(formatUtc('garbage')).toBe(EM_DASH);
  });
});
