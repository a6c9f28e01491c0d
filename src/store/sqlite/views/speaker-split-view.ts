/**
 * `speaker_split`: one row per entry of the main transcript that `turnOf` assigns to a side (the
 * You / Claude toggle, and the turns across sessions). A replaced or deleted chunk drops the rows
 * of its old entry range first.
 */
import { parseTimestamp } from '../../../core/active-time.js';
import { MAIN_TRANSCRIPT } from '../../../core/doc-ids.js';
import { turnOf } from '../../../core/transcript/turns.js';
import type { SessionTurnRow, TurnRow, ViewReshape } from '../../contract.js';
import type { TurnsReading } from '../../views-common/turns-query.js';
import type { FilterSql } from './session-filter-sql.js';
import type { PreviousDoc, WrittenDoc } from '../doc-write-observer.js';
import type { SqliteDatabase } from '../sqlite-database.js';
import { chunkFields } from '../../views-common/chunk-fields.js';
import { forEachDoc, LazyStatements, type SqliteView, type StatementCache } from './sqlite-view.js';

const DDL = `
CREATE TABLE IF NOT EXISTS speaker_turns (
  session_id TEXT NOT NULL,
  file TEXT NOT NULL,
  idx INTEGER NOT NULL,
  role TEXT NOT NULL,
  timestamp TEXT,
  text TEXT NOT NULL,
  model TEXT,
  -- The timestamp as epoch ms (views-common/turns-query.ts), null when it is not a time.
  at_ms INTEGER,
  PRIMARY KEY (session_id, file, idx)
);
CREATE INDEX IF NOT EXISTS speaker_turns_by_role ON speaker_turns (session_id, role, idx);
`;
/**
 * The turns across sessions, newest first, walked backwards (NULLs sort first, so untimed turns
 * come last); with the role, so a side is picked and counted from the index alone.
 */
const TIME_INDEX_DDL =
  'CREATE INDEX IF NOT EXISTS speaker_turns_newest ON speaker_turns (at_ms, session_id, idx, role)';

const SQL = {
  removeRange: 'DELETE FROM speaker_turns WHERE session_id = ? AND file = ? AND idx >= ? AND idx < ?',
  upsert: `INSERT INTO speaker_turns (session_id, file, idx, role, timestamp, text, model, at_ms)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (session_id, file, idx) DO UPDATE SET role = excluded.role, timestamp = excluded.timestamp,
      text = excluded.text, model = excluded.model, at_ms = excluded.at_ms`,
  count: 'SELECT count(*) AS n FROM speaker_turns WHERE session_id = ?',
  countRole: 'SELECT count(*) AS n FROM speaker_turns WHERE session_id = ? AND role = ?',
  page: 'SELECT * FROM speaker_turns WHERE session_id = ? ORDER BY idx LIMIT ? OFFSET ?',
  pageRole: 'SELECT * FROM speaker_turns WHERE session_id = ? AND role = ? ORDER BY idx LIMIT ? OFFSET ?',
};

interface TurnDbRow {
  file: string;
  idx: number;
  role: 'user' | 'assistant';
  timestamp: string | null;
  text: string;
  model: string | null;
}

export class SpeakerSplitView implements SqliteView {
  readonly name = 'speaker_split' as const;
  readonly follows = ['chunk'];
  readonly #db: SqliteDatabase;
  readonly #sql: LazyStatements<keyof typeof SQL>;

  constructor(db: SqliteDatabase) {
    this.#db = db;
    this.#sql = new LazyStatements(db, SQL);
  }

  create(): void {
    this.#db.exec(DDL);
    this.#db.exec(TIME_INDEX_DDL);
  }

  /**
   * `speaker_split_times`: up gives a table made before the turns across sessions their times (from
   * its timestamps) and index; down drops both.
   */
  reshape(_reshape: ViewReshape, direction: 'up' | 'down'): void {
    const columns = this.#db.prepare('PRAGMA table_info(speaker_turns)').all() as Array<{ name: string }>;
    const timed = columns.some((c) => c.name === 'at_ms');
    this.#sql.forget();
    if (direction === 'down') {
      this.#db.exec('DROP INDEX IF EXISTS speaker_turns_newest');
      if (timed) this.#db.exec('ALTER TABLE speaker_turns DROP COLUMN at_ms');
      return;
    }
    if (!timed) {
      this.#db.exec('ALTER TABLE speaker_turns ADD COLUMN at_ms INTEGER');
      const page = this.#db.prepare(
        'SELECT rowid AS id, timestamp FROM speaker_turns WHERE rowid > ? AND timestamp IS NOT NULL ORDER BY rowid LIMIT 1000',
      );
      const set = this.#db.prepare('UPDATE speaker_turns SET at_ms = ? WHERE rowid = ?');
      for (let after = 0; ;) {
        const rows = page.all(after) as Array<{ id: number; timestamp: string }>;
        for (const r of rows) set.run(parseTimestamp(r.timestamp), r.id);
        if (rows.length < 1000) break;
        after = rows.at(-1)!.id;
      }
    }
    this.#db.exec(TIME_INDEX_DDL);
  }

  drop(): void {
    this.#sql.forget();
    this.#db.exec('DROP TABLE IF EXISTS speaker_turns');
  }

  build(): void {
    forEachDoc(this.#db, 'chunk', (row) => this.#add(row.session_id, JSON.parse(row.body)));
  }

  removing(prev: PreviousDoc): void {
    const range = prev.chunkRange();
    if (range?.file === MAIN_TRANSCRIPT) {
      this.#sql.s.removeRange.run(
        prev.sessionId,
        range.file,
        range.firstIndex,
        range.firstIndex + range.entryCount,
      );
    }
  }

  added(w: WrittenDoc): void {
    this.#add(w.sessionId, w.doc);
  }

  #add(sessionId: string, doc: Record<string, unknown>): void {
    const chunk = chunkFields(doc);
    if (chunk?.file !== MAIN_TRANSCRIPT) return;
    const upsert = this.#sql.s.upsert;
    for (const entry of chunk.entries) {
      const turn = turnOf(entry);
      if (!turn) continue;
      const model = typeof entry.model === 'string' ? entry.model : null;
      const timestamp = typeof entry.timestamp === 'string' ? entry.timestamp : null;
      upsert.run(
        sessionId,
        chunk.file,
        entry.index,
        turn.role,
        timestamp,
        turn.text,
        model,
        parseTimestamp(timestamp),
      );
    }
  }

  turns(
    sessionId: string,
    role: 'user' | 'assistant' | undefined,
    limit: number,
    offset: number,
  ): { total: number; turns: TurnRow[] } {
    const s = this.#sql.s;
    const { n: total } = (role ? s.countRole.get(sessionId, role) : s.count.get(sessionId)) as { n: number };
    const rows = (
      role ? s.pageRole.all(sessionId, role, limit, offset) : s.page.all(sessionId, limit, offset)
    ) as TurnDbRow[];
    return { total, turns: rows.map(toTurn) };
  }

  /**
   * Turns across sessions (`Views.allTurns`); `filter` comes from `sessionFilterSql(q.sessions,
   * 't.session_id')` and may join `session_rollup r`.
   */
  allTurns(
    q: TurnsReading,
    filter: FilterSql,
    cache: StatementCache,
  ): { total: number; turns: SessionTurnRow[] } {
    const where = [...filter.where];
    const params: Record<string, string | number> = { ...filter.params };
    if (q.role !== undefined) {
      where.push('t.role = @t_role');
      params.t_role = q.role;
    }
    if (q.fromMs !== null) {
      where.push('t.at_ms >= @t_from');
      params.t_from = q.fromMs;
    }
    if (q.toMs !== null) {
      where.push('t.at_ms <= @t_to');
      params.t_to = q.toMs;
    }
    const from = `FROM speaker_turns t ${filter.needsRollup ? 'JOIN session_rollup r ON r.session_id = t.session_id' : ''}
      ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}`;
    const { n: total } = cache.get(`SELECT count(*) AS n ${from}`).get(params) as { n: number };
    const rows = cache
      .get(
        `SELECT t.* ${from} ORDER BY t.at_ms DESC, t.session_id DESC, t.idx DESC LIMIT @t_limit OFFSET @t_offset`,
      )
      .all({ ...params, t_limit: q.limit, t_offset: q.offset }) as Array<TurnDbRow & { session_id: string }>;
    return { total, turns: rows.map((r) => ({ sessionId: r.session_id, ...toTurn(r) })) };
  }
}

function toTurn(r: TurnDbRow): TurnRow {
  return {
    index: r.idx,
    file: r.file,
    role: r.role,
    timestamp: r.timestamp,
    text: r.text,
    ...(r.model !== null ? { model: r.model } : {}),
  };
}
