import { describe, expect, it } from 'vitest';
import {
  activeTimeMs,
  bridgeGaps,
  activityFromTimestamps,
  addActivity,
  mergeActivity,
  runtimeMs,
  type Segment,
} from './active-time.js';

const MIN = 60_000;
const t = (m: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, 0) + m * MIN).toISOString();

/** Reference: the definition over raw timestamps. */
function naive(ts: number[], threshold: number): number | null {
  const s = [...ts].sort((a, b) => a - b);
  if (s.length < 2 || s[s.length - 1] === s[0]) return null;
  let a = 0;
  for (let i = 1; i < s.length; i++) {
    const g = s[i]! - s[i - 1]!;
    if (g <= threshold) a += g;
  }
  return a;
}

describe('active time', () => {
  it('is null for no or one timestamp', () => {
    expect(activeTimeMs(activityFromTimestamps([]), 5 * MIN)).toBeNull();
    expect(activeTimeMs(activityFromTimestamps([t(0)]), 5 * MIN)).toBeNull();
    expect(runtimeMs(activityFromTimestamps([t(0), t(0)]))).toBeNull();
  });
  it('skips unparseable timestamps', () => {
    const seg = activityFromTimestamps(['nope', t(0), undefined, '', t(3)]);
    expect(activeTimeMs(seg, 5 * MIN)).toBe(3 * MIN);
  });
  it('counts a gap exactly at the threshold and drops one just over it', () => {
    expect(activeTimeMs(activityFromTimestamps([t(0), t(5)]), 5 * MIN)).toBe(5 * MIN);
    const seg = activityFromTimestamps([t(0), t(1), new Date(Date.parse(t(6)) + 1).toISOString()]);
    expect(activeTimeMs(seg, 5 * MIN)).toBe(1 * MIN);
    expect(runtimeMs(seg)).toBe(6 * MIN + 1);
  });
  it('matches the raw-timestamp definition for any threshold at or above the floor', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let trial = 0; trial < 200; trial++) {
      const ts = Array.from({ length: 2 + Math.floor(rnd() * 40) }, () => Math.floor(rnd() * 120 * MIN));
      const segs = activityFromTimestamps(ts); // inserted out of order
      for (const threshold of [MIN, 2 * MIN, 5 * MIN, 30 * MIN]) {
        expect(activeTimeMs(segs, threshold)).toBe(naive(ts, threshold));
      }
    }
  });
  it('merges segment lists from two sources as if the timestamps were merged', () => {
    const a: Segment[] = activityFromTimestamps([t(0), t(1), t(20)]);
    const b: Segment[] = activityFromTimestamps([t(2), t(10)]);
    const merged = mergeActivity(a, b);
    expect(merged).toEqual(activityFromTimestamps([t(0), t(1), t(20), t(2), t(10)]));
    expect(addActivity([[0, 10]], 5)).toEqual([[0, 10]]);
  });
});

describe('bridgeGaps', () => {
  it('fills the gaps active time counts, so its stretches add up to it', () => {
    const segments: Array<[number, number]> = [
      [0, 10_000],
      [70_000, 80_000], // 60 s gap: counted at a 5-minute threshold
      [500_000, 510_000], // 420 s gap: not counted
    ];
    const bridged = bridgeGaps(segments, 300_000);
    expect(bridged).toEqual([
      [0, 80_000],
      [500_000, 510_000],
    ]);
    const total = bridged.reduce((sum, [a, b]) => sum + (b - a), 0);
    expect(total).toBe(activeTimeMs(segments, 300_000));
    expect(segments[0]).toEqual([0, 10_000]); // the input is left as it was
  });
});
