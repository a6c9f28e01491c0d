import { describe, expect, it } from 'vitest';
import { EM_DASH, formatBytes, formatDuration } from './display-format.js';

describe('formatDuration', () => {
  it('shows an em dash when the API could not derive a duration', () => {
    expect(formatDuration(null)).toBe(EM_DASH);
    expect(formatDuration(undefined)).toBe(EM_DASH);
    expect(formatDuration(Number.NaN)).toBe(EM_DASH);
    expect(formatDuration(-5)).toBe(EM_DASH);
    expect(EM_DASH).toBe('\u2014');
  });
  it('scales from milliseconds to days', () => {
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(850)).toBe('850ms');
    expect(formatDuration(45_000)).toBe('45s');
    expect(formatDuration(192_000)).toBe('3m 12s');
    expect(formatDuration(3_900_000)).toBe('1h 05m');
    expect(formatDuration(183_600_000)).toBe('2d 3h');
  });
  it('cuts rather than rounds, so every surface reads one duration alike', () => {
    // 45 min 39.786 s: the UI, `transcripts show` and the Markdown export all say 45m 39s.
    expect(formatDuration(2_739_786)).toBe('45m 39s');
    expect(formatDuration(12_578_152)).toBe('3h 29m');
    expect(formatDuration(59_999)).toBe('59s');
  });
});

describe('formatBytes', () => {
  it('uses binary units', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1229)).toBe('1.2 KB');
    expect(formatBytes(4_370_000)).toBe('4.2 MB');
    expect(formatBytes(5 * 1024 ** 4)).toBe('5 TB');
    expect(formatBytes(-1)).toBe(EM_DASH);
  });
});
