/**
 * How an ISO 8601 date or time given by a person (an API query bound, a CLI option) is read, one
 * rule for both: a time without a zone is UTC (never the machine's local zone), a bare date is the
 * start of that UTC day (`end`: its last millisecond), and a day that does not exist (2025-02-30,
 * 2025-06-31) is refused rather than rolled into the next month. Pure, no dependencies: the CLI
 * reads options without loading the API's modules.
 */

const ISO = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?)?$/;

/** The problem with a value, worded to follow the name of what was given (`--to`, `query parameter to`). */
export const ISO_FORMAT_PROBLEM = 'must be an ISO 8601 date or time, e.g. 2025-07-01 or 2025-07-01T12:00:00Z';

export function readIsoTime(value: string, end = false): { ms: number } | { problem: string } {
  const m = ISO.exec(value);
  const day = m?.[1];
  const midnight = day ? Date.parse(`${day}T00:00:00Z`) : Number.NaN;
  if (!m || !day || Number.isNaN(midnight)) return { problem: ISO_FORMAT_PROBLEM };
  if (new Date(midnight).toISOString().slice(0, 10) !== day)
    return { problem: `must be a calendar date: ${day} does not exist` };
  if (m[2] === undefined) return { ms: end ? midnight + 86_400_000 - 1 : midnight };
  const ms = Date.parse(`${day}T${m[2]}${m[3] ?? 'Z'}`);
  return Number.isNaN(ms) ? { problem: ISO_FORMAT_PROBLEM } : { ms };
}
