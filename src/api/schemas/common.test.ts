import { z } from '@hono/zod-openapi';
import { afterEach, describe, expect, it } from 'vitest';
import { readIsoTime } from '../../core/iso-time.js';
import { isoBound, isoParam, rangeProblem } from './common.js';

const originalTz = process.env.TZ;
afterEach(() => {
  if (originalTz === undefined) delete process.env.TZ;
  else process.env.TZ = originalTz;
});

describe('ISO query values', () => {
  it('accepts a range whose bare-date end is the day of a timed start', () => {
    expect(rangeProblem('2025-08-24T19:00:00Z', '2025-08-24')).toBeNull();
    expect(rangeProblem('2025-08-24', '2025-08-24')).toBeNull();
    expect(rangeProblem('2025-08-25T00:00:00Z', '2025-08-24')).toMatch(
      /^query parameter from: must not be after to/,
    );
    expect(rangeProblem('2025-09-01', '2025-08-01')).toMatch(/^query parameter from/);
  });

  it('reads a time without a zone as UTC, whatever the local zone', () => {
    process.env.TZ = 'Asia/Tokyo';
    expect(new Date('2025-09-03T05:00').getUTCHours()).toBe(20); // the zone is in effect
    expect(isoBound('2025-09-03T05:00', false)).toBe('2025-09-03T05:00:00.000Z');
    expect(isoBound('2025-09-03 05:00', true)).toBe('2025-09-03T05:00:00.000Z');
    expect(isoBound('2025-09-03T05:00:00+09:00', false)).toBe('2025-09-02T20:00:00.000Z');
    expect(isoBound('2025-09-03', true)).toBe('2025-09-03T23:59:59.999Z');
    expect(rangeProblem('2025-09-03T05:00', '2025-09-03T05:00Z')).toBeNull();
  });

  it('refuses days that do not exist instead of rolling them over', () => {
    const schema = z.object({ to: isoParam('to', 'x') });
    for (const bad of ['2025-02-30', '2025-06-31', '2025-02-29T10:00:00Z', '2025-04-31 12:00']) {
      const r = schema.safeParse({ to: bad });
      expect(r.success, bad).toBe(false);
      expect(r.error?.issues[0]?.message, bad).toBe(
        `must be a calendar date: ${bad.slice(0, 10)} does not exist`,
      );
    }
    for (const bad of ['2025-13-45', 'yesterday', '2025-07-01T25:00Z'])
      expect(schema.safeParse({ to: bad }).error?.issues[0]?.message, bad).toMatch(
        /^must be an ISO 8601 date/,
      );
    for (const good of ['2024-02-29', '2025-06-30T23:59:59.999Z', '2025-12-31'])
      expect(schema.safeParse({ to: good }).success, good).toBe(true);
    expect(readIsoTime('2025-02-28', true)).toEqual({ ms: Date.parse('2025-02-28T23:59:59.999Z') });
  });
});
