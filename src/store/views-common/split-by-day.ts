/**
 * Activity segments → active milliseconds per UTC day, splitting a segment at midnight so a
 * session that runs across midnight counts on both days. A zero-length segment (one timestamp)
 * still marks its day as active, with 0 ms.
 */
import { parseTimestamp, type Segment } from '../../core/active-time.js';
import { StoreInputError } from '../contract.js';

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` (UTC) of an epoch-ms instant. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function splitByDay(segments: Segment[]): Map<string, number> {
  const days = new Map<string, number>();
  for (const [start, end] of segments) {
    if (!Number.isFinite(start) || !Number.isFinite(end) || end < start) continue;
    let from = start;
    for (;;) {
      const midnight = (Math.floor(from / DAY_MS) + 1) * DAY_MS;
      const to = Math.min(end, midnight);
      const day = utcDay(from);
      days.set(day, (days.get(day) ?? 0) + (to - from));
      if (end < midnight) break;
      // A segment ending exactly at midnight puts its last timestamp on the next day (0 ms).
      from = midnight;
    }
  }
  return days;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar bound: a day (`YYYY-MM-DD`) as given, or the UTC day of an ISO timestamp. */
export function dayBound(value: string, name: string): string {
  if (DAY.test(value)) return value;
  const ms = Date.parse(value);
  if (!Number.isFinite(ms))
    throw new StoreInputError(`${name} must be a day (YYYY-MM-DD) or an ISO timestamp`);
  return utcDay(ms);
}

/** Entries per UTC day of their timestamps (entries without a parseable one are left out). */
export function entriesPerDay(entries: ReadonlyArray<{ timestamp?: unknown }>): Map<string, number> {
  const days = new Map<string, number>();
  for (const entry of entries) {
    const ms = parseTimestamp(entry.timestamp);
    if (ms === null) continue;
    const day = utcDay(ms);
    days.set(day, (days.get(day) ?? 0) + 1);
  }
  return days;
}

/**
 * A JSON column read once per key: a session active on several days of a calendar query comes
 * back on several rows, each with the same activity.
 */
export function parsedOnce<T>(): (key: string, json: string) => T {
  const seen = new Map<string, T>();
  return (key, json) => {
    let value = seen.get(key);
    if (value === undefined) seen.set(key, (value = JSON.parse(json) as T));
    return value;
  };
}
