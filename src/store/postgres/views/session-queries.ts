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
import { readQuery, type Queryable } from '../postgres-database.js';
import { pgText } from './postgres-view.js';
import { sessionOrderSql } from '../../views-common/session-sort.js';
import { sessionFilterSql } from './session-filter-sql.js';

interface RollupRow {
  session_id: string;
  summary_id: string;
  first_ms: string | null;
  last_ms: string | null;
  hook_recorded: boolean;
  ended_at: string | null;
  end_reason: string | null;
  event_count: number;
  activity: string;
  rev: string;
  body: string;
}

// The sort columns ride along so the page can be ordered again after the join.
const ROLLUP_COLUMNS = `r.session_id, r.summary_id, r.first_ms, r.last_ms, r.hook_recorded, r.ended_at,
    r.end_reason, r.event_count, r.activity, r.runtime_ms, r.tokens, r.entries`;
const COLUMNS = `${ROLLUP_COLUMNS}, d.rev, d.body`;
/** Each rollup row `r` with its summary document `d`. */
const WITH_SUMMARY = 'JOIN docs d ON d.session_id = r.session_id AND d.id = r.summary_id';
const FROM = `FROM session_rollup r ${WITH_SUMMARY}`;

export async function listSessions(
  q: Queryable,
  filter: SessionFilter,
  limit: number,
  offset: number,
  sort: SessionSort,
): Promise<{ total: number; rows: SessionRow[] }> {
  const f = sessionFilterSql(filter, 'r.session_id');
  const where = f.where.length > 0 ? `WHERE ${f.where.join(' AND ')}` : '';
  const n = f.params.length;
  const counting = `SELECT count(*) AS n FROM session_rollup r ${where}`;
  const order = sessionOrderSql(sort, 'r');
  // Sessions without activity last (as the embedded engine orders NULLs); ties by id keep pages
  // stable. The page is read in index order and stops at its last row; the total is a count of
  // its own, once per statement, riding along each row. Counting in a window over the ordered
  // rows instead visited every session through the index (1,579 sessions: 1.7 → 0.9 ms).
  const { rows } = await readQuery<RollupRow & { total: string }>(
    q,
    `WITH page AS (
      SELECT ${ROLLUP_COLUMNS} FROM session_rollup r ${where}
      ORDER BY ${order} LIMIT $${n + 1} OFFSET $${n + 2}
    )
    SELECT ${COLUMNS}, (${counting}) AS total
    FROM page r ${WITH_SUMMARY}
    ORDER BY ${order}`,
    [...f.params, limit, offset],
  );
  if (rows.length > 0) return { total: Number(rows[0]!.total), rows: rows.map(toSessionRow) };
  // An empty page (limit 0, offset past the end) says nothing of the total.
  const count = await readQuery<{ n: string }>(q, counting, f.params);
  return { total: Number(count.rows[0]!.n), rows: [] };
}

export async function getSession(q: Queryable, sessionId: string): Promise<SessionRow | null> {
  const { rows } = await readQuery<RollupRow>(q, `SELECT ${COLUMNS} ${FROM} WHERE r.session_id = $1`, [
    pgText(sessionId),
  ]);
  return rows[0] ? toSessionRow(rows[0]) : null;
}

export async function getSessions(q: Queryable, sessionIds: string[]): Promise<SessionRow[]> {
  if (sessionIds.length === 0) return [];
  const { rows } = await readQuery<RollupRow>(
    q,
    `SELECT ${COLUMNS} ${FROM} WHERE r.session_id = ANY($1::text[]) ORDER BY r.session_id`,
    [sessionIds.map(pgText)],
  );
  return rows.map(toSessionRow);
}

export async function facets(
  q: Queryable,
  attribute: FacetAttribute,
  filter: SessionFilter,
): Promise<Array<{ value: string; sessions: number }>> {
  const f = sessionFilterSql(facetFilter(attribute, filter), facetSessionColumn(attribute));
  const { rows } = await readQuery<{ value: string; sessions: string }>(q, facetSql(attribute, f), f.params);
  return rows.map((r) => ({ value: r.value, sessions: Number(r.sessions) }));
}

/**
 * The tokens of the filtered sessions by model, from each rollup row's `token_split`: the count
 * and the sums in one statement (one round trip), the sums as one JSON value.
 */
export async function tokenTotals(q: Queryable, filter: SessionFilter): Promise<TokenTotals> {
  const f = sessionFilterSql(filter, 'r.session_id');
  const where = f.where.length > 0 ? `WHERE ${f.where.join(' AND ')}` : '';
  const { rows } = await readQuery<{ n: string; split: TotalsRow[] }>(
    q,
    `WITH s AS MATERIALIZED (SELECT r.session_id, r.token_split FROM session_rollup r ${where})
    SELECT (SELECT count(*) FROM s) AS n, coalesce((SELECT json_agg(t) FROM (
      SELECT e ->> 0 AS model, count(DISTINCT s.session_id) AS sessions,
        sum((e ->> 1)::bigint) AS input, sum((e ->> 2)::bigint) AS output,
        sum((e ->> 3)::bigint) AS cache_write, sum((e ->> 4)::bigint) AS cache_read
      FROM s CROSS JOIN LATERAL jsonb_array_elements(s.token_split::jsonb) e
      GROUP BY 1) t), '[]') AS split`,
    f.params,
  );
  return totalsOf(rows[0]!.n, rows[0]!.split);
}

function toSessionRow(row: RollupRow): SessionRow {
  const iso = (ms: string | null) => (ms === null ? null : new Date(Number(ms)).toISOString());
  return {
    summary: { _id: row.summary_id, _rev: row.rev, ...JSON.parse(row.body) } as SummaryDoc,
    hookRecorded: row.hook_recorded,
    endedAt: row.ended_at,
    endReason: row.end_reason,
    lastActivity: iso(row.last_ms),
    firstActivity: iso(row.first_ms),
    activity: JSON.parse(row.activity) as Segment[],
    eventCount: row.event_count,
  };
}
