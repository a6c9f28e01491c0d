/**
 * What a session's hook events add to its rollup, as a fold over its events. Applying events one
 * by one (live hooks) gives the same result in any order as recounting all of them (rebuild), so
 * incremental maintenance and `materialize` agree.
 *
 * Whether the session has ended is decided by its latest boundary, SessionStart or SessionEnd:
 * `claude --resume` keeps the session id and transcript and sends a SessionStart, so a session
 * resumed after its SessionEnd is live again until the next SessionEnd.
 */
import { addActivity, parseTimestamp, type Segment } from '../../core/active-time.js';

export interface EventStats {
  eventCount: number;
  /** Some event came from a live hook (not reconstructed from a transcript). */
  hookRecorded: boolean;
  /**
   * The latest boundary event (SessionStart or SessionEnd) by (timestamp, SessionEnd before
   * SessionStart at one time, id). Stored as `end_id`/`end_ms`, names from before resumes counted.
   */
  endId: string | null;
  endMs: number | null;
  /** The boundary's timestamp and reason when it is a SessionEnd; null when it is a SessionStart. */
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
  const isEnd = e.event === 'SessionEnd';
  if (!isEnd && e.event !== 'SessionStart') return;
  if (stats.endId !== null && !laterBoundary(ms, isEnd, e.id, stats)) return;
  stats.endId = e.id;
  stats.endMs = ms;
  stats.endedAt = isEnd && typeof e.timestamp === 'string' ? e.timestamp : null;
  stats.endReason = isEnd && typeof e.reason === 'string' ? e.reason : null;
}

/** Whether a boundary event comes after the current one (an untimed event comes first). */
function laterBoundary(ms: number | null, isEnd: boolean, id: string, current: EventStats): boolean {
  const key = ms ?? Number.NEGATIVE_INFINITY;
  const currentKey = current.endMs ?? Number.NEGATIVE_INFINITY;
  if (key !== currentKey) return key > currentKey;
  // At one time a session that starts and ends has ended: the end sorts last.
  const currentIsEnd = current.endedAt !== null;
  if (isEnd !== currentIsEnd) return isEnd;
  return id > current.endId!;
}
