import { describe, expect, it } from 'vitest';
import { dayBreaks, dayLabel } from './day-breaks.js';
import type { ReaderItem } from './entry-groups.js';

const msg = (i: number, timestamp?: string): ReaderItem =>
  ({ type: 'message', key: `m${i}`, entry: { index: i, timestamp } }) as unknown as ReaderItem;

describe('dayBreaks', () => {
  it('marks the first item and each change of UTC day', () => {
    const items = [
      msg(0, '2025-04-10T23:52:00Z'),
      msg(1, '2025-04-10T23:59:00Z'),
      msg(2),
      msg(3, '2025-08-25T01:56:00Z'),
      msg(4, '2025-08-25T02:00:00Z'),
    ];
    expect([...dayBreaks(items)]).toEqual([
      [0, '2025-04-10T23:52:00Z'],
      [3, '2025-08-25T01:56:00Z'],
    ]);
  });
  it('uses a tool run’s first call time', () => {
    const tools = {
      type: 'tools',
      key: 't1',
      calls: [{ at: '2025-01-02T00:00:00Z' }],
      orphans: [],
      entries: [1],
    };
    expect([...dayBreaks([msg(0, '2025-01-01T10:00:00Z'), tools as unknown as ReaderItem]).keys()]).toEqual([
      0, 1,
    ]);
  });
  it('names the day', () => {
    expect(dayLabel('2025-09-02T10:00:00Z')).toBe('Tuesday 2025-09-02');
  });
});
