/**
 * What a session's hook events add to its rollup, as a fold over its events. Applying events one
 * by one (live hooks) gives the same result in any order as recounting all of them (rebuild), so
 * incremental maintenance and `materialize` agree.
 */
import { addActivity, parseTimestamp, type Segment } from '../../core/active-time.js';

export interface EventStats {
  eventCount: number;
  /** Some event came from a live hook (not reconstructed from a transcript). */
  hookRecorded: boolean;
  /** The latest SessionEnd by (timestamp, id): a resumed session may end more than once. */
  endId: string | null;
  endMs: number | null;
  endedAt: string | null;
  endReason: string | null;
  activity: Segment[];
}

/** The fields of an event document the rollup uses, as read from the doc or from SQL. */
export interface EventFacts {
  id: string;
  timestamp: unknown;
  event: unknown;
  reconstructed: boolean;
  reason: unknown;
}

export function emptyEventStats(): EventStats {
  return {
    eventCount: 0,
    hookRecorded: false,
    endId: null,
    endMs: null,
    endedAt: null,
    endReason: null,
    activity: [],
  };
}

export function applyEvent(stats: EventStats, e: EventFacts): void {
  stats.eventCount += 1;
  if (!e.reconstructed) stats.hookRecorded = true;
  const ms = parseTimestamp(e.timestamp);
  if (ms !== null) addActivity(stats.activity, ms);
  if (e.event !== 'SessionEnd') return;
  const key = ms ?? Number.NEGATIVE_INFINITY;
  const currentKey = stats.endMs ?? Number.NEGATIVE_INFINITY;
  if (stats.endId === null || key > currentKey || (key === currentKey && e.id > stats.endId)) {
    stats.endId = e.id;
    stats.endMs = ms;
    stats.endedAt = typeof e.timestamp === 'string' ? e.timestamp : null;
    stats.endReason = typeof e.reason === 'string' ? e.reason : null;
  }
}
