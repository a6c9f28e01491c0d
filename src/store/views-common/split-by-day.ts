/**
 * Activity segments → active milliseconds per UTC day, splitting a segment at midnight so a
 * session that runs across midnight counts on both days. A zero-length segment (one timestamp)
 * still marks its day as active, with 0 ms.
 */
import { parseTimestamp, type Segment } from '../../core/active-time.js';
import { ACTIVITY_MIN_MS, activityMaxMs, DAY_MS, MAX_RANGE_DAYS } from '../../core/doc-limits.js';
import { StoreInputError } from '../contract.js';

/** `YYYY-MM-DD` (UTC) of an epoch-ms instant. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function splitByDay(segments: Segment[], now = Date.now()): Map<string, number> {
  const days = new Map<string, number>();
  // Validation keeps activity inside the window, sorted and disjoint; a store written before it
  // may not be. Clipping each segment to the window and to after the previous one bounds the work
  // by the window's days, whatever the store holds (one summary once spanned ±8.64e15 ms).
  const max = activityMaxMs(now);
  let floor = ACTIVITY_MIN_MS;
  for (const [rawStart, rawEnd] of segments) {
    if (!Number.isFinite(rawStart) || !Number.isFinite(rawEnd) || rawEnd < rawStart) continue;
    const start = Math.max(rawStart, floor);
    const end = Math.min(rawEnd, max);
    if (end < start) continue;
    floor = end + 1;
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

/** The parts of segments inside `[lo, hi]` (a calendar query splits only the days it shows). */
export function clipSegments(segments: Segment[], lo: number, hi: number): Segment[] {
  const out: Segment[] = [];
  for (const [start, end] of segments) {
    const a = Math.max(start, lo);
    const b = Math.min(end, hi);
    if (a <= b) out.push([a, b]);
  }
  return out;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar bound: a day (`YYYY-MM-DD`) as given, or the UTC day of an ISO timestamp. */
export function dayBound(value: string, name: string): string {
  if (DAY.test(value) && Number.isFinite(Date.parse(value))) return value;
  const ms = Date.parse(value);
  if (!Number.isFinite(ms))
    throw new StoreInputError(`${name} must be a day (YYYY-MM-DD) or an ISO timestamp`);
  return utcDay(ms);
}

/** How many calendar days `[from, to]` covers (both days counted). */
export function daysInRange(fromDay: string, toDay: string): number {
  return Math.round((Date.parse(toDay) - Date.parse(fromDay)) / DAY_MS) + 1;
}

/**
 * `[fromDay, toDay]` cut into consecutive ranges of at most `size` days, so a long calendar query
 * is read a slice at a time with the event loop free in between.
 */
export function daySlices(fromDay: string, toDay: string, size: number): Array<{ from: string; to: string }> {
  const out: Array<{ from: string; to: string }> = [];
  const end = Date.parse(toDay);
  for (let start = Date.parse(fromDay); start <= end; start += size * DAY_MS)
    out.push({ from: utcDay(start), to: utcDay(Math.min(start + (size - 1) * DAY_MS, end)) });
  return out;
}

/** The message for a range over the cap, shared by the API and the store. */
export function rangeCapMessage(days: number): string {
  return `the range covers ${days} days; a query may read at most ${MAX_RANGE_DAYS} days (narrow from/to)`;
}

/**
 * The calendar days of a daily-activity query, checked: both bounds read, `from` not after `to`,
 * and at most MAX_RANGE_DAYS days, so no query reads the calendar without limit.
 */
export function dayRange(from: string, to: string): { from: string; to: string } {
  const range = { from: dayBound(from, 'from'), to: dayBound(to, 'to') };
  const days = daysInRange(range.from, range.to);
  if (days > MAX_RANGE_DAYS) throw new StoreInputError(rangeCapMessage(days));
  return range;
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
