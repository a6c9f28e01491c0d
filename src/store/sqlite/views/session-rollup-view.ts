/**
 * `session_rollup`: one row per session with a summary document, merged with what its hook
 * events add (hook-recorded, SessionEnd, activity). Events are folded into `session_event_stats`
 * as they arrive — also for sessions whose summary has not been ingested yet — so a live hook
 * write costs one row update; a replaced or deleted event triggers a recount of that session.
 * `session_models` (session, model) lets the model filter match any of a session's models.
 */
import type { Segment } from '../../../core/active-time.js';
import type { ViewReshape } from '../../contract.js';
import { docIds } from '../../../core/doc-ids.js';
import type { PreviousDoc, WrittenDoc } from '../doc-write-observer.js';
import type { SqliteDatabase } from '../sqlite-database.js';
import { applyEvent, emptyEventStats, type EventStats } from '../../views-common/event-stats.js';
import { LazyStatements, type SqliteView } from './sqlite-view.js';
import { combinedActivity, summaryFields } from '../../views-common/summary-fields.js';
import { listText } from '../../views-common/session-filter.js';
import { sortValues } from '../../views-common/session-sort.js';
import { tokenSplitJson } from '../../views-common/token-split.js';

const DDL = `
CREATE TABLE IF NOT EXISTS session_rollup (
  session_id TEXT PRIMARY KEY,
  summary_id TEXT NOT NULL,
  cwd TEXT,
  project TEXT,
  hostname TEXT,
  source TEXT,
  first_ms INTEGER,
  last_ms INTEGER,
  hook_recorded INTEGER NOT NULL,
  ended_at TEXT,
  end_reason TEXT,
  event_count INTEGER NOT NULL,
  activity TEXT NOT NULL,
  list_text TEXT NOT NULL DEFAULT '',
  runtime_ms INTEGER,
  tokens INTEGER,
  entries INTEGER,
  token_split TEXT NOT NULL DEFAULT '[]',
  agent TEXT
);
CREATE TABLE IF NOT EXISTS session_models (
  session_id TEXT NOT NULL,
  model TEXT NOT NULL,
  PRIMARY KEY (session_id, model)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS session_event_stats (
  session_id TEXT PRIMARY KEY,
  event_count INTEGER NOT NULL,
  hook_recorded INTEGER NOT NULL,
  end_id TEXT,
  end_ms INTEGER,
  ended_at TEXT,
  end_reason TEXT,
  activity TEXT NOT NULL
);
`;

/**
 * Columns derived from the summary that rollups made by earlier versions lack, by the reshape
 * (migration) that adds them (see reshape).
 */
const DERIVED_COLUMNS: Record<'session_rollup_columns' | 'session_rollup_agent', Record<string, string>> = {
  session_rollup_columns: {
    list_text: "TEXT NOT NULL DEFAULT ''",
    runtime_ms: 'INTEGER',
    tokens: 'INTEGER',
    entries: 'INTEGER',
    token_split: "TEXT NOT NULL DEFAULT '[]'",
  },
  session_rollup_agent: { agent: 'TEXT' },
};

const SQL = {
  // By its conventional id first (a key lookup); a scan of the session's rows only when absent.
  summaryById: `SELECT id, body FROM docs WHERE session_id = ? AND id = ? AND type = 'summary' AND deleted = 0`,
  summary: `SELECT id, body FROM docs
    WHERE session_id = ? AND type = 'summary' AND deleted = 0 ORDER BY id LIMIT 1`,
  // json_type, not json_extract: only a JSON `true` marks a reconstructed event, as in the doc.
  events: `SELECT id, json_extract(body, '$.timestamp') AS timestamp, json_extract(body, '$.event') AS event,
      json_type(body, '$.reconstructed') = 'true' AS reconstructed, json_extract(body, '$.reason') AS reason
    FROM docs WHERE session_id = ? AND type = 'event' AND deleted = 0`,
  readStats: 'SELECT * FROM session_event_stats WHERE session_id = ?',
  writeStats: `INSERT OR REPLACE INTO session_event_stats
    (session_id, event_count, hook_recorded, end_id, end_ms, ended_at, end_reason, activity)
    VALUES (@sessionId, @eventCount, @hookRecorded, @endId, @endMs, @endedAt, @endReason, @activity)`,
  deleteStats: 'DELETE FROM session_event_stats WHERE session_id = ?',
  writeRollup: `INSERT OR REPLACE INTO session_rollup
    (session_id, summary_id, cwd, project, hostname, source, first_ms, last_ms,
     hook_recorded, ended_at, end_reason, event_count, activity, list_text, runtime_ms, tokens, entries,
     token_split, agent)
    VALUES (@sessionId, @summaryId, @cwd, @project, @hostname, @source, @firstMs, @lastMs,
     @hookRecorded, @endedAt, @endReason, @eventCount, @activity, @listText, @runtimeMs, @tokens, @entries,
     @tokenSplit, @agent)`,
  deleteRollup: 'DELETE FROM session_rollup WHERE session_id = ?',
  deleteModels: 'DELETE FROM session_models WHERE session_id = ?',
  insertModel: 'INSERT OR IGNORE INTO session_models (session_id, model) VALUES (?, ?)',
  sessions: `SELECT DISTINCT session_id FROM docs WHERE type IN ('summary', 'event') AND deleted = 0`,
};

interface StatsRow {
  event_count: number;
  hook_recorded: number;
  end_id: string | null;
  end_ms: number | null;
  ended_at: string | null;
  end_reason: string | null;
  activity: string;
}

export class SessionRollupView implements SqliteView {
  readonly name = 'session_rollup' as const;
  readonly follows = ['summary', 'event'];
  /** Told about every refreshed session (activity, or null when it left the rollup). */
  onSession: ((sessionId: string, activity: Segment[] | null) => void) | null = null;

  readonly #db: SqliteDatabase;
  readonly #sql: LazyStatements<keyof typeof SQL>;
  /** Per-batch state, written out by flush(). */
  readonly #stats = new Map<string, EventStats>();
  readonly #statsDirty = new Set<string>();
  readonly #recount = new Set<string>();
  readonly #touched = new Set<string>();

  constructor(db: SqliteDatabase) {
    this.#db = db;
    this.#sql = new LazyStatements(db, SQL);
  }

  create(): void {
    this.#db.exec(DDL);
  }

  drop(): void {
    this.#sql.forget();
    this.#db.exec(
      'DROP TABLE IF EXISTS session_rollup; DROP TABLE IF EXISTS session_models; DROP TABLE IF EXISTS session_event_stats;',
    );
  }

  /**
   * `session_rollup_columns`: a rollup made before the list's text filter lacks `list_text`, one
   * made before the list's sorts their columns, and one made before the totals `token_split`;
   * `session_rollup_agent`: one made before the agent filter lacks `agent`. Up adds the reshape's
   * missing columns and fills every derived column there is from each session's summary and
   * activity (one pass over the summaries); down drops the reshape's columns.
   */
  reshape(reshape: ViewReshape, direction: 'up' | 'down'): void {
    const own = DERIVED_COLUMNS[reshape as keyof typeof DERIVED_COLUMNS];
    const columnNames = () =>
      (this.#db.prepare('PRAGMA table_info(session_rollup)').all() as Array<{ name: string }>).map(
        (c) => c.name,
      );
    const had = columnNames();
    this.#sql.forget();
    if (direction === 'down') {
      for (const name of Object.keys(own))
        if (had.includes(name)) this.#db.exec(`ALTER TABLE session_rollup DROP COLUMN ${name}`);
      return;
    }
    const missing = Object.entries(own).filter(([name]) => !had.includes(name));
    if (missing.length === 0) return;
    for (const [name, type] of missing)
      this.#db.exec(`ALTER TABLE session_rollup ADD COLUMN ${name} ${type}`);
    const present = columnNames();
    const filled = Object.values(DERIVED_COLUMNS)
      .flatMap((c) => Object.keys(c))
      .filter((name) => present.includes(name));
    // In pages by session id: summaries of a large history do not all fit in memory at once.
    const page = this.#db.prepare(
      `SELECT r.session_id, r.activity, d.body FROM session_rollup r
      JOIN docs d ON d.session_id = r.session_id AND d.id = r.summary_id
      WHERE r.session_id > ? ORDER BY r.session_id LIMIT 500`,
    );
    const update = this.#db.prepare(
      `UPDATE session_rollup SET ${filled.map((n) => `${n} = @${n}`).join(', ')} WHERE session_id = @session_id`,
    );
    let after = '';
    for (;;) {
      const rows = page.all(after) as Array<{ session_id: string; activity: string; body: string }>;
      if (rows.length === 0) break;
      for (const row of rows) {
        const doc = JSON.parse(row.body) as Record<string, unknown>;
        const fields = summaryFields(doc);
        const sorted = sortValues(doc, JSON.parse(row.activity) as Segment[]);
        const values: Record<string, unknown> = {
          list_text: listText(fields, row.session_id),
          runtime_ms: sorted.runtimeMs,
          tokens: sorted.tokens,
          entries: sorted.entries,
          token_split: tokenSplitJson(doc),
          agent: fields.agent,
        };
        update.run({ session_id: row.session_id, ...Object.fromEntries(filled.map((n) => [n, values[n]])) });
      }
      after = rows.at(-1)!.session_id;
    }
  }

  build(): void {
    for (const { session_id } of this.#sql.s.sessions.all() as Array<{ session_id: string }>) {
      this.#recount.add(session_id);
      this.#touched.add(session_id);
    }
    this.flush();
  }

  removing(prev: PreviousDoc): void {
    if (prev.type === 'event') this.#recount.add(prev.sessionId);
    this.#touched.add(prev.sessionId);
  }

  added(w: WrittenDoc): void {
    this.#touched.add(w.sessionId);
    if (w.type !== 'event' || this.#recount.has(w.sessionId)) return;
    const stats = this.#loadStats(w.sessionId);
    applyEvent(stats, {
      id: w.id,
      timestamp: w.doc.timestamp,
      event: w.doc.event,
      reconstructed: w.doc.reconstructed === true,
      reason: w.doc.reason,
    });
    this.#statsDirty.add(w.sessionId);
  }

  flush(): void {
    const s = this.#sql.s;
    for (const sessionId of this.#recount) {
      const stats = emptyEventStats();
      for (const e of s.events.all(sessionId) as Array<{
        id: string;
        timestamp: unknown;
        event: unknown;
        reconstructed: number;
        reason: unknown;
      }>) {
        applyEvent(stats, { ...e, reconstructed: e.reconstructed === 1 });
      }
      this.#stats.set(sessionId, stats);
      this.#statsDirty.add(sessionId);
    }
    for (const sessionId of this.#statsDirty) {
      const stats = this.#stats.get(sessionId)!;
      if (stats.eventCount === 0) s.deleteStats.run(sessionId);
      else
        s.writeStats.run({
          sessionId,
          ...stats,
          hookRecorded: stats.hookRecorded ? 1 : 0,
          activity: JSON.stringify(stats.activity),
        });
    }
    for (const sessionId of this.#touched) this.#refresh(sessionId);
    this.reset();
  }

  reset(): void {
    this.#stats.clear();
    this.#statsDirty.clear();
    this.#recount.clear();
    this.#touched.clear();
  }

  #loadStats(sessionId: string): EventStats {
    let stats = this.#stats.get(sessionId);
    if (!stats) {
      stats = this.#readStats(sessionId);
      this.#stats.set(sessionId, stats);
    }
    return stats;
  }

  #readStats(sessionId: string): EventStats {
    const row = this.#sql.s.readStats.get(sessionId) as StatsRow | undefined;
    if (!row) return emptyEventStats();
    return {
      eventCount: row.event_count,
      hookRecorded: row.hook_recorded === 1,
      endId: row.end_id,
      endMs: row.end_ms,
      endedAt: row.ended_at,
      endReason: row.end_reason,
      activity: JSON.parse(row.activity) as Segment[],
    };
  }

  /** Recomputes one session's rollup row from its summary and event stats. */
  #refresh(sessionId: string): void {
    const s = this.#sql.s;
    s.deleteModels.run(sessionId);
    const summary = (s.summaryById.get(sessionId, docIds.summary(sessionId)) ?? s.summary.get(sessionId)) as
      { id: string; body: string } | undefined;
    if (!summary) {
      s.deleteRollup.run(sessionId);
      this.onSession?.(sessionId, null);
      return;
    }
    const doc = JSON.parse(summary.body) as Record<string, unknown>;
    const fields = summaryFields(doc);
    const stats = this.#stats.get(sessionId) ?? this.#readStats(sessionId);
    const { activity, firstMs, lastMs } = combinedActivity(fields, stats);
    s.writeRollup.run({
      sessionId,
      summaryId: summary.id,
      cwd: fields.cwd,
      project: fields.project,
      hostname: fields.hostname,
      source: fields.source,
      firstMs,
      lastMs,
      hookRecorded: stats.hookRecorded ? 1 : 0,
      endedAt: stats.endedAt,
      endReason: stats.endReason,
      eventCount: stats.eventCount,
      activity: JSON.stringify(activity),
      listText: listText(fields, sessionId),
      ...sortValues(doc, activity),
      tokenSplit: tokenSplitJson(doc),
      agent: fields.agent,
    });
    for (const model of fields.models) s.insertModel.run(sessionId, model);
    this.onSession?.(sessionId, activity);
  }
}
