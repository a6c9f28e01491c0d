import { describe, expect, it } from 'vitest';
import { activityDays, inActivityWindow, ACTIVITY_MIN_MS, DAY_MS } from './doc-limits.js';

describe('doc limits', () => {
  it('believes activity from 2000-01-01 to one day past now', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(inActivityWindow(ACTIVITY_MIN_MS, now)).toBe(true);
    expect(inActivityWindow(ACTIVITY_MIN_MS - 1, now)).toBe(false);
    expect(inActivityWindow(now + DAY_MS, now)).toBe(true);
    expect(inActivityWindow(now + DAY_MS + 1, now)).toBe(false);
    expect(inActivityWindow(Date.parse('+275760-09-13T00:00:00Z'), now)).toBe(false);
    expect(inActivityWindow(Number.NaN, now)).toBe(false);
  });

  it('counts the calendar rows a summary would write without building them', () => {
    const d = (iso: string) => Date.parse(iso);
    expect(activityDays([])).toBe(0);
    expect(activityDays([[d('2025-03-01T23:00:00Z'), d('2025-03-02T01:00:00Z')]])).toBe(2);
    expect(
      activityDays([
        [d('2025-03-01T10:00:00Z'), d('2025-03-01T10:00:00Z')],
        [d('2025-03-01T12:00:00Z'), d('2025-03-01T13:00:00Z')],
      ]),
    ).toBe(2);
    expect(activityDays([[-8640000000000000, 8640000000000000]])).toBe(200_000_001);
    expect(activityDays([[5, 1]])).toBe(0);
  });
});
