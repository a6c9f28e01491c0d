/**
 * `session_rollup`: one row per session with a summary document, merged with what its hook
 * events add (hook-recorded, SessionEnd, activity) — the same fold as the embedded engine
 * (views-common/event-stats.ts). Events are folded into `session_event_stats` as they arrive, also
 * for sessions whose summary is not ingested yet; a replaced or deleted event recounts its session.
 * `session_models` (session, model) lets the model filter match any of a session's models.
 * Each flush issues a fixed number of set-based statements, however many sessions a batch touches.
 */
import type { ViewReshape } from '../../contract.js';
import type { Segment } from '../../../core/active-time.js';
import { docIds } from '../../../core/doc-ids.js';
import { applyEvent, emptyEventStats, type EventStats } from '../../views-common/event-stats.js';
import { combinedActivity, summaryFields } from '../../views-common/summary-fields.js';
import { listText } from '../../views-common/session-filter.js';
import { sortValues } from '../../views-common/session-sort.js';
import { tokenSplitJson } from '../../views-common/token-split.js';
import type { Queryable } from '../postgres-database.js';
import {
  pgText,
  type PostgresView,
  type PreviousDoc,
  type ViewBatch,
  type WrittenDoc,
} from './postgres-view.js';

const DDL = `
CREATE TABLE IF NOT EXISTS session_rollup (
  session_id text COLLATE "C" PRIMARY KEY,
  summary_id text COLLATE "C" NOT NULL,
  cwd text COLLATE "C",
  project text COLLATE "C",
  hostname text COLLATE "C",
  source text COLLATE "C",
  first_ms bigint,
  last_ms bigint,
  hook_recorded boolean NOT NULL,
  ended_at text,
  end_reason text,
  event_count int NOT NULL,
  activity text NOT NULL,
  list_text text COLLATE "C" NOT NULL DEFAULT '',
  runtime_ms bigint,
  tokens bigint,
  entries bigint,
  token_split text NOT NULL DEFAULT '[]',
  agent text COLLATE "C"
);
CREATE TABLE IF NOT EXISTS session_models (
  session_id text COLLATE "C" NOT NULL,
  model text COLLATE "C" NOT NULL,
  PRIMARY KEY (session_id, model)
);
CREATE TABLE IF NOT EXISTS session_event_stats (
  session_id text COLLATE "C" PRIMARY KEY,
  event_count int NOT NULL,
  hook_recorded boolean NOT NULL,
  end_id text COLLATE "C",
  end_ms bigint,
  ended_at text,
  end_reason text,
  activity text NOT NULL
);
`;

/**
 * Columns derived from the summary that rollups made by earlier versions lack, by the reshape
 * (migration) that adds them (see reshape), with each one's array type for the fill.
 */
const DERIVED_COLUMNS: Record<
  'session_rollup_columns' | 'session_rollup_agent',
  Record<string, { type: string; array: string }>
> = {
  session_rollup_columns: {
    list_text: { type: `text COLLATE "C" NOT NULL DEFAULT ''`, array: 'text[]' },
    runtime_ms: { type: 'bigint', array: 'bigint[]' },
    tokens: { type: 'bigint', array: 'bigint[]' },
    entries: { type: 'bigint', array: 'bigint[]' },
    token_split: { type: `text NOT NULL DEFAULT '[]'`, array: 'text[]' },
  },
  session_rollup_agent: { agent: { type: 'text COLLATE "C"', array: 'text[]' } },
};

const SQL = {
  events: `SELECT session_id, id, body FROM docs
    WHERE session_id = ANY($1) AND type = 'event' AND NOT deleted`,
  readStats: 'SELECT * FROM session_event_stats WHERE session_id = ANY($1)',
  deleteStats: 'DELETE FROM session_event_stats WHERE session_id = ANY($1)',
  writeStats: `INSERT INTO session_event_stats
      (session_id, event_count, hook_recorded, end_id, end_ms, ended_at, end_reason, activity)
    SELECT * FROM unnest($1::text[], $2::int[], $3::boolean[], $4::text[], $5::bigint[], $6::text[],
      $7::text[], $8::text[])
    ON CONFLICT (session_id) DO UPDATE SET event_count = excluded.event_count,
      hook_recorded = excluded.hook_recorded, end_id = excluded.end_id, end_ms = excluded.end_ms,
      ended_at = excluded.ended_at, end_reason = excluded.end_reason, activity = excluded.activity`,
  // By its conventional id first, else the first summary of the session by id (as the embedded engine).
  summaries: `SELECT DISTINCT ON (session_id) session_id, id, body FROM docs
    WHERE session_id = ANY($1) AND type = 'summary' AND NOT deleted
    ORDER BY session_id, (id <> $2 || session_id), id`,
  deleteRollup: 'DELETE FROM session_rollup WHERE session_id = ANY($1)',
  deleteModels: 'DELETE FROM session_models WHERE session_id = ANY($1)',
  writeRollup: `INSERT INTO session_rollup
      (session_id, summary_id, cwd, project, hostname, source, first_ms, last_ms,
       hook_recorded, ended_at, end_reason, event_count, activity, list_text, runtime_ms, tokens, entries,
       token_split, agent)
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
      $7::bigint[], $8::bigint[], $9::boolean[], $10::text[], $11::text[], $12::int[], $13::text[],
      $14::text[], $15::bigint[], $16::bigint[], $17::bigint[], $18::text[], $19::text[])
    ON CONFLICT (session_id) DO UPDATE SET summary_id = excluded.summary_id, cwd = excluded.cwd,
      project = excluded.project, hostname = excluded.hostname, source = excluded.source,
      first_ms = excluded.first_ms, last_ms = excluded.last_ms, hook_recorded = excluded.hook_recorded,
      ended_at = excluded.ended_at, end_reason = excluded.end_reason, event_count = excluded.event_count,
      activity = excluded.activity, list_text = excluded.list_text, runtime_ms = excluded.runtime_ms,
      tokens = excluded.tokens, entries = excluded.entries, token_split = excluded.token_split,
      agent = excluded.agent`,
  insertModels: `INSERT INTO session_models (session_id, model)
    SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT DO NOTHING`,
  sessions: `SELECT DISTINCT session_id FROM docs WHERE type IN ('summary', 'event') AND NOT deleted`,
};

/** `summary:` — the conventional summary id is this prefix and the session id. */
const SUMMARY_PREFIX = docIds.summary('');

/** Sessions per statement when a build refreshes everything. */
const BUILD_SESSIONS = 500;

interface StatsRow {
  session_id: string;
  event_count: number;
  hook_recorded: boolean;
  end_id: string | null;
  end_ms: string | null;
  ended_at: string | null;
  end_reason: string | null;
  activity: string;
}

export interface RollupBatch extends ViewBatch {
  /** After flush: every refreshed session's activity, or null when it left the rollup. */
  readonly refreshed: Map<string, Segment[] | null>;
}

export class SessionRollupView implements PostgresView {
  readonly name = 'session_rollup' as const;
  readonly follows = ['summary', 'event'];

  async create(q: Queryable): Promise<void> {
    await q.query(DDL);
  }

  async drop(q: Queryable): Promise<void> {
    await q.query(
      'DROP TABLE IF EXISTS session_rollup; DROP TABLE IF EXISTS session_models; DROP TABLE IF EXISTS session_event_stats;',
    );
  }

  /**
   * `session_rollup_columns`: a rollup made before the list's text filter lacks `list_text`, one
   * made before the list's sorts their columns, and one made before the totals `token_split`;
   * `session_rollup_agent`: one made before the agent filter lacks `agent`. Up adds the reshape's
   * missing columns and fills every derived column there is from each session's summary and
   * activity (the columns' presence is the mark); down drops the reshape's columns.
   */
  async reshape(q: Queryable, reshape: ViewReshape, direction: 'up' | 'down'): Promise<void> {
    const own = DERIVED_COLUMNS[reshape as keyof typeof DERIVED_COLUMNS];
    if (direction === 'down') {
      for (const name of Object.keys(own))
        await q.query(`ALTER TABLE session_rollup DROP COLUMN IF EXISTS ${name}`);
      return;
    }
    const columnNames = async () =>
      (
        await q.query<{ column_name: string }>(
          `SELECT column_name FROM information_schema.columns
          WHERE table_schema = current_schema() AND table_name = 'session_rollup'`,
        )
      ).rows.map((c) => c.column_name);
    const had = await columnNames();
    const missing = Object.entries(own).filter(([name]) => !had.includes(name));
    if (missing.length === 0) return;
    for (const [name, { type }] of missing)
      await q.query(`ALTER TABLE session_rollup ADD COLUMN ${name} ${type}`);
    const present = await columnNames();
    const filled = Object.values(DERIVED_COLUMNS)
      .flatMap((c) => Object.entries(c))
      .filter(([name]) => present.includes(name));
    const update = `UPDATE session_rollup r SET ${filled.map(([n]) => `${n} = u.${n}`).join(', ')}
      FROM unnest($1::text[], ${filled.map(([, c], i) => `$${i + 2}::${c.array}`).join(', ')})
        AS u(session_id, ${filled.map(([n]) => n).join(', ')})
      WHERE r.session_id = u.session_id`;
    // In pages by session id: summaries of a large history do not all fit in memory at once.
    let after = '';
    for (;;) {
      const { rows } = await q.query<{ session_id: string; activity: string; body: string }>(
        `SELECT r.session_id, r.activity, d.body FROM session_rollup r
        JOIN docs d ON d.session_id = r.session_id AND d.id = r.summary_id
        WHERE r.session_id > $1 ORDER BY r.session_id LIMIT $2`,
        [after, BUILD_SESSIONS],
      );
      if (rows.length === 0) break;
      const values = rows.map((r): Record<string, unknown> => {
        const doc = JSON.parse(r.body) as Record<string, unknown>;
        const fields = summaryFields(doc);
        const sorted = sortValues(doc, JSON.parse(r.activity) as Segment[]);
        return {
          list_text: pgText(listText(fields, r.session_id)),
          runtime_ms: sorted.runtimeMs,
          tokens: sorted.tokens,
          entries: sorted.entries,
          token_split: tokenSplitJson(doc),
          agent: pgText(fields.agent),
        };
      });
      await q.query(update, [rows.map((r) => r.session_id), ...filled.map(([n]) => values.map((v) => v[n]))]);
      after = rows.at(-1)!.session_id;
    }
  }

  async build(
    q: Queryable,
    onRefreshed?: (refreshed: Map<string, Segment[] | null>) => Promise<void>,
  ): Promise<void> {
    const { rows } = await q.query<{ session_id: string }>(SQL.sessions);
    for (let at = 0; at < rows.length; at += BUILD_SESSIONS) {
      const batch = new Batch(q);
      for (const { session_id } of rows.slice(at, at + BUILD_SESSIONS)) batch.recountSession(session_id);
      await batch.flush();
      await onRefreshed?.(batch.refreshed);
    }
  }

  batch(q: Queryable): RollupBatch {
    return new Batch(q);
  }
}

class Batch implements RollupBatch {
  readonly refreshed = new Map<string, Segment[] | null>();
  readonly #q: Queryable;
  readonly #recount = new Set<string>();
  readonly #touched = new Set<string>();
  /** Events added per session not being recounted, folded into its stored stats at flush. */
  readonly #newEvents = new Map<string, Array<Parameters<typeof applyEvent>[1]>>();

  constructor(q: Queryable) {
    this.#q = q;
  }

  recountSession(sessionId: string): void {
    this.#recount.add(sessionId);
    this.#touched.add(sessionId);
  }

  removing(prev: PreviousDoc): void {
    if (prev.type === 'event') this.#recount.add(prev.sessionId);
    this.#touched.add(prev.sessionId);
  }

  added(w: WrittenDoc): void {
    this.#touched.add(w.sessionId);
    if (w.type !== 'event') return;
    const list = this.#newEvents.get(w.sessionId) ?? [];
    list.push({
      id: w.id,
      timestamp: w.doc.timestamp,
      event: w.doc.event,
      reconstructed: w.doc.reconstructed === true,
      reason: w.doc.reason,
    });
    this.#newEvents.set(w.sessionId, list);
  }

  async flush(): Promise<void> {
    if (this.#touched.size === 0) return;
    const stats = new Map<string, EventStats>();
    const dirty = new Set<string>();

    // Recounted sessions: fold every stored event (documents are already written).
    const recount = [...this.#recount];
    if (recount.length > 0) {
      for (const id of recount) stats.set(id, emptyEventStats());
      const { rows } = await this.#q.query<{ session_id: string; id: string; body: string }>(SQL.events, [
        recount,
      ]);
      for (const row of rows) {
        const e = JSON.parse(row.body) as Record<string, unknown>;
        applyEvent(stats.get(row.session_id)!, {
          id: row.id,
          timestamp: e.timestamp,
          event: e.event,
          reconstructed: e.reconstructed === true,
          reason: e.reason,
        });
      }
      for (const id of recount) dirty.add(id);
    }

    // Everyone else: stored stats, plus the events this batch added.
    const rest = [...this.#touched].filter((id) => !this.#recount.has(id));
    if (rest.length > 0) {
      const { rows } = await this.#q.query<StatsRow>(SQL.readStats, [rest]);
      for (const row of rows) stats.set(row.session_id, fromRow(row));
      for (const id of rest) {
        const s = stats.get(id) ?? emptyEventStats();
        stats.set(id, s);
        const added = this.#newEvents.get(id);
        if (!added) continue;
        for (const e of added) applyEvent(s, e);
        dirty.add(id);
      }
    }
    await this.#writeStats(stats, dirty);
    await this.#refresh([...this.#touched], stats);
  }

  async #writeStats(stats: Map<string, EventStats>, dirty: Set<string>): Promise<void> {
    const gone = [...dirty].filter((id) => stats.get(id)!.eventCount === 0);
    if (gone.length > 0) await this.#q.query(SQL.deleteStats, [gone]);
    const kept = [...dirty].filter((id) => stats.get(id)!.eventCount > 0);
    if (kept.length === 0) return;
    const col = <T>(f: (s: EventStats) => T) => kept.map((id) => f(stats.get(id)!));
    await this.#q.query(SQL.writeStats, [
      kept,
      col((s) => s.eventCount),
      col((s) => s.hookRecorded),
      col((s) => s.endId),
      col((s) => s.endMs),
      col((s) => pgText(s.endedAt)),
      col((s) => pgText(s.endReason)),
      col((s) => JSON.stringify(s.activity)),
    ]);
  }

  /** Recomputes the rollup rows of these sessions from their summaries and event stats. */
  async #refresh(sessions: string[], stats: Map<string, EventStats>): Promise<void> {
    const { rows } = await this.#q.query<{ session_id: string; id: string; body: string }>(SQL.summaries, [
      sessions,
      SUMMARY_PREFIX,
    ]);
    const summaries = new Map(rows.map((r) => [r.session_id, r]));
    await this.#q.query(SQL.deleteModels, [sessions]);
    const gone = sessions.filter((id) => !summaries.has(id));
    if (gone.length > 0) await this.#q.query(SQL.deleteRollup, [gone]);
    for (const id of gone) this.refreshed.set(id, null);

    const cols: unknown[][] = Array.from({ length: 19 }, () => []);
    const models: [string[], string[]] = [[], []];
    for (const [sessionId, summary] of summaries) {
      const doc = JSON.parse(summary.body) as Record<string, unknown>;
      const fields = summaryFields(doc);
      const s = stats.get(sessionId) ?? emptyEventStats();
      const { activity, firstMs, lastMs } = combinedActivity(fields, s);
      const sorted = sortValues(doc, activity);
      const row = [
        sessionId,
        summary.id,
        pgText(fields.cwd),
        pgText(fields.project),
        pgText(fields.hostname),
        pgText(fields.source),
        firstMs,
        lastMs,
        s.hookRecorded,
        pgText(s.endedAt),
        pgText(s.endReason),
        s.eventCount,
        JSON.stringify(activity),
        pgText(listText(fields, sessionId)),
        sorted.runtimeMs,
        sorted.tokens,
        sorted.entries,
        tokenSplitJson(doc),
        pgText(fields.agent),
      ];
      row.forEach((v, i) => cols[i]!.push(v));
      for (const model of fields.models) {
        models[0].push(sessionId);
        models[1].push(pgText(model));
      }
      this.refreshed.set(sessionId, activity);
    }
    if (summaries.size > 0) await this.#q.query(SQL.writeRollup, cols);
    if (models[0].length > 0) await this.#q.query(SQL.insertModels, models);
  }
}

function fromRow(row: StatsRow): EventStats {
  return {
    eventCount: row.event_count,
    hookRecorded: row.hook_recorded,
    endId: row.end_id,
    endMs: row.end_ms === null ? null : Number(row.end_ms),
    endedAt: row.ended_at,
    endReason: row.end_reason,
    activity: JSON.parse(row.activity) as Segment[],
  };
}
