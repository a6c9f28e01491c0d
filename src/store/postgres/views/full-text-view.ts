/**
 * `full_text`: PostgreSQL full-text search over entry text. `full_text_entries` holds one row per
 * entry with searchable text (capped, see views-common/entry-search-text.ts) and its tsvector
 * (made as search-query.ts says), indexed with GIN. Rows are keyed (session, file, index) like the
 * embedded engine's, so a replaced chunk's rows are found by range and overlapping chunks resolve
 * the same way (the later write wins). Ranking is `ts_rank`; FTS5 ranks by bm25, so the order of
 * hits may differ between engines, their set does not.
 *
 * GIN's pending list (fast update) is kept small: every search scans it whole, and at the default
 * 4 MB a fresh import left each search several milliseconds slower until autovacuum merged it.
 */
import type { SearchHit, SearchQuery } from '../../contract.js';
import { chunkFields } from '../../views-common/chunk-fields.js';
import { entrySearchText } from '../../views-common/entry-search-text.js';
import { splitSnippet } from '../../views-common/search-terms.js';
import { tokenText } from '../../views-common/search-tokens.js';
import { textSnippet } from '../../views-common/text-snippet.js';
import { readQuery, writeValues, type Queryable } from '../postgres-database.js';
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
import { termParams, TS_CONFIG, tsQueryCte } from './search-query.js';
import type { FilterSql } from './session-filter-sql.js';

const TABLE_DDL = `
CREATE TABLE IF NOT EXISTS full_text_entries (
  session_id text COLLATE "C" NOT NULL,
  file text COLLATE "C" NOT NULL,
  idx int NOT NULL,
  role text NOT NULL,
  timestamp text,
  text text NOT NULL,
  tsv tsvector NOT NULL,
  PRIMARY KEY (session_id, file, idx)
);
`;
const INDEX_DDL = `
CREATE INDEX IF NOT EXISTS full_text_entries_tsv ON full_text_entries USING gin (tsv)
  WITH (gin_pending_list_limit = 512);
`;

const SQL = {
  removeRanges: `DELETE FROM full_text_entries t
    USING unnest($1::text[], $2::text[], $3::int[], $4::int[]) AS r(session_id, file, lo, hi)
    WHERE t.session_id = r.session_id AND t.file = r.file AND t.idx >= r.lo AND t.idx < r.hi`,
  upsert: (
    values: string,
  ) => `INSERT INTO full_text_entries (session_id, file, idx, role, timestamp, text, tsv)
    SELECT s, f, i, r, ts, t, to_tsvector('${TS_CONFIG}', k) FROM (VALUES ${values}) AS u(s, f, i, r, ts, t, k)
    ON CONFLICT (session_id, file, idx) DO UPDATE SET role = excluded.role,
      timestamp = excluded.timestamp, text = excluded.text, tsv = excluded.tsv`,
};

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
    };

export class FullTextView implements PostgresView {
  readonly name = 'full_text' as const;
  readonly follows = ['chunk'];
  readonly needsChunkRange = true;

  async create(q: Queryable): Promise<void> {
    await q.query(TABLE_DDL);
  }

  async drop(q: Queryable): Promise<void> {
    await q.query('DROP TABLE IF EXISTS full_text_entries');
  }

  /**
   * Fills the new table from the chunk documents, then builds its GIN index: built in one pass
   * from sorted entries rather than kept up to date row by row, the index costs a fraction of the
   * time (1 GB of history: reindex 44.8 s → 33–35 s). Runs in the caller's transaction with
   * `create`, so no search ever sees the table without its index.
   */
  async build(q: Queryable): Promise<void> {
    await forEachDoc(q, 'chunk', async (rows) => {
      const batch = new Batch(q);
      for (const row of rows) batch.add(row.session_id, JSON.parse(row.body) as Record<string, unknown>);
      await batch.flush();
    });
    await q.query(INDEX_DDL);
  }

  batch(q: Queryable): ViewBatch {
    return new Batch(q);
  }

  /** Rebuilds the index from the chunk documents; the table is recreated, not emptied row by row. */
  async reindex(q: Queryable): Promise<{ entries: number; sessions: number }> {
    await this.drop(q);
    await this.create(q);
    await this.build(q);
    const { rows } = await q.query<{ entries: string; sessions: string }>(
      'SELECT count(*) AS entries, count(DISTINCT session_id) AS sessions FROM full_text_entries',
    );
    return { entries: Number(rows[0]!.entries), sessions: Number(rows[0]!.sessions) };
  }

  /** Hits ranked best first; `filter` comes from `sessionFilterSql(…, 'e.session_id')`. */
  async search(
    q: Queryable,
    query: SearchQuery,
    filter: FilterSql,
  ): Promise<{ total: number; hits: SearchHit[] }> {
    const terms = termParams(query.q);
    if (terms === null) return { total: 0, hits: [] };
    const n = filter.params.length;
    const cte = tsQueryCte(`$${n + 1}`, `$${n + 2}`);
    // The tsquery as a scalar subquery: computed once, and usable as a GIN index condition.
    const match = '(SELECT q FROM query)';
    const from = `FROM full_text_entries e
      ${filter.needsRollup ? 'JOIN session_rollup r ON r.session_id = e.session_id' : ''}
      WHERE e.tsv @@ ${match} ${filter.where.map((w) => `AND ${w}`).join(' ')}`;
    const params = [...filter.params, terms.terms, terms.prefixes];
    // One statement: the total rides along each row of the page. Snippets are cut in JS
    // (views-common/text-snippet.ts) from the page's texts. The rank is computed below an
    // optimisation fence (OFFSET 0), so the window that counts sees narrow rows rather than
    // every match's tsvector, which spilled to disk past work_mem (a rare word: 10 ms → 6 ms).
    const matches = `SELECT e.session_id, e.file, e.idx, ts_rank(e.tsv, ${match}) AS rank ${from} OFFSET 0`;
    const { rows } = await readQuery<{
      session_id: string;
      file: string;
      idx: number;
      role: string;
      timestamp: string | null;
      text: string;
      rank: number;
      total: string;
    }>(
      q,
      `WITH ${cte}, hits AS (
        SELECT m.session_id, m.file, m.idx, m.rank, count(*) OVER () AS total FROM (${matches}) m
        ORDER BY m.rank DESC, m.session_id, m.file, m.idx
        LIMIT $${n + 3} OFFSET $${n + 4}
      )
      SELECT h.session_id, h.file, h.idx, h.rank, h.total, e.role, e.timestamp, e.text
      FROM hits h JOIN full_text_entries e ON e.session_id = h.session_id AND e.file = h.file AND e.idx = h.idx
      ORDER BY h.rank DESC, h.session_id, h.file, h.idx`,
      [...params, query.limit, query.offset],
    );
    if (rows.length === 0) {
      // An empty page (limit 0, offset past the end, no match) says nothing of the total.
      const count = await readQuery<{ n: string }>(q, `WITH ${cte} SELECT count(*) AS n ${from}`, params);
      return { total: Number(count.rows[0]!.n), hits: [] };
    }
    return {
      total: Number(rows[0]!.total),
      hits: rows.map((r) => ({
        sessionId: r.session_id,
        file: r.file,
        index: r.idx,
        role: r.role,
        timestamp: r.timestamp,
        snippet: splitSnippet(textSnippet(r.text, terms.searchTerms)),
        rank: r.rank,
      })),
    };
  }
}

class Batch implements ViewBatch {
  readonly #q: Queryable;
  readonly #ops: Op[] = [];

  constructor(q: Queryable) {
    this.#q = q;
  }

  removing(prev: PreviousDoc): void {
    const range = prev.chunkRange;
    if (!range) return;
    this.#ops.push({
      kind: 'remove',
      sessionId: prev.sessionId,
      file: pgText(range.file),
      lo: range.firstIndex,
      hi: range.firstIndex + range.entryCount,
    });
  }

  added(w: WrittenDoc): void {
    this.add(w.sessionId, w.doc);
  }

  add(sessionId: string, doc: Record<string, unknown>): void {
    const chunk = chunkFields(doc);
    if (!chunk) return;
    for (const entry of chunk.entries) {
      const text = entrySearchText(entry);
      if (text.trim() === '') continue;
      this.#ops.push({
        kind: 'upsert',
        sessionId,
        file: pgText(chunk.file),
        idx: entry.index,
        role: pgText(typeof entry.role === 'string' ? entry.role : 'other'),
        timestamp: typeof entry.timestamp === 'string' ? pgText(entry.timestamp) : null,
        text: pgText(text),
      });
    }
  }

  async flush(): Promise<void> {
    // Overlapping chunks index an entry twice: the later write wins, as in the embedded engine.
    await applyRuns(this.#ops, {
      remove: (ops) => this.#q.query(SQL.removeRanges, columns(ops, 'sessionId', 'file', 'lo', 'hi')),
      upsert: (ops) =>
        writeValues(
          this.#q,
          ops.map((o) => [o.sessionId, o.file, o.idx, o.role, o.timestamp, o.text, tokenText(o.text)]),
          ['text', 'text', 'int', 'text', 'text', 'text', 'text'],
          SQL.upsert,
        ),
      key: entryKey,
    });
  }
}
