import { describe, expect, it } from 'vitest';
import { applyEvent, emptyEventStats, type EventFacts } from './event-stats.js';

const events: EventFacts[] = [
  {
    id: 'e1',
    timestamp: '2025-03-01T10:00:00.000Z',
    event: 'SessionStart',
    reconstructed: true,
    reason: undefined,
  },
  {
    id: 'e2',
    timestamp: '2025-03-01T10:00:30.000Z',
    event: 'UserPromptSubmit',
    reconstructed: true,
    reason: undefined,
  },
  {
    id: 'e3',
    timestamp: '2025-03-01T11:00:00.000Z',
    event: 'SessionEnd',
    reconstructed: false,
    reason: 'exit',
  },
  {
    id: 'e4',
    timestamp: '2025-03-01T12:00:00.000Z',
    event: 'SessionEnd',
    reconstructed: false,
    reason: 'logout',
  },
  { id: 'e5', timestamp: 'not a time', event: 'Stop', reconstructed: true, reason: undefined },
];

function fold(list: EventFacts[]) {
  const stats = emptyEventStats();
  for (const e of list) applyEvent(stats, e);
  return stats;
}

describe('applyEvent', () => {
  it('counts, marks hook recording, keeps the latest SessionEnd and builds activity', () => {
    expect(fold(events)).toEqual({
      eventCount: 5,
      hookRecorded: true,
      endId: 'e4',
      endMs: Date.parse('2025-03-01T12:00:00.000Z'),
      endedAt: '2025-03-01T12:00:00.000Z',
      endReason: 'logout',
      activity: [
        [Date.parse('2025-03-01T10:00:00.000Z'), Date.parse('2025-03-01T10:00:30.000Z')],
        [Date.parse('2025-03-01T11:00:00.000Z'), Date.parse('2025-03-01T11:00:00.000Z')],
        [Date.parse('2025-03-01T12:00:00.000Z'), Date.parse('2025-03-01T12:00:00.000Z')],
      ],
    });
  });

  it('gives the same result in any order (incremental writes equal a rebuild)', () => {
    const expected = fold(events);
    const orders = [[...events].reverse(), [events[3]!, events[0]!, events[4]!, events[2]!, events[1]!]];
    for (const order of orders) expect(fold(order)).toEqual(expected);
  });

  it('breaks a SessionEnd tie on timestamp by id', () => {
    const a = {
      id: 'a',
      timestamp: '2025-03-01T10:00:00.000Z',
      event: 'SessionEnd',
      reconstructed: false,
      reason: 'first',
    };
    const b = { ...a, id: 'b', reason: 'second' };
    expect(fold([a, b]).endReason).toBe('second');
    expect(fold([b, a]).endReason).toBe('second');
    expect(fold([events[0]!]).hookRecorded).toBe(false);
  });

  it('opens the session again on a SessionStart after the latest SessionEnd (a resume)', () => {
    const resume: EventFacts = {
      id: 'r1',
      timestamp: '2025-03-01T13:00:00.000Z',
      event: 'SessionStart',
      reconstructed: false,
      reason: undefined,
    };
    const resumed = fold([...events, resume]);
    expect(resumed).toMatchObject({ endId: 'r1', endMs: Date.parse(resume.timestamp as string) });
    expect(resumed.endedAt).toBeNull();
    expect(resumed.endReason).toBeNull();
    expect(fold([resume, ...events].reverse())).toEqual(resumed);

    const endAgain: EventFacts = {
      ...events[3]!,
      id: 'e6',
      timestamp: '2025-03-01T14:00:00.000Z',
      reason: 'exit',
    };
    expect(fold([endAgain, resume, ...events])).toMatchObject({ endId: 'e6', endReason: 'exit' });
    // A SessionStart before the latest end (the first one, or one in the middle) changes nothing.
    expect(fold([{ ...resume, timestamp: '2025-03-01T11:30:00.000Z' }, ...events]).endId).toBe('e4');
  });

  it('has a session that starts and ends at one time ended, in either order', () => {
    const at = '2025-03-01T10:00:00.000Z';
    const s: EventFacts = {
      id: 'z',
      timestamp: at,
      event: 'SessionStart',
      reconstructed: false,
      reason: undefined,
    };
    const e: EventFacts = {
      id: 'a',
      timestamp: at,
      event: 'SessionEnd',
      reconstructed: false,
      reason: 'exit',
    };
    expect(fold([s, e]).endedAt).toBe(at);
    expect(fold([e, s]).endedAt).toBe(at);
  });
});
