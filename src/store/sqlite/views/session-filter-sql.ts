/**
 * `SessionFilter` → SQL conditions, shared by the session list, search and daily activity so the
 * filters mean the same everywhere. Conditions reference the rollup as `r` and the session id
 * column given by the caller; `needsRollup` tells the caller to join `session_rollup r`.
 */
import { StoreInputError, type SessionFilter } from '../../contract.js';

export interface FilterSql {
  /** Conditions to AND together (empty when nothing filters). */
  where: string[];
  params: Record<string, string | number>;
  /** Some condition reads `session_rollup r` or `session_models`. */
  needsRollup: boolean;
}

/** Highest code point: `prefix + MAX_CHAR` bounds every id that starts with `prefix`. */
const MAX_CHAR = '\u{10FFFF}';
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

export function sessionFilterSql(filter: SessionFilter, sessionIdColumn: string): FilterSql {
  const where: string[] = [];
  const params: Record<string, string | number> = {};
  let needsRollup = false;
  const given = (v: string | undefined): v is string => typeof v === 'string' && v !== '';

  for (const column of ['cwd', 'hostname', 'source'] as const) {
    const value = filter[column];
    if (!given(value)) continue;
    where.push(`r.${column} = @f_${column}`);
    params[`f_${column}`] = value;
    needsRollup = true;
  }
  if (given(filter.model)) {
    where.push(`${sessionIdColumn} IN (SELECT session_id FROM session_models WHERE model = @f_model)`);
    params.f_model = filter.model;
    needsRollup = true;
  }
  // Overlap of [first, last] activity with [from, to]; either bound may be open.
  if (given(filter.from)) {
    where.push('r.last_ms >= @f_from');
    params.f_from = isoMs(filter.from, 'from');
    needsRollup = true;
  }
  if (given(filter.to)) {
    where.push('r.first_ms <= @f_to');
    // A bare date as upper bound means the whole day, as a person reading "to 2025-07-01" expects.
    params.f_to = isoMs(filter.to, 'to') + (DATE_ONLY.test(filter.to) ? DAY_MS - 1 : 0);
    needsRollup = true;
  }
  if (given(filter.idPrefix)) {
    // The range uses the key index; substr makes it exact.
    where.push(
      `${sessionIdColumn} >= @f_prefix AND ${sessionIdColumn} < @f_prefix_end AND substr(${sessionIdColumn}, 1, length(@f_prefix)) = @f_prefix`,
    );
    params.f_prefix = filter.idPrefix;
    params.f_prefix_end = filter.idPrefix + MAX_CHAR;
  }
  return { where, params, needsRollup };
}

function isoMs(value: string, name: string): number {
  const ms = Date.parse(value);
  if (!Number.isFinite(ms))
    throw new StoreInputError(`${name} must be an ISO 8601 timestamp, got "${value}"`);
  return ms;
}
