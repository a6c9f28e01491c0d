/**
 * `note_text`: FTS5 over what people wrote on sessions — a session's note and each bookmark's
 * note — so that `search` finds them with the entries (views-common/note-search.ts merges the
 * two rankings). Tokenized as `full_text` is, and kept in step with the annotation documents
 * inside their write: an edit replaces the session's rows, a forget removes them.
 */
import { noteHit, noteTextRows, type NoteHits } from '../../views-common/note-search.js';
import { searchTerms, splitSnippet } from '../../views-common/search-terms.js';
import { spaceCjk } from '../../views-common/search-tokens.js';
import { textSnippet } from '../../views-common/text-snippet.js';
import type { PreviousDoc, WrittenDoc } from '../doc-write-observer.js';
import type { SqliteDatabase } from '../sqlite-database.js';
import { ftsQuery } from './fts-query.js';
import type { FilterSql } from './session-filter-sql.js';
import { forEachDoc, LazyStatements, type SqliteView, type StatementCache } from './sqlite-view.js';

const DDL = `
CREATE TABLE IF NOT EXISTS note_text_entries (
  rowid INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  file TEXT NOT NULL,
  idx INTEGER NOT NULL,
  at TEXT,
  text TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS note_text_entries_session ON note_text_entries (session_id);
CREATE VIRTUAL TABLE IF NOT EXISTS note_text_index USING fts5 (
  text, content = 'note_text_entries', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2'
);
`;

const SQL = {
  sessionRows: 'SELECT rowid, text FROM note_text_entries WHERE session_id = ?',
  removeSession: 'DELETE FROM note_text_entries WHERE session_id = ?',
  insert: 'INSERT INTO note_text_entries (session_id, kind, file, idx, at, text) VALUES (?, ?, ?, ?, ?, ?)',
  indexInsert: 'INSERT INTO note_text_index (rowid, text) VALUES (?, ?)',
  // External content: removing a row from the index needs the text it was indexed with.
  indexDelete: "INSERT INTO note_text_index (note_text_index, rowid, text) VALUES ('delete', ?, ?)",
};

/** Tokens of context around the first match in a snippet, as for entries. */
const SNIPPET_TOKENS = 24;

export class NoteTextView implements SqliteView {
  readonly name = 'note_text' as const;
  readonly follows = ['annotation'];
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
    this.#db.exec('DROP TABLE IF EXISTS note_text_index; DROP TABLE IF EXISTS note_text_entries;');
  }

  build(): void {
    forEachDoc(this.#db, 'annotation', (row) => this.#add(row.session_id, JSON.parse(row.body)));
  }

  removing(prev: PreviousDoc): void {
    const s = this.#sql.s;
    for (const row of s.sessionRows.all(prev.sessionId) as Array<{ rowid: number; text: string }>)
      s.indexDelete.run(row.rowid, spaceCjk(row.text));
    s.removeSession.run(prev.sessionId);
  }

  added(doc: WrittenDoc): void {
    this.#add(doc.sessionId, doc.doc);
  }

  #add(sessionId: string, doc: Record<string, unknown>): void {
    const s = this.#sql.s;
    for (const r of noteTextRows(doc)) {
      const inserted = s.insert.run(sessionId, r.kind, r.file, r.idx, r.at, r.text);
      s.indexInsert.run(inserted.lastInsertRowid, spaceCjk(r.text));
    }
  }

  /** How many notes match, and the best `limit`; `filter` from `sessionFilterSql(…, 'n.session_id')`. */
  search(q: string, limit: number, filter: FilterSql, cache: StatementCache): NoteHits {
    const match = ftsQuery(q);
    if (match === null) return { total: 0, hits: [] };
    const from = `FROM note_text_index
      JOIN note_text_entries n ON n.rowid = note_text_index.rowid
      ${filter.needsRollup ? 'JOIN session_rollup r ON r.session_id = n.session_id' : ''}
      WHERE note_text_index MATCH @match ${filter.where.map((w) => `AND ${w}`).join(' ')}`;
    const params = { ...filter.params, match };
    const { n: total } = cache.get(`SELECT count(*) AS n ${from}`).get(params) as { n: number };
    if (total === 0 || limit === 0) return { total, hits: [] };
    const rows = cache
      .get(
        `SELECT n.session_id, n.kind, n.file, n.idx, n.at, n.text, bm25(note_text_index) AS score ${from}
        ORDER BY score, n.session_id, n.file, n.idx LIMIT @limit`,
      )
      .all({ ...params, limit }) as Array<{
      session_id: string;
      kind: 'note' | 'bookmark';
      file: string;
      idx: number;
      at: string | null;
      text: string;
      score: number;
    }>;
    const terms = searchTerms(q);
    // bm25 is lower-is-better, as for entries.
    const hits = rows.map((r) =>
      noteHit(r, splitSnippet(textSnippet(r.text, terms, SNIPPET_TOKENS)), -r.score),
    );
    return { total, hits };
  }
}
