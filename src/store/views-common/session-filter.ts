/**
 * `SessionFilter` → the values every engine compares, validated once so the filters mean the same
 * on every engine and in every query (session list, search, daily activity).
 */
import { StoreInputError, type SessionFilter } from '../contract.js';

export interface FilterValues {
  cwd?: string;
  hostname?: string;
  source?: string;
  /** Matches when any of a session's models equals it. */
  model?: string;
  /** Overlap of [first, last] activity with [fromMs, toMs]; either bound may be open. */
  fromMs?: number;
  toMs?: number;
  idPrefix?: string;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/** Highest code point: `prefix + MAX_CHAR` bounds every id that starts with `prefix`. */
export const MAX_CHAR = '\u{10FFFF}';

export function filterValues(filter: SessionFilter): FilterValues {
  const out: FilterValues = {};
  const given = (v: string | undefined): v is string => typeof v === 'string' && v !== '';
  if (given(filter.cwd)) out.cwd = filter.cwd;
  if (given(filter.hostname)) out.hostname = filter.hostname;
  if (given(filter.source)) out.source = filter.source;
  if (given(filter.model)) out.model = filter.model;
  if (given(filter.from)) out.fromMs = isoMs(filter.from, 'from');
  // A bare date as upper bound means the whole day, as a person reading "to 2025-07-01" expects.
  if (given(filter.to)) out.toMs = isoMs(filter.to, 'to') + (DATE_ONLY.test(filter.to) ? DAY_MS - 1 : 0);
  if (given(filter.idPrefix)) out.idPrefix = filter.idPrefix;
  return out;
}

function isoMs(value: string, name: string): number {
  const ms = Date.parse(value);
  if (!Number.isFinite(ms))
    throw new StoreInputError(`${name} must be an ISO 8601 timestamp, got "${value}"`);
  return ms;
}
