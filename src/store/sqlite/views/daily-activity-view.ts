/**
 * `daily_activity` (the calendar): active milliseconds per session and UTC day, from the rollup's
 * activity segments split at midnight (refreshed whenever the rollup refreshes a session), and
 * entries per day counted from the chunks' entry timestamps. Entry counts are kept per chunk so a
 * replaced chunk is subtracted by id, without reading its old body.
 */
import type { Segment } from '../../../core/active-time.js';
import type { DayActivity, ViewName } from '../../contract.js';
import type { PreviousDoc, WrittenDoc } from '../doc-write-observer.js';
import type { SqliteDatabase } from '../sqlite-database.js';
import { chunkFields } from '../../views-common/chunk-fields.js';
import type { FilterSql } from './session-filter-sql.js';
import { dayRange, entriesPerDay, parsedOnce, splitByDay } from '../../views-common/split-by-day.js';
import { forEachDoc, LazyStatements, type SqliteView, type StatementCache } from './sqlite-view.js';

const DDL = `
CREATE TABLE IF NOT EXISTS daily_activity (
  session_id TEXT NOT NULL,
  day TEXT NOT NULL,
  active_ms INTEGER NOT NULL,
  PRIMARY KEY (session_id, day)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS daily_activity_by_day ON daily_activity (day, session_id);
CREATE TABLE IF NOT EXISTS daily_entries (
  session_id TEXT NOT NULL,
  chunk_id TEXT NOT NULL,
  day TEXT NOT NULL,
  entries INTEGER NOT NULL,
  PRIMARY KEY (session_id, chunk_id, day)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS daily_entries_by_day ON daily_entries (day, session_id);
`;

const SQL = {
  clearSession: 'DELETE FROM daily_activity WHERE session_id = ?',
  insertDay: 'INSERT INTO daily_activity (session_id, day, active_ms) VALUES (?, ?, ?)',
  removeChunk: 'DELETE FROM daily_entries WHERE session_id = ? AND chunk_id = ?',
  insertEntries:
    'INSERT OR REPLACE INTO daily_entries (session_id, chunk_id, day, entries) VALUES (?, ?, ?, ?)',
  rollups: 'SELECT session_id, activity FROM session_rollup',
};

export class DailyActivityView implements SqliteView {
  readonly name = 'daily_activity' as const;
  readonly requires: ViewName = 'session_rollup';
  readonly follows = ['chunk'];
  readonly #db: SqliteDatabase;
  readonly #sql: LazyStatements<keyof typeof SQL>;

  constructor(db: SqliteDatabase) {
    this.#db = db;
    this.#sql = new LazyStatements(db, SQL);
  }

  create(): void {
    this.#db.exec(DDL);
  }

  drop(): void {
    this.#sql.forget();
    this.#db.exec('DROP TABLE IF EXISTS daily_activity; DROP TABLE IF EXISTS daily_entries;');
  }

  build(): void {
    for (const row of this.#sql.s.rollups.all() as Array<{ session_id: string; activity: string }>) {
      this.refresh(row.session_id, JSON.parse(row.activity) as Segment[]);
    }
    forEachDoc(this.#db, 'chunk', (row) => this.#add(row.session_id, row.id, JSON.parse(row.body)));
  }

  /** Rewrites one session's days from its rollup activity (null: the session left the rollup). */
  refresh(sessionId: string, activity: Segment[] | null): void {
    const s = this.#sql.s;
    s.clearSession.run(sessionId);
    if (!activity) return;
    for (const [day, ms] of splitByDay(activity)) s.insertDay.run(sessionId, day, ms);
  }

  removing(prev: PreviousDoc): void {
    this.#sql.s.removeChunk.run(prev.sessionId, prev.id);
  }

  added(w: WrittenDoc): void {
    this.#add(w.sessionId, w.id, w.doc);
  }

  #add(sessionId: string, id: string, doc: Record<string, unknown>): void {
    const chunk = chunkFields(doc);
    if (!chunk) return;
    for (const [day, n] of entriesPerDay(chunk.entries)) this.#sql.s.insertEntries.run(sessionId, id, day, n);
  }

  /** Session-days in `[from, to]` (days or ISO timestamps, inclusive), day by day. */
  query(from: string, to: string, filter: FilterSql, cache: StatementCache): DayActivity[] {
    const days = dayRange(from, to);
    const rows = cache
      .get(
        `WITH days AS (
          SELECT session_id, day, active_ms, 0 AS entries FROM daily_activity WHERE day BETWEEN @d_from AND @d_to
          UNION ALL
          SELECT session_id, day, 0, entries FROM daily_entries WHERE day BETWEEN @d_from AND @d_to
        )
        SELECT d.day, d.session_id, r.project, r.activity, sum(d.active_ms) AS active_ms, sum(d.entries) AS entries
        FROM days d JOIN session_rollup r ON r.session_id = d.session_id
        ${filter.where.length > 0 ? `WHERE ${filter.where.join(' AND ')}` : ''}
        GROUP BY d.day, d.session_id
        ORDER BY d.day, d.session_id`,
      )
      .all({ ...filter.params, d_from: days.from, d_to: days.to }) as Array<{
      day: string;
      session_id: string;
      project: string | null;
      activity: string;
      active_ms: number;
      entries: number;
    }>;
    const activity = parsedOnce<Segment[]>();
    return rows.map((r) => ({
      day: r.day,
      sessionId: r.session_id,
      project: r.project,
      activeMs: r.active_ms,
      entries: r.entries,
      activity: activity(r.session_id, r.activity),
    }));
  }
}
