/**
 * `daily_activity` (the calendar): active milliseconds per session and UTC day, from the rollup's
 * activity segments split at midnight (refreshed whenever the rollup refreshes a session), and
 * entries per day counted from the chunks' entry timestamps. Entry counts are kept per chunk so a
 * replaced chunk is subtracted by id, without reading its old body.
 */
import type { Segment } from '../../../core/active-time.js';
import type { DayActivity, ViewName } from '../../contract.js';
import { chunkFields } from '../../views-common/chunk-fields.js';
import { dayRange, entriesPerDay, parsedOnce, splitByDay } from '../../views-common/split-by-day.js';
import { readQuery, type Queryable } from '../postgres-database.js';
import {
  columns,
  forEachDoc,
  applyRuns,
  type PostgresView,
  type PreviousDoc,
  type ViewBatch,
  type WrittenDoc,
} from './postgres-view.js';
import type { FilterSql } from './session-filter-sql.js';

const DDL = `
CREATE TABLE IF NOT EXISTS daily_activity (
  session_id text COLLATE "C" NOT NULL,
  day text COLLATE "C" NOT NULL,
  active_ms bigint NOT NULL,
  PRIMARY KEY (session_id, day)
);
CREATE INDEX IF NOT EXISTS daily_activity_by_day ON daily_activity (day, session_id);
CREATE TABLE IF NOT EXISTS daily_entries (
  session_id text COLLATE "C" NOT NULL,
  chunk_id text COLLATE "C" NOT NULL,
  day text COLLATE "C" NOT NULL,
  entries int NOT NULL,
  PRIMARY KEY (session_id, chunk_id, day)
);
CREATE INDEX IF NOT EXISTS daily_entries_by_day ON daily_entries (day, session_id);
`;

const SQL = {
  clearSessions: 'DELETE FROM daily_activity WHERE session_id = ANY($1)',
  insertDays: `INSERT INTO daily_activity (session_id, day, active_ms)
    SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])`,
  removeChunks: `DELETE FROM daily_entries d USING unnest($1::text[], $2::text[]) AS r(session_id, chunk_id)
    WHERE d.session_id = r.session_id AND d.chunk_id = r.chunk_id`,
  upsertEntries: `INSERT INTO daily_entries (session_id, chunk_id, day, entries)
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[])
    ON CONFLICT (session_id, chunk_id, day) DO UPDATE SET entries = excluded.entries`,
  rollups: 'SELECT session_id, activity FROM session_rollup',
};

type Op =
  | { kind: 'remove'; sessionId: string; id: string }
  | { kind: 'upsert'; sessionId: string; id: string; day: string; entries: number };

export interface DailyBatch extends ViewBatch {
  /** Rewrites these sessions' days from their rollup activity (null: the session left the rollup). */
  refresh(sessions: Map<string, Segment[] | null>): Promise<void>;
}

export class DailyActivityView implements PostgresView {
  readonly name = 'daily_activity' as const;
  readonly requires: ViewName = 'session_rollup';
  readonly follows = ['chunk'];

  async create(q: Queryable): Promise<void> {
    await q.query(DDL);
  }

  async drop(q: Queryable): Promise<void> {
    await q.query('DROP TABLE IF EXISTS daily_activity; DROP TABLE IF EXISTS daily_entries;');
  }

  async build(q: Queryable): Promise<void> {
    const batch = new Batch(q);
    const { rows } = await q.query<{ session_id: string; activity: string }>(SQL.rollups);
    await batch.refresh(new Map(rows.map((r) => [r.session_id, JSON.parse(r.activity) as Segment[]])));
    await forEachDoc(q, 'chunk', async (docs) => {
      for (const row of docs)
        batch.add(row.session_id, row.id, JSON.parse(row.body) as Record<string, unknown>);
      await batch.flush();
    });
  }

  batch(q: Queryable): DailyBatch {
    return new Batch(q);
  }

  /** Session-days in `[from, to]` (days or ISO timestamps, inclusive), day by day. */
  async query(q: Queryable, from: string, to: string, filter: FilterSql): Promise<DayActivity[]> {
    const days = dayRange(from, to);
    const params = [...filter.params, days.from, days.to];
    const lo = `$${params.length - 1}`;
    const hi = `$${params.length}`;
    const { rows } = await readQuery<{
      day: string;
      session_id: string;
      project: string | null;
      activity: string;
      active_ms: string;
      entries: string;
    }>(
      q,
      `WITH days AS (
        SELECT session_id, day, active_ms, 0 AS entries FROM daily_activity WHERE day BETWEEN ${lo} AND ${hi}
        UNION ALL
        SELECT session_id, day, 0, entries FROM daily_entries WHERE day BETWEEN ${lo} AND ${hi}
      )
      SELECT d.day, r.session_id, r.project, r.activity, sum(d.active_ms) AS active_ms, sum(d.entries) AS entries
      FROM days d JOIN session_rollup r ON r.session_id = d.session_id
      ${filter.where.length > 0 ? `WHERE ${filter.where.join(' AND ')}` : ''}
      GROUP BY d.day, r.session_id, r.project, r.activity
      ORDER BY d.day, r.session_id`,
      params,
    );
    const activity = parsedOnce<Segment[]>();
    return rows.map((r) => ({
      day: r.day,
      sessionId: r.session_id,
      project: r.project,
      activeMs: Number(r.active_ms),
      entries: Number(r.entries),
      activity: activity(r.session_id, r.activity),
    }));
  }
}

class Batch implements DailyBatch {
  readonly #q: Queryable;
  readonly #ops: Op[] = [];

  constructor(q: Queryable) {
    this.#q = q;
  }

  async refresh(sessions: Map<string, Segment[] | null>): Promise<void> {
    if (sessions.size === 0) return;
    await this.#q.query(SQL.clearSessions, [[...sessions.keys()]]);
    const cols: [string[], string[], number[]] = [[], [], []];
    for (const [sessionId, activity] of sessions) {
      for (const [day, ms] of splitByDay(activity ?? [])) {
        cols[0].push(sessionId);
        cols[1].push(day);
        cols[2].push(ms);
      }
    }
    if (cols[0].length > 0) await this.#q.query(SQL.insertDays, cols);
  }

  removing(prev: PreviousDoc): void {
    this.#ops.push({ kind: 'remove', sessionId: prev.sessionId, id: prev.id });
  }

  added(w: WrittenDoc): void {
    this.add(w.sessionId, w.id, w.doc);
  }

  add(sessionId: string, id: string, doc: Record<string, unknown>): void {
    const chunk = chunkFields(doc);
    if (!chunk) return;
    for (const [day, entries] of entriesPerDay(chunk.entries))
      this.#ops.push({ kind: 'upsert', sessionId, id, day, entries });
  }

  async flush(): Promise<void> {
    await applyRuns(this.#ops, {
      remove: (ops) => this.#q.query(SQL.removeChunks, columns(ops, 'sessionId', 'id')),
      upsert: (ops) => this.#q.query(SQL.upsertEntries, columns(ops, 'sessionId', 'id', 'day', 'entries')),
      key: (o) => `${o.sessionId}\u0000${o.id}\u0000${o.day}`,
    });
  }
}
