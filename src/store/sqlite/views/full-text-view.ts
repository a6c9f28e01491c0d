/**
 * `full_text`: SQLite FTS5 over entry text. `full_text_entries` holds one row per entry that has
 * searchable text (capped, see entry-search-text.ts) and is the external content of the FTS5
 * index. Its integer rowid is what FTS5 needs; the (session, file, index) key is a unique index,
 * so a replaced chunk's rows are found without a scan. The index is kept in step by this class,
 * not by triggers: a trigger per row made ingest about 2.5 times slower.
 */
import type { SearchHit, SearchQuery, SearchResult, ViewReshape } from '../../contract.js';
import type { PreviousDoc, WrittenDoc } from '../doc-write-observer.js';
import type { SqliteDatabase } from '../sqlite-database.js';
import { chunkFields } from '../../views-common/chunk-fields.js';
import { SEARCH_STALE } from '../../contract.js';
import { entrySearchText } from '../../views-common/entry-search-text.js';
import { olderFormStale } from '../../views-common/search-stale.js';
import { searchTerms, splitSnippet } from '../../views-common/search-terms.js';
import { hasCjk, spaceCjk } from '../../views-common/search-tokens.js';
import { textSnippet } from '../../views-common/text-snippet.js';
import { rankWindow } from '../../views-common/rank-window.js';
import { ftsQuery } from './fts-query.js';
import type { FilterSql } from './session-filter-sql.js';
import { forEachDoc, LazyStatements, type SqliteView, type StatementCache } from './sqlite-view.js';

/**
 * What the index holds of a text: 2 since CJK characters are indexed one by one (`spaceCjk`), 3
 * since tool inputs are indexed as their keys and values (`toolInputText`), not as JSON, 4 since
 * terminal escape sequences are left out (entry-search-text.ts); an index without
 * `full_text_format` is of form 1, where a CJK run was one token.
 */
const FORMAT = 4;

const DDL = `
CREATE TABLE IF NOT EXISTS full_text_entries (
  rowid INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL,
  file TEXT NOT NULL,
  idx INTEGER NOT NULL,
  role TEXT NOT NULL,
  timestamp TEXT,
  text TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS full_text_entries_key ON full_text_entries (session_id, file, idx);
CREATE VIRTUAL TABLE IF NOT EXISTS full_text_index USING fts5 (
  text, content = 'full_text_entries', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TABLE IF NOT EXISTS full_text_format (version INTEGER NOT NULL);
INSERT INTO full_text_format (version) SELECT ${FORMAT} WHERE NOT EXISTS (SELECT 1 FROM full_text_format);
`;

const DROP = `
DROP TABLE IF EXISTS full_text_index;
DROP TABLE IF EXISTS full_text_entries;
DROP TABLE IF EXISTS full_text_format;
`;

const RANGE = 'WHERE session_id = ? AND file = ? AND idx >= ? AND idx < ?';

const SQL = {
  rangeRows: `SELECT rowid, text FROM full_text_entries ${RANGE}`,
  removeRange: `DELETE FROM full_text_entries ${RANGE}`,
  insert: `INSERT INTO full_text_entries (session_id, file, idx, role, timestamp, text) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (session_id, file, idx) DO NOTHING`,
  keyRow: 'SELECT rowid, text FROM full_text_entries WHERE session_id = ? AND file = ? AND idx = ?',
  update: 'UPDATE full_text_entries SET role = ?, timestamp = ?, text = ? WHERE rowid = ?',
  indexInsert: 'INSERT INTO full_text_index (rowid, text) VALUES (?, ?)',
  // FTS5 external content: removing a row from the index needs the text it was indexed with.
  indexDelete: "INSERT INTO full_text_index (full_text_index, rowid, text) VALUES ('delete', ?, ?)",
  counts: 'SELECT count(*) AS entries, count(DISTINCT session_id) AS sessions FROM full_text_entries',
};

/** Extra candidates fetched past the page, so equal scores at its edge sort deterministically. */
const TIE_SPARE = 32;

/** The `take` best-scoring matches from `floor` on, with their entries. */
const CANDIDATES_SQL = `SELECT t.score, e.session_id, e.file, e.idx, e.role, e.timestamp, e.text
  FROM (
    SELECT rowid AS hit, bm25(full_text_index) AS score FROM full_text_index
    WHERE full_text_index MATCH @match AND rowid >= @floor
    ORDER BY score LIMIT @take
  ) t
  JOIN full_text_entries e ON e.rowid = t.hit
  ORDER BY t.score, e.session_id, e.file, e.idx`;

/** The first `pageEnd` of every match from `floor` on scoring at least as well as `edge`. */
const TIED_CANDIDATES_SQL = `SELECT t.score, e.session_id, e.file, e.idx, e.role, e.timestamp, e.text
  FROM (
    SELECT rowid AS hit, bm25(full_text_index) AS score FROM full_text_index
    WHERE full_text_index MATCH @match AND rowid >= @floor
  ) t
  JOIN full_text_entries e ON e.rowid = t.hit
  WHERE t.score <= @edge
  ORDER BY t.score, e.session_id, e.file, e.idx
  LIMIT @pageEnd`;

interface SearchRow {
  session_id: string;
  file: string;
  idx: number;
  role: string;
  timestamp: string | null;
  snippet: string;
  score: number;
}

/** A match, before its snippet is cut. */
type Candidate = Omit<SearchRow, 'snippet'> & { text: string };

function toHit(r: SearchRow): SearchHit {
  return {
    kind: 'entry',
    sessionId: r.session_id,
    file: r.file,
    index: r.idx,
    role: r.role,
    timestamp: r.timestamp,
    snippet: splitSnippet(r.snippet),
    // bm25 is lower-is-better; hits carry higher-is-better relevance.
    rank: -r.score,
  };
}

/** Tokens of context around the first match in a snippet. */
const SNIPPET_TOKENS = 24;

function withSnippets(candidates: Candidate[], q: string): SearchRow[] {
  const terms = searchTerms(q);
  return candidates.map(({ text, ...r }) => ({ ...r, snippet: textSnippet(text, terms, SNIPPET_TOKENS) }));
}

export class FullTextView implements SqliteView {
  readonly name = 'full_text' as const;
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
    this.#db.exec(DROP);
  }

  build(): void {
    forEachDoc(this.#db, 'chunk', (row) => this.#add(row.session_id, JSON.parse(row.body)));
  }

  removing(prev: PreviousDoc): void {
    const range = prev.chunkRange();
    if (!range) return;
    const s = this.#sql.s;
    const key = [prev.sessionId, range.file, range.firstIndex, range.firstIndex + range.entryCount];
    for (const row of s.rangeRows.all(...key) as Array<{ rowid: number; text: string }>) {
      s.indexDelete.run(row.rowid, spaceCjk(row.text));
    }
    s.removeRange.run(...key);
  }

  added(w: WrittenDoc): void {
    this.#add(w.sessionId, w.doc);
  }

  #add(sessionId: string, doc: Record<string, unknown>): void {
    const chunk = chunkFields(doc);
    if (!chunk) return;
    const s = this.#sql.s;
    for (const entry of chunk.entries) {
      const text = entrySearchText(entry);
      if (text.trim() === '') continue;
      const role = typeof entry.role === 'string' ? entry.role : 'other';
      const timestamp = typeof entry.timestamp === 'string' ? entry.timestamp : null;
      const inserted = s.insert.run(sessionId, chunk.file, entry.index, role, timestamp, text);
      if (inserted.changes === 1) {
        s.indexInsert.run(inserted.lastInsertRowid, spaceCjk(text));
        continue;
      }
      // Another chunk already indexed this entry (overlapping chunks): the later write wins.
      const old = s.keyRow.get(sessionId, chunk.file, entry.index) as { rowid: number; text: string };
      s.indexDelete.run(old.rowid, spaceCjk(old.text));
      s.update.run(role, timestamp, text, old.rowid);
      s.indexInsert.run(old.rowid, spaceCjk(text));
    }
  }

  /**
   * `full_text_form`: up brings an index of an older form to this one, inside the caller's write
   * transaction; down leaves it as it is (an older version reads this form, and its own reindex
   * makes its form again). Form 1
   * indexed a CJK run as one token: those rows are indexed again (FTS5 must be told the very text
   * a row was indexed with to remove it, so they cannot wait for their next write). Other rows
   * are the same in both forms; a store without CJK text is only marked. Forms 1 and 2 indexed
   * tool inputs as JSON, and forms before 4 terminal escape codes with the words: remaking those
   * rows means reading every chunk, so search is marked stale instead, and `transcripts reindex`
   * rebuilds it.
   */
  reshape(_reshape: ViewReshape, direction: 'up' | 'down'): void {
    if (direction === 'down') return;
    const marked = this.#db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'full_text_format'")
      .get();
    const form = marked
      ? ((this.#db.prepare('SELECT max(version) AS v FROM full_text_format').get() as { v: number | null })
          .v ?? 1)
      : 1;
    if (form >= FORMAT) return;
    if (form < 2) this.#spaceCjk();
    if (this.#db.prepare('SELECT 1 FROM full_text_entries LIMIT 1').get()) {
      this.#db
        .prepare('INSERT OR REPLACE INTO local_docs (id, value) VALUES (?, ?)')
        .run(SEARCH_STALE, JSON.stringify(olderFormStale(new Date().toISOString())));
    }
    this.#db.exec(DDL);
    this.#db.prepare('UPDATE full_text_format SET version = ?').run(FORMAT);
  }

  /** Form 1 → 2: the rows holding CJK text are indexed again, a character a token. */
  #spaceCjk(): void {
    this.#db.function('ct_has_cjk', { deterministic: true }, (text: unknown) =>
      typeof text === 'string' && hasCjk(text) ? 1 : 0,
    );
    const page = this.#db.prepare(
      'SELECT rowid, text FROM full_text_entries WHERE rowid > ? AND ct_has_cjk(text) ORDER BY rowid LIMIT 500',
    );
    const s = this.#sql.s;
    for (let after = 0; ;) {
      const rows = page.all(after) as Array<{ rowid: number; text: string }>;
      for (const row of rows) {
        s.indexDelete.run(row.rowid, row.text);
        s.indexInsert.run(row.rowid, spaceCjk(row.text));
      }
      if (rows.length < 500) break;
      after = rows[rows.length - 1]!.rowid;
    }
  }

  /** Rebuilds the index from the chunk documents; the tables are recreated, not emptied row by row. */
  reindex(): { entries: number; sessions: number } {
    this.drop();
    this.create();
    this.build();
    return this.#sql.s.counts.get() as { entries: number; sessions: number };
  }

  /** Hits ranked by bm25; `filter` comes from `sessionFilterSql(…, 'e.session_id')`. */
  search(query: SearchQuery, filter: FilterSql, cache: StatementCache): SearchResult {
    const match = ftsQuery(query.q);
    if (match === null) return { total: 0, totalExact: true, hits: [] };
    if (filter.where.length === 0) return this.#searchEverything(match, query, cache);
    const from = `FROM full_text_index
      JOIN full_text_entries e ON e.rowid = full_text_index.rowid
      ${filter.needsRollup ? 'JOIN session_rollup r ON r.session_id = e.session_id' : ''}
      WHERE full_text_index MATCH @match ${filter.where.map((w) => `AND ${w}`).join(' ')}`;
    const params = { ...filter.params, match };
    const { n: total } = cache.get(`SELECT count(*) AS n ${from}`).get(params) as { n: number };
    if (total === 0 || query.limit === 0) return { total, totalExact: true, hits: [] };
    // Snippets are cut in JS from the entry's text (FTS5's snippet() re-tokenizes the stored text,
    // in which a CJK run is one token, while the index holds its characters one by one).
    const candidates = cache
      .get(
        `SELECT e.session_id, e.file, e.idx, e.role, e.timestamp, e.text, bm25(full_text_index) AS score
        ${from}
        ORDER BY score, e.session_id, e.file, e.idx
        LIMIT @limit OFFSET @offset`,
      )
      .all({ ...params, limit: query.limit, offset: query.offset }) as Candidate[];
    const rows = withSnippets(candidates, query.q);
    return { total, totalExact: true, hits: rows.map(toHit) };
  }

  /**
   * An unfiltered search, kept cheap for words that match a large share of the history: the total
   * comes from the index alone, and relevance (bm25) is ranked over the `rankWindow` most recently
   * indexed matches (or as many as the page needs), so a common word costs about the same at any
   * size. Snippets are made only for the page's hits.
   */
  #searchEverything(match: string, query: SearchQuery, cache: StatementCache): SearchResult {
    const { n: total } = cache
      .get('SELECT count(*) AS n FROM full_text_index WHERE full_text_index MATCH ?')
      .get(match) as { n: number };
    if (total === 0 || query.limit === 0) return { total, totalExact: true, hits: [] };
    const window = rankWindow(query.offset, query.limit);
    const floor =
      total <= window
        ? 0
        : (
            cache
              .get(
                'SELECT rowid FROM full_text_index WHERE full_text_index MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?',
              )
              .get(match, window - 1) as { rowid: number }
          ).rowid;
    // The best matches straight from the index (FTS5 keeps only the top rows while it scores),
    // with some spare so that ties at the page's edge are ordered by session, file and index, as a
    // rebuilt index (other rowids) orders them too. Snippets are then cut in JS from the page's
    // texts (as the PostgreSQL engine does): FTS5's snippet() for one row would walk the whole
    // posting list of a common word again, once per hit.
    const pageEnd = query.offset + query.limit;
    const take = pageEnd + TIE_SPARE;
    let candidates = cache.get(CANDIDATES_SQL).all({ match, floor, take }) as Candidate[];
    const edge = candidates[pageEnd - 1];
    if (edge && candidates.length === take && candidates[take - 1]!.score === edge.score) {
      // More rows tie with the page's last one than the spare held, and which of them FTS5 kept
      // is arbitrary: take every row that scores as well as the edge, and sort them all.
      candidates = cache
        .get(TIED_CANDIDATES_SQL)
        .all({ match, floor, edge: edge.score, pageEnd }) as Candidate[];
    }
    const rows = withSnippets(candidates.slice(query.offset, pageEnd), query.q);
    return { total, totalExact: true, hits: rows.map(toHit) };
  }
}
