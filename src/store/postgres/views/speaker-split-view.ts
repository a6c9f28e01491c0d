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
import { chunkFields } from '../../views-common/chunk-fields.js';
import { writeColumns } from '../binary-columns.js';
import { readQuery, type Queryable } from '../postgres-database.js';
import {
  columns,
  forEachDoc,
  pgText,
  applyRuns,
  entryKey,
  type PostgresView,
  type PreviousDoc,
  type ViewBatch,
  type WrittenDoc,
} from './postgres-view.js';
import type { FilterSql } from './session-filter-sql.js';

const DDL = `
CREATE TABLE IF NOT EXISTS speaker_turns (
  session_id text COLLATE "C" NOT NULL,
  file text COLLATE "C" NOT NULL,
  idx int NOT NULL,
  role text NOT NULL,
  timestamp text,
  text text NOT NULL,
  model text,
  -- The timestamp as epoch ms (views-common/turns-query.ts), null when it is not a time.
  at_ms bigint,
  PRIMARY KEY (session_id, file, idx)
);
CREATE INDEX IF NOT EXISTS speaker_turns_by_role ON speaker_turns (session_id, role, idx);
`;
/**
 * How many turns each session has on each side, kept with the turns: the total of the turns across
 * sessions with no time bound is a sum over sessions, where counting the turns themselves took
 * milliseconds (an index-only count of 40k turns, 4–7 ms, against about 1 ms in SQLite).
 */
const COUNTS_DDL = `CREATE TABLE IF NOT EXISTS speaker_turn_counts (
  session_id text COLLATE "C" NOT NULL,
  role text NOT NULL,
  n int NOT NULL,
  PRIMARY KEY (session_id, role)
)`;
/**
 * The turns across sessions, newest first (untimed last), as the embedded engine orders them; with
 * the role and the rest of the key, so a side is picked, counted and paged through from the index.
 */
const TIME_ORDER = 't.at_ms DESC NULLS LAST, t.session_id DESC, t.idx DESC';
const TIME_INDEX_DDL = `CREATE INDEX IF NOT EXISTS speaker_turns_newest
  ON speaker_turns (at_ms DESC NULLS LAST, session_id DESC, idx DESC) INCLUDE (role, file)`;

const SQL = {
  removeRanges: `DELETE FROM speaker_turns t
    USING unnest($1::text[], $2::text[], $3::int[], $4::int[]) AS r(session_id, file, lo, hi)
    WHERE t.session_id = r.session_id AND t.file = r.file AND t.idx >= r.lo AND t.idx < r.hi`,
  upsert: (
    from: string,
  ) => `INSERT INTO speaker_turns (session_id, file, idx, role, timestamp, text, model, at_ms)
    SELECT * FROM ${from}
    ON CONFLICT (session_id, file, idx) DO UPDATE SET role = excluded.role,
      timestamp = excluded.timestamp, text = excluded.text, model = excluded.model, at_ms = excluded.at_ms`,
  // Recounts the sessions a flush touched, both sides (a side with none keeps a 0), from the role index.
  recount: `INSERT INTO speaker_turn_counts (session_id, role, n)
    SELECT s.session_id, r.role,
      (SELECT count(*) FROM speaker_turns t WHERE t.session_id = s.session_id AND t.role = r.role)
    FROM unnest($1::text[]) AS s(session_id) CROSS JOIN (VALUES ('user'), ('assistant')) AS r(role)
    ON CONFLICT (session_id, role) DO UPDATE SET n = excluded.n`,
  // A session left with no turn at all (its chunks removed: forgotten) keeps no count row either.
  dropEmpty: `DELETE FROM speaker_turn_counts c USING unnest($1::text[]) AS s(session_id)
    WHERE c.session_id = s.session_id
      AND NOT EXISTS (SELECT 1 FROM speaker_turns t WHERE t.session_id = s.session_id)`,
  countAll: `INSERT INTO speaker_turn_counts (session_id, role, n)
    SELECT session_id, role, count(*) FROM speaker_turns GROUP BY session_id, role`,
  count: 'SELECT count(*) AS n FROM speaker_turns WHERE session_id = $1',
  countRole: 'SELECT count(*) AS n FROM speaker_turns WHERE session_id = $1 AND role = $2',
  // The page and, on every row, the total: one round trip where there are rows to show.
  page: `SELECT t.*, (SELECT count(*) FROM speaker_turns WHERE session_id = $1) AS total
    FROM (SELECT * FROM speaker_turns WHERE session_id = $1 ORDER BY idx LIMIT $2 OFFSET $3) t ORDER BY t.idx`,
  pageRole: `SELECT t.*, (SELECT count(*) FROM speaker_turns WHERE session_id = $1 AND role = $4) AS total
    FROM (SELECT * FROM speaker_turns WHERE session_id = $1 AND role = $4 ORDER BY idx LIMIT $2 OFFSET $3) t
    ORDER BY t.idx`,
};

interface TurnDbRow {
  file: string;
  idx: number;
  role: 'user' | 'assistant';
  timestamp: string | null;
  text: string;
  model: string | null;
}

type Op =
  | { kind: 'remove'; sessionId: string; file: string; lo: number; hi: number }
  | {
      kind: 'upsert';
      sessionId: string;
      file: string;
      idx: number;
      role: string;
      timestamp: string | null;
      text: string;
      model: string | null;
      atMs: number | null;
    };

export class SpeakerSplitView implements PostgresView {
  readonly name = 'speaker_split' as const;
  readonly follows = ['chunk'];
  readonly needsChunkRange = true;

  async create(q: Queryable): Promise<void> {
    await q.query(DDL);
    await q.query(TIME_INDEX_DDL);
    await q.query(COUNTS_DDL);
  }

  /**
   * `speaker_split_times`: up gives a table made before the turns across sessions their times (from
   * its timestamps), their index and the counts per session; down drops all three.
   */
  async reshape(q: Queryable, _reshape: ViewReshape, direction: 'up' | 'down'): Promise<void> {
    if (direction === 'down') {
      await q.query('DROP INDEX IF EXISTS speaker_turns_newest');
      await q.query('ALTER TABLE speaker_turns DROP COLUMN IF EXISTS at_ms');
      await q.query('DROP TABLE IF EXISTS speaker_turn_counts');
      return;
    }
    const { rows: has } = await q.query(
      `SELECT 1 FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = 'speaker_turns' AND column_name = 'at_ms'`,
    );
    if (has.length === 0) {
      await q.query('ALTER TABLE speaker_turns ADD COLUMN at_ms bigint');
      let after: [string, string, number] = ['', '', -1];
      for (;;) {
        const { rows } = await q.query<{ session_id: string; file: string; idx: number; timestamp: string }>(
          `SELECT session_id, file, idx, timestamp FROM speaker_turns
          WHERE (session_id, file, idx) > ($1, $2, $3) AND timestamp IS NOT NULL
          ORDER BY session_id, file, idx LIMIT 1000`,
          after,
        );
        if (rows.length === 0) break;
        await q.query(
          `UPDATE speaker_turns t SET at_ms = u.at_ms
          FROM unnest($1::text[], $2::text[], $3::int[], $4::bigint[]) AS u(session_id, file, idx, at_ms)
          WHERE t.session_id = u.session_id AND t.file = u.file AND t.idx = u.idx`,
          [
            rows.map((r) => r.session_id),
            rows.map((r) => r.file),
            rows.map((r) => r.idx),
            rows.map((r) => parseTimestamp(r.timestamp)),
          ],
        );
        const last = rows.at(-1)!;
        after = [last.session_id, last.file, last.idx];
      }
    }
    await q.query(TIME_INDEX_DDL);
    // A split made before the counts: counted once, from its turns.
    const { rows: counted } = await q.query<{ has: boolean }>(
      "SELECT to_regclass('speaker_turn_counts') IS NOT NULL AS has",
    );
    if (!counted[0]!.has) {
      await q.query(COUNTS_DDL);
      await q.query(SQL.countAll);
    }
  }

  async drop(q: Queryable): Promise<void> {
    await q.query('DROP TABLE IF EXISTS speaker_turns, speaker_turn_counts');
  }

  async build(q: Queryable): Promise<void> {
    await forEachDoc(q, 'chunk', async (rows) => {
      const batch = new Batch(q);
      for (const row of rows) batch.add(row.session_id, JSON.parse(row.body) as Record<string, unknown>);
      await batch.flush();
    });
  }

  batch(q: Queryable): ViewBatch {
    return new Batch(q);
  }

  async turns(
    q: Queryable,
    sessionId: string,
    role: 'user' | 'assistant' | undefined,
    limit: number,
    offset: number,
  ): Promise<{ total: number; turns: TurnRow[] }> {
    const sid = pgText(sessionId);
    const page = role
      ? await readQuery<TurnDbRow & { total: string }>(q, SQL.pageRole, [sid, limit, offset, role])
      : await readQuery<TurnDbRow & { total: string }>(q, SQL.page, [sid, limit, offset]);
    // An empty page (limit 0, or past the end) carries no total: counted on its own.
    let total = page.rows[0]?.total;
    if (total === undefined) {
      const count = role
        ? await readQuery<{ n: string }>(q, SQL.countRole, [sid, role])
        : await readQuery<{ n: string }>(q, SQL.count, [sid]);
      total = count.rows[0]!.n;
    }
    return { total: Number(total), turns: page.rows.map(toTurn) };
  }

  /**
   * Turns across sessions (`Views.allTurns`); `filter` comes from `sessionFilterSql(q.sessions,
   * 't.session_id')` and may join `session_rollup r`. The page and its total in one statement, as
   * `turns` does.
   */
  async allTurns(
    db: Queryable,
    q: TurnsReading,
    filter: FilterSql,
  ): Promise<{ total: number; turns: SessionTurnRow[] }> {
    const params = [...filter.params];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    const where = [...filter.where];
    if (q.role !== undefined) where.push(`t.role = ${param(q.role)}`);
    if (q.fromMs !== null) where.push(`t.at_ms >= ${param(q.fromMs)}`);
    if (q.toMs !== null) where.push(`t.at_ms <= ${param(q.toMs)}`);
    const over = (table: string) => `FROM ${table} t
      ${filter.needsRollup ? 'JOIN session_rollup r ON r.session_id = t.session_id' : ''}
      ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}`;
    const from = over('speaker_turns');
    // With no time bound, the total is the sessions' counts summed (same conditions, same aliases).
    const count =
      q.fromMs === null && q.toMs === null
        ? `SELECT coalesce(sum(t.n), 0) AS n ${over('speaker_turn_counts')}`
        : `SELECT count(*) AS n ${from}`;
    const counted = params.length;
    // The page's keys come from the index alone (a deep page skips its offset there, not in the
    // table); only the page's rows are read.
    const page = await readQuery<TurnDbRow & { session_id: string; total: string }>(
      db,
      `SELECT t.*, (${count}) AS total
      FROM (SELECT t.session_id, t.file, t.idx ${from}
        ORDER BY ${TIME_ORDER} LIMIT ${param(q.limit)} OFFSET ${param(q.offset)}) k
      JOIN speaker_turns t ON t.session_id = k.session_id AND t.file = k.file AND t.idx = k.idx
      ORDER BY ${TIME_ORDER}`,
      params,
    );
    // An empty page carries no total: counted on its own.
    const total =
      page.rows[0]?.total ?? (await readQuery<{ n: string }>(db, count, params.slice(0, counted))).rows[0]!.n;
    return {
      total: Number(total),
      turns: page.rows.map((r) => ({ sessionId: r.session_id, ...toTurn(r) })),
    };
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

class Batch implements ViewBatch {
  readonly #q: Queryable;
  readonly #ops: Op[] = [];

  constructor(q: Queryable) {
    this.#q = q;
  }

  removing(prev: PreviousDoc): void {
    const range = prev.chunkRange;
    if (range?.file !== MAIN_TRANSCRIPT) return;
    this.#ops.push({
      kind: 'remove',
      sessionId: prev.sessionId,
      file: range.file,
      lo: range.firstIndex,
      hi: range.firstIndex + range.entryCount,
    });
  }

  added(w: WrittenDoc): void {
    this.add(w.sessionId, w.doc);
  }

  add(sessionId: string, doc: Record<string, unknown>): void {
    const chunk = chunkFields(doc);
    if (chunk?.file !== MAIN_TRANSCRIPT) return;
    for (const entry of chunk.entries) {
      const turn = turnOf(entry);
      if (!turn) continue;
      this.#ops.push({
        kind: 'upsert',
        sessionId,
        file: chunk.file,
        idx: entry.index,
        role: turn.role,
        timestamp: typeof entry.timestamp === 'string' ? pgText(entry.timestamp) : null,
        text: pgText(turn.text),
        model: typeof entry.model === 'string' ? pgText(entry.model) : null,
        atMs: parseTimestamp(entry.timestamp),
      });
    }
  }

  async flush(): Promise<void> {
    if (this.#ops.length === 0) return;
    const sessions = [...new Set(this.#ops.map((o) => o.sessionId))];
    await applyRuns(this.#ops, {
      remove: (ops) => this.#q.query(SQL.removeRanges, columns(ops, 'sessionId', 'file', 'lo', 'hi')),
      upsert: (ops) =>
        writeColumns(
          this.#q,
          ops.map((o) => [o.sessionId, o.file, o.idx, o.role, o.timestamp, o.text, o.model, o.atMs]),
          ['text', 'text', 'int', 'text', 'text', 'text', 'text', 'bigint'],
          SQL.upsert,
        ),
      key: entryKey,
    });
    await this.#q.query(SQL.recount, [sessions]);
    await this.#q.query(SQL.dropEmpty, [sessions]);
  }
}
