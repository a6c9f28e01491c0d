import { describe, expect, it } from 'vitest';
import { MAX_RANGE_DAYS } from '../../core/doc-limits.js';
import { StoreInputError } from '../contract.js';
import { dayRange, daySlices, entriesPerDay, splitByDay, utcDay } from './split-by-day.js';

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

  it('clips a stored poisoned segment to 2000-01-01 .. now + 1 day (issue 42)', () => {
    const now = ms('2026-01-01T12:00:00Z');
    const days = splitByDay([[-8640000000000000, 8640000000000000]], now);
    const keys = [...days.keys()];
    expect(keys[0]).toBe('2000-01-01');
    expect(keys.at(-1)).toBe('2026-01-02');
    expect(keys).toHaveLength(9499);
  });

  it('reads overlapping or unsorted segments once per instant', () => {
    const day = (d: string) => [ms(`${d}T00:00:00Z`), ms(`${d}T23:59:59.999Z`)] as [number, number];
    const now = ms('2026-01-01T00:00:00Z');
    const overlapping = Array.from(
      { length: 1000 },
      () => [ms('2020-01-01T00:00:00Z'), ms('2025-01-01T00:00:00Z')] as [number, number],
    );
    expect(splitByDay(overlapping, now).size).toBe(1828);
    expect(splitByDay([day('2025-03-02'), day('2025-03-01')], now)).toEqual(
      new Map([['2025-03-02', 86_399_999]]),
    );
  });
});

describe('dayRange', () => {
  it(`refuses a range of more than ${MAX_RANGE_DAYS} days, naming the cap`, () => {
    expect(dayRange('2025-01-01', '2025-12-31')).toEqual({ from: '2025-01-01', to: '2025-12-31' });
    expect(() => dayRange('0001-01-01', '9999-12-31')).toThrow(StoreInputError);
    expect(() => dayRange('0001-01-01', '9999-12-31')).toThrow(`at most ${MAX_RANGE_DAYS} days`);
    expect(() => dayRange('2025-13-45', '2025-12-31')).toThrow('from must be a day');
  });
});

describe('entriesPerDay', () => {
  it('counts entries per UTC day of their timestamps, leaving out the unparseable and those outside the window', () => {
    expect(
      entriesPerDay([
        { timestamp: '2025-07-01T23:59:59.000Z' },
        { timestamp: '2025-07-02T00:00:00.000Z' },
        { timestamp: '2025-07-02T10:00:00+02:00' },
        { timestamp: 'yesterday' },
        { timestamp: '+275760-09-13T00:00:00.000Z' },
        { timestamp: '1999-12-31T23:59:59.000Z' },
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

describe('daySlices', () => {
  it('cuts a range into consecutive slices of at most n days', () => {
    expect(daySlices('2025-01-30', '2025-02-03', 2)).toEqual([
      { from: '2025-01-30', to: '2025-01-31' },
      { from: '2025-02-01', to: '2025-02-02' },
      { from: '2025-02-03', to: '2025-02-03' },
    ]);
    expect(daySlices('2025-01-01', '2025-01-01', 31)).toEqual([{ from: '2025-01-01', to: '2025-01-01' }]);
    expect(daySlices('2025-01-02', '2025-01-01', 31)).toEqual([]);
  });
});
