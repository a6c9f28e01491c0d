import { describe, expect, it } from 'vitest';
import { entriesPerDay, splitByDay, utcDay } from './split-by-day.js';

const ms = (iso: string) => Date.parse(iso);
const MIN = 60_000;

describe('splitByDay', () => {
  it('splits a segment that crosses midnight', () => {
    expect(splitByDay([[ms('2025-03-01T23:30:00Z'), ms('2025-03-02T00:45:00Z')]])).toEqual(
      new Map([
        ['2025-03-01', 30 * MIN],
        ['2025-03-02', 45 * MIN],
      ]),
    );
  });

  it('spans whole days in between and sums segments of one day', () => {
    const days = splitByDay([
      [ms('2025-03-01T22:00:00Z'), ms('2025-03-03T01:00:00Z')],
      [ms('2025-03-03T05:00:00Z'), ms('2025-03-03T05:10:00Z')],
    ]);
    expect(days).toEqual(
      new Map([
        ['2025-03-01', 120 * MIN],
        ['2025-03-02', 24 * 60 * MIN],
        ['2025-03-03', 70 * MIN],
      ]),
    );
  });

  it('marks the day of a single timestamp and of a segment ending at midnight', () => {
    expect(splitByDay([[ms('2025-03-01T12:00:00Z'), ms('2025-03-01T12:00:00Z')]])).toEqual(
      new Map([['2025-03-01', 0]]),
    );
    expect(splitByDay([[ms('2025-03-01T23:00:00Z'), ms('2025-03-02T00:00:00Z')]])).toEqual(
      new Map([
        ['2025-03-01', 60 * MIN],
        ['2025-03-02', 0],
      ]),
    );
  });

  it('ignores malformed segments', () => {
    expect(
      splitByDay([
        [5, 1],
        [Number.NaN, 3],
      ]),
    ).toEqual(new Map());
    expect(utcDay(ms('2025-12-31T23:59:59.999Z'))).toBe('2025-12-31');
  });
});

describe('entriesPerDay', () => {
  it('counts entries per UTC day of their timestamps, leaving out the unparseable', () => {
    expect(
      entriesPerDay([
        { timestamp: '2025-07-01T23:59:59.000Z' },
        { timestamp: '2025-07-02T00:00:00.000Z' },
        { timestamp: '2025-07-02T10:00:00+02:00' },
        { timestamp: 'yesterday' },
        {},
      ]),
    ).toEqual(
      new Map([
        ['2025-07-01', 1],
        ['2025-07-02', 2],
      ]),
    );
  });
});
