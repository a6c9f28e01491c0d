/**
 * The bounds every document and query is held to at the boundary (docs/api.md names each one).
 * One poisoned document must not make the store write or read without limit: a summary whose
 * activity spanned ±8.64e15 ms once wrote ten million calendar rows. Pure, no dependencies: the
 * document schemas, the views and the API all read these.
 */

export const DAY_MS = 86_400_000;

/** Activity before this is not believed (a clock reset, a made-up line): 2000-01-01T00:00:00Z. */
export const ACTIVITY_MIN_MS = Date.UTC(2000, 0, 1);
/** Activity may lie this far past the present (clocks drift; a machine a time zone ahead). */
export const ACTIVITY_FUTURE_MS = DAY_MS;

/** The latest activity believed at `now`. */
export function activityMaxMs(now = Date.now()): number {
  return now + ACTIVITY_FUTURE_MS;
}

/** Whether an instant may count as activity (finite, 2000-01-01 .. now + 1 day). */
export function inActivityWindow(ms: number, now = Date.now()): boolean {
  return Number.isFinite(ms) && ms >= ACTIVITY_MIN_MS && ms <= activityMaxMs(now);
}

/** A document's own `timestamp` (a summary of a session without any activity says the epoch). */
export const DOC_TIME_MIN_MS = 0;

/**
 * Counts and entry indexes (entries, prompts, tool calls, `index`, `firstIndex`, `entryCount`…):
 * below 2^31, what PostgreSQL's `integer` columns hold, so both engines store the same numbers.
 */
export const MAX_COUNT = 2_147_483_647;
/** Byte offsets and sizes, and token counts: 10^15 (a petabyte; a quadrillion tokens). */
export const MAX_AMOUNT = 1e15;

/** Activity segments of one summary. A session of a year with a pause every few minutes has fewer. */
export const MAX_ACTIVITY_SEGMENTS = 50_000;
/**
 * Calendar rows one ingest request may cause (each summary's activity, counted per UTC day it
 * touches): the bound on what one request makes the store write beside the documents themselves.
 */
export const MAX_ACTIVITY_DAYS_PER_REQUEST = 100_000;
/** Days one `/api/activity` query may read (ten years and a bit). */
export const MAX_RANGE_DAYS = 3_700;

/** Names, ids, paths, models, branches, titles and other one-line strings. */
export const MAX_NAME_CHARS = 4_096;
/** Free text: an entry's text or thinking, a tool result, a preview, an error. */
export const MAX_TEXT_CHARS = 1_048_576;
/** Lists inside one document (models, files, an entry's tool calls, a chunk's entries…) and map sizes. */
export const MAX_LIST = 10_000;

/**
 * Deepest page a paged query may ask for (its offset) and the largest page (its limit) on every
 * engine. PostgreSQL reads both as `integer` and a search adds and doubles them, so together they
 * stay below 2^31 there; SQLite refuses the same.
 */
export const MAX_OFFSET = 1_000_000_000;
export const MAX_PAGE_LIMIT = 1_000_000;

/** How many UTC days the segments touch (the calendar rows they make), counted without building them. */
export function activityDays(segments: ReadonlyArray<readonly [number, number]>): number {
  let days = 0;
  for (const [start, end] of segments) {
    if (!Number.isFinite(start) || !Number.isFinite(end) || end < start) continue;
    days += Math.floor(end / DAY_MS) - Math.floor(start / DAY_MS) + 1;
  }
  return days;
}
