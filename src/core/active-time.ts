/**
 * Runtime and active time (DESIGN §4). Active time = runtime minus every gap longer than the idle
 * threshold between consecutive activity timestamps.
 *
 * Sessions keep their activity as sorted, disjoint segments `[startMs, endMs]` merged at
 * `ACTIVITY_FLOOR_MS`: inside a segment every gap is ≤ the floor. For any threshold ≥ the floor
 * the active time computed from segments equals the one computed from the raw timestamps, so the
 * threshold stays a read-time setting while a session stores a few dozen numbers, not thousands.
 */

import { inActivityWindow } from './doc-limits.js';

/** The smallest idle threshold the settings accept; segments are merged at this granularity. */
export const ACTIVITY_FLOOR_MS = 60_000;

export type Segment = [number, number];

/**
 * Parses an ISO timestamp to epoch ms; null when missing, unparseable or outside the activity
 * window (2000-01-01 .. now + 1 day, doc-limits.ts): a line stamped in the year 275760 would keep
 * its session "running" for ever and spread it over every day in between, so it counts for nothing.
 */
export function parseTimestamp(ts: unknown): number | null {
  if (typeof ts !== 'string' || ts === '') return null;
  const ms = Date.parse(ts);
  return inActivityWindow(ms) ? ms : null;
}

/** Inserts one timestamp into sorted segments (in place), merging neighbours within the floor. */
export function addActivity(segments: Segment[], ms: number, floor = ACTIVITY_FLOOR_MS): Segment[] {
  // Binary search for the first segment whose start is > ms.
  let lo = 0;
  let hi = segments.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (segments[mid]![0] <= ms) lo = mid + 1;
    else hi = mid;
  }
  const prev = lo > 0 ? segments[lo - 1]! : undefined;
  const next = lo < segments.length ? segments[lo]! : undefined;
  if (prev && ms <= prev[1]) return segments; // already covered
  const joinPrev = prev !== undefined && ms - prev[1] <= floor;
  const joinNext = next !== undefined && next[0] - ms <= floor;
  if (joinPrev && joinNext) {
    prev![1] = next![1];
    segments.splice(lo, 1);
  } else if (joinPrev) {
    prev![1] = ms;
  } else if (joinNext) {
    next![0] = ms;
  } else {
    segments.splice(lo, 0, [ms, ms]);
  }
  return segments;
}

/** Merges two segment lists (e.g. transcript activity and hook events). */
export function mergeActivity(a: Segment[], b: Segment[], floor = ACTIVITY_FLOOR_MS): Segment[] {
  const all = [...a, ...b].map((s) => [s[0], s[1]] as Segment).sort((x, y) => x[0] - y[0]);
  const out: Segment[] = [];
  for (const seg of all) {
    const last = out[out.length - 1];
    if (last && seg[0] - last[1] <= floor) last[1] = Math.max(last[1], seg[1]);
    else out.push(seg);
  }
  return out;
}

/** Segments from raw timestamps (unparseable ones are skipped). */
export function activityFromTimestamps(timestamps: Iterable<unknown>, floor = ACTIVITY_FLOOR_MS): Segment[] {
  const segments: Segment[] = [];
  for (const ts of timestamps) {
    const ms = typeof ts === 'number' ? ts : parseTimestamp(ts);
    if (ms !== null) addActivity(segments, ms, floor);
  }
  return segments;
}

/** Runtime = last − first activity; null without two distinct timestamps' worth of activity. */
export function runtimeMs(segments: Segment[]): number | null {
  if (segments.length === 0) return null;
  const span = segments[segments.length - 1]![1] - segments[0]![0];
  return segments.length === 1 && span === 0 ? null : span;
}

/**
 * Active time for `idleThresholdMs` (≥ the floor): every gap longer than the threshold is left
 * out; a gap exactly at the threshold counts as active. Null when runtime is null.
 */
export function activeTimeMs(segments: Segment[], idleThresholdMs: number): number | null {
  const runtime = runtimeMs(segments);
  if (runtime === null) return null;
  const threshold = Math.max(idleThresholdMs, 0);
  let active = 0;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    active += seg[1] - seg[0];
    const next = segments[i + 1];
    if (next) {
      const gap = next[0] - seg[1];
      if (gap <= threshold) active += gap;
    }
  }
  return active;
}

/**
 * The segments with every gap of at most `idleThresholdMs` filled in: the stretches of time
 * `activeTimeMs` counts as active, so that splitting them (e.g. by day) adds up to it.
 */
export function bridgeGaps(segments: Segment[], idleThresholdMs: number): Segment[] {
  const out: Segment[] = [];
  for (const [start, end] of segments) {
    const last = out[out.length - 1];
    if (last && start - last[1] <= idleThresholdMs) last[1] = Math.max(last[1], end);
    else out.push([start, end]);
  }
  return out;
}
