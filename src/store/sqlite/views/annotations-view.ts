/**
 * `session_annotations`: what people marked on sessions (stars, tags, notes, bookmarks), indexed
 * from the annotation documents so the list can filter on them, the tag facet count them and the
 * Bookmarks page list them. User data stays in the documents; these rows are derived and rebuilt
 * like any view's.
 */
import type { AnnotationRow, BookmarkRow, SessionFilter } from '../../contract.js';
import { annotationFields } from '../../views-common/annotation-fields.js';
import type { PreviousDoc, WrittenDoc } from '../doc-write-observer.js';
import type { SqliteDatabase } from '../sqlite-database.js';
import { sessionFilterSql } from './session-filter-sql.js';
import { forEachDoc, LazyStatements, type SqliteView, type StatementCache } from './sqlite-view.js';

const DDL = `
CREATE TABLE IF NOT EXISTS session_annotations (
  session_id TEXT PRIMARY KEY,
  starred INTEGER NOT NULL,
  tags TEXT NOT NULL,
  note TEXT NOT NULL,
  bookmarks INTEGER NOT NULL,
  at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS session_annotations_starred ON session_annotations (starred, session_id);
CREATE TABLE IF NOT EXISTS session_tags (
  tag TEXT NOT NULL,
  session_id TEXT NOT NULL,
  PRIMARY KEY (tag, session_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS session_tags_by_session ON session_tags (session_id);
CREATE TABLE IF NOT EXISTS session_bookmarks (
  session_id TEXT NOT NULL,
  file TEXT NOT NULL,
  idx INTEGER NOT NULL,
  note TEXT,
  at TEXT NOT NULL,
  PRIMARY KEY (session_id, file, idx)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS session_bookmarks_newest ON session_bookmarks (at DESC, session_id, file, idx);
`;

const SQL = {
  removeRow: 'DELETE FROM session_annotations WHERE session_id = ?',
  removeTags: 'DELETE FROM session_tags WHERE session_id = ?',
  removeMarks: 'DELETE FROM session_bookmarks WHERE session_id = ?',
  insertRow:
    'INSERT OR REPLACE INTO session_annotations (session_id, starred, tags, note, bookmarks, at) VALUES (?, ?, ?, ?, ?, ?)',
  insertTag: 'INSERT OR IGNORE INTO session_tags (tag, session_id) VALUES (?, ?)',
  insertMark:
    'INSERT OR REPLACE INTO session_bookmarks (session_id, file, idx, note, at) VALUES (?, ?, ?, ?, ?)',
  countMarks: 'SELECT count(*) AS n FROM session_bookmarks',
  pageMarks:
    'SELECT session_id, file, idx, note, at FROM session_bookmarks ORDER BY at DESC, session_id, file, idx LIMIT ? OFFSET ?',
};

interface Row {
  session_id: string;
  starred: number;
  tags: string;
  note: string;
  bookmarks: number;
}

export class AnnotationsView implements SqliteView {
  readonly name = 'session_annotations' as const;
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
    this.#db.exec(
      'DROP TABLE IF EXISTS session_annotations; DROP TABLE IF EXISTS session_tags; DROP TABLE IF EXISTS session_bookmarks;',
    );
  }

  build(): void {
    forEachDoc(this.#db, 'annotation', (row) => this.#add(row.session_id, JSON.parse(row.body)));
  }

  removing(prev: PreviousDoc): void {
    const s = this.#sql.s;
    s.removeRow.run(prev.sessionId);
    s.removeTags.run(prev.sessionId);
    s.removeMarks.run(prev.sessionId);
  }

  added(doc: WrittenDoc): void {
    this.#add(doc.sessionId, doc.doc);
  }

  #add(sessionId: string, doc: Record<string, unknown>): void {
    const s = this.#sql.s;
    const a = annotationFields(doc);
    const at = typeof doc.timestamp === 'string' ? doc.timestamp : '';
    s.insertRow.run(sessionId, a.starred ? 1 : 0, JSON.stringify(a.tags), a.note, a.bookmarks.length, at);
    for (const t of a.tags) s.insertTag.run(t, sessionId);
    for (const b of a.bookmarks) s.insertMark.run(sessionId, b.file, b.index, b.note, b.at);
  }

  annotations(ids: string[]): Map<string, AnnotationRow> {
    const out = new Map<string, AnnotationRow>();
    if (ids.length === 0) return out;
    const rows = this.#db
      .prepare(
        'SELECT session_id, starred, tags, note, bookmarks FROM session_annotations WHERE session_id IN (SELECT value FROM json_each(?))',
      )
      .all(JSON.stringify(ids)) as Row[];
    for (const r of rows)
      out.set(r.session_id, {
        sessionId: r.session_id,
        starred: r.starred === 1,
        tags: JSON.parse(r.tags) as string[],
        note: r.note,
        bookmarks: r.bookmarks,
      });
    return out;
  }

  tagFacet(filter: SessionFilter, cache: StatementCache): Array<{ value: string; sessions: number }> {
    const f = sessionFilterSql(filter, 't.session_id');
    const join = f.needsRollup ? ' JOIN session_rollup r ON r.session_id = t.session_id' : '';
    const where = f.where.length ? ` WHERE ${f.where.join(' AND ')}` : '';
    const rows = cache
      .get(
        `SELECT t.tag AS value, count(*) AS sessions FROM session_tags t${join}${where}
         GROUP BY t.tag ORDER BY sessions DESC, t.tag`,
      )
      .all(f.params) as Array<{ value: string; sessions: number }>;
    return rows;
  }

  bookmarks(limit: number, offset: number): { total: number; bookmarks: BookmarkRow[] } {
    const s = this.#sql.s;
    const total = (s.countMarks.get() as { n: number }).n;
    const rows = s.pageMarks.all(limit, offset) as Array<{
      session_id: string;
      file: string;
      idx: number;
      note: string | null;
      at: string;
    }>;
    return {
      total,
      bookmarks: rows.map((r) => ({
        sessionId: r.session_id,
        file: r.file,
        index: r.idx,
        note: r.note,
        at: r.at,
      })),
    };
  }
}
