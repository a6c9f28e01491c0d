/**
 * Reads over the session rollup: the filtered list (newest first, or as sorted), one session, the facet
 * pickers, and the token totals. The summary itself is read from its document (a key lookup), not copied into the rollup.
 */
import type { Segment } from '../../../core/active-time.js';
import type { SummaryDoc } from '../../../core/documents.js';
import type { SessionFilter, SessionRow, SessionSort, TokenTotals } from '../../contract.js';
import { tokenTotals as totalsOf, type TotalsRow } from '../../views-common/token-totals.js';
import { facetFilter, facetSessionColumn, facetSql } from '../../views-common/facets.js';
import type { FacetAttribute } from '../../views-common/view-args.js';
import { sessionOrderSql } from '../../views-common/session-sort.js';
import { sessionFilterSql } from './session-filter-sql.js';
import type { StatementCache } from './sqlite-view.js';

interface RollupRow {
  session_id: string;
  summary_id: string;
  first_ms: number | null;
  last_ms: number | null;
  hook_recorded: number;
  ended_at: string | null;
  end_reason: string | null;
  event_count: number;
  activity: string;
  rev: string;
  body: string;
}

const SELECT = `SELECT r.session_id, r.summary_id, r.first_ms, r.last_ms, r.hook_recorded, r.ended_at, r.end_reason,
    r.event_count, r.activity, d.rev, d.body
  FROM session_rollup r JOIN docs d ON d.session_id = r.session_id AND d.id = r.summary_id`;

export function listSessions(
  cache: StatementCache,
  filter: SessionFilter,
  limit: number,
  offset: number,
  sort: SessionSort,
): { total: number; rows: SessionRow[] } {
  const f = sessionFilterSql(filter, 'r.session_id');
  const where = f.where.length > 0 ? `WHERE ${f.where.join(' AND ')}` : '';
  const { n: total } = cache.get(`SELECT count(*) AS n FROM session_rollup r ${where}`).get(f.params) as {
    n: number;
  };
  if (total === 0 || limit === 0) return { total, rows: [] };
  const rows = cache
    .get(`${SELECT} ${where} ORDER BY ${sessionOrderSql(sort, 'r')} LIMIT @limit OFFSET @offset`)
    .all({ ...f.params, limit, offset }) as RollupRow[];
  return { total, rows: rows.map(toSessionRow) };
}

export function getSession(cache: StatementCache, sessionId: string): SessionRow | null {
  const row = cache.get(`${SELECT} WHERE r.session_id = ?`).get(sessionId) as RollupRow | undefined;
  return row ? toSessionRow(row) : null;
}

export function getSessions(cache: StatementCache, sessionIds: string[]): SessionRow[] {
  if (sessionIds.length === 0) return [];
  const rows = cache
    .get(`${SELECT} WHERE r.session_id IN (SELECT value FROM json_each(?)) ORDER BY r.session_id`)
    .all(JSON.stringify(sessionIds)) as RollupRow[];
  return rows.map(toSessionRow);
}

export function facets(
  cache: StatementCache,
  attribute: FacetAttribute,
  filter: SessionFilter,
): Array<{ value: string; sessions: number }> {
  const f = sessionFilterSql(facetFilter(attribute, filter), facetSessionColumn(attribute));
  return cache.get(facetSql(attribute, f)).all(f.params) as Array<{ value: string; sessions: number }>;
}

/** The tokens of the filtered sessions by model, from each rollup row's `token_split`. */
export function tokenTotals(cache: StatementCache, filter: SessionFilter): TokenTotals {
  const f = sessionFilterSql(filter, 'r.session_id');
  const where = f.where.length > 0 ? `WHERE ${f.where.join(' AND ')}` : '';
  const { n } = cache.get(`SELECT count(*) AS n FROM session_rollup r ${where}`).get(f.params) as {
    n: number;
  };
  const rows = cache
    .get(
      `SELECT e.value ->> '$[0]' AS model, count(DISTINCT r.session_id) AS sessions,
        sum(e.value ->> '$[1]') AS input, sum(e.value ->> '$[2]') AS output,
        sum(e.value ->> '$[3]') AS cache_write, sum(e.value ->> '$[4]') AS cache_read
      FROM session_rollup r, json_each(r.token_split) e ${where}
      GROUP BY 1`,
    )
    .all(f.params) as TotalsRow[];
  return totalsOf(n, rows);
}

function toSessionRow(row: RollupRow): SessionRow {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    summary: { _id: row.summary_id, _rev: row.rev, ...JSON.parse(row.body) } as SummaryDoc,
    hookRecorded: row.hook_recorded === 1,
    endedAt: row.ended_at,
    endReason: row.end_reason,
    lastActivity: iso(row.last_ms),
    firstActivity: iso(row.first_ms),
    activity: JSON.parse(row.activity) as Segment[],
    eventCount: row.event_count,
  };
}
