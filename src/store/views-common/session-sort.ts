/**
 * The orders the session list can be read in (`GET /api/sessions?sort&dir`), over columns of the
 * rollup both engines keep. Sessions without the value (no activity, no token counts) come last
 * whichever the direction; ties go by session id, so pages never overlap or skip.
 *
 * Active time is not among them: it depends on the configured idle threshold, which the rollup
 * does not know (the API derives it per request from the activity segments).
 */
import { runtimeMs, type Segment } from '../../core/active-time.js';
import {
  SESSION_SORT_KEYS,
  SORT_DIRECTIONS,
  DEFAULT_SESSION_SORT,
  StoreInputError,
  type SessionSort,
  type SessionSortKey,
} from '../contract.js';

const COLUMN: Record<SessionSortKey, string> = {
  lastActivity: 'last_ms',
  startedAt: 'first_ms',
  runtime: 'runtime_ms',
  tokens: 'tokens',
  entries: 'entries',
};

export function checkSessionSort(sort: SessionSort | undefined): SessionSort {
  if (sort === undefined) return DEFAULT_SESSION_SORT;
  if (!SESSION_SORT_KEYS.includes(sort.by))
    throw new StoreInputError(`sort must be one of ${SESSION_SORT_KEYS.join(', ')}`);
  if (!SORT_DIRECTIONS.includes(sort.dir))
    throw new StoreInputError('sort direction must be "asc" or "desc"');
  return sort;
}

/**
 * ORDER BY over the rollup aliased `alias`. Both engines read `DESC NULLS LAST` on last activity
 * straight from the list's index (SQLite too: it is SQLite's own order for DESC).
 */
export function sessionOrderSql(sort: SessionSort, alias: string): string {
  return `${alias}.${COLUMN[sort.by]} ${sort.dir === 'asc' ? 'ASC' : 'DESC'} NULLS LAST, ${alias}.session_id`;
}

/** The sort columns a rollup row holds besides first/last activity, from its summary and activity. */
export interface SortValues {
  runtimeMs: number | null;
  tokens: number | null;
  entries: number | null;
}

export function sortValues(doc: Record<string, unknown>, activity: Segment[]): SortValues {
  // Whole numbers a bigint column takes: a malformed summary must not fail the write that carries it.
  const num = (v: unknown) =>
    typeof v === 'number' && Number.isSafeInteger(Math.round(v)) ? Math.round(v) : null;
  const record = (v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  const t = record(doc.tokens);
  const parts = [t.input, t.output, t.cacheWrite, t.cacheRead].map(num);
  const known = parts.filter((n): n is number => n !== null);
  return {
    runtimeMs: runtimeMs(activity),
    // The total the list shows: every kind of token, what is known of it.
    tokens: known.length > 0 ? num(known.reduce((a, b) => a + b, 0)) : null,
    entries: num(record(doc.counts).entries),
  };
}
