/**
 * The prepared statements of `SqliteDocStore`, compiled once per connection (the ingest hot path
 * must not re-prepare per document).
 */
import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from './sqlite-database.js';

export interface DocRow {
  rowid: number;
  session_id: string;
  rev: string;
  hash: string;
  deleted: number;
  type: string | null;
}

export class SqliteDocStatements {
  readonly selectRow: Statement;
  readonly getDoc: Statement;
  readonly getRevs: Statement;
  readonly insertDoc: Statement;
  readonly updateDoc: Statement;
  readonly changes: Statement;
  readonly getLocal: Statement;
  readonly putLocal: Statement;
  readonly deleteLocal: Statement;
  readonly getMarker: Statement;
  readonly setMarker: Statement;
  readonly #maxSeq: Statement;
  readonly #db: SqliteDatabase;
  /** `_all_docs` and `bodies` statements per shape, prepared on first use. */
  readonly #allDocs = new Map<string, Statement>();
  readonly #chunkRange: Statement;
  readonly #countLive: Statement;
  readonly #dropEmptySession: Statement;
  readonly #liveDocuments: Statement;
  readonly #liveSessions: Statement;
  readonly #sessionDocuments: Statement;

  constructor(db: SqliteDatabase) {
    this.#db = db;
    this.selectRow = db.prepare('SELECT rowid, session_id, rev, hash, deleted, type FROM docs WHERE id = ?');
    this.getDoc = db.prepare('SELECT rev, body FROM docs WHERE id = ? AND deleted = 0');
    this.getRevs = db.prepare(
      'SELECT id, rev FROM docs WHERE id IN (SELECT value FROM json_each(?)) AND deleted = 0',
    );
    this.insertDoc = db.prepare(
      'INSERT INTO docs (session_id, id, rev, hash, seq, deleted, type, body) VALUES (?, ?, ?, ?, ?, 0, ?, ?)',
    );
    this.updateDoc = db.prepare(
      'UPDATE docs SET session_id = ?, rev = ?, hash = ?, seq = ?, deleted = ?, type = ?, body = ? WHERE rowid = ?',
    );
    this.changes = db.prepare('SELECT seq, id, rev, deleted FROM docs WHERE seq > ? ORDER BY seq LIMIT ?');
    this.getLocal = db.prepare('SELECT value FROM local_docs WHERE id = ?');
    this.putLocal = db.prepare(
      'INSERT INTO local_docs (id, value) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET value = excluded.value',
    );
    this.deleteLocal = db.prepare('DELETE FROM local_docs WHERE id = ?');
    this.getMarker = db.prepare('SELECT version, history FROM schema_marker WHERE id = 1');
    this.setMarker = db.prepare(
      `INSERT INTO schema_marker (id, version, history) VALUES (1, ?, ?)
       ON CONFLICT (id) DO UPDATE SET version = excluded.version, history = excluded.history`,
    );
    this.#maxSeq = db.prepare('SELECT coalesce(max(seq), 0) AS seq FROM docs');
    this.#chunkRange = db.prepare(
      "SELECT json_extract(body, '$.file', '$.firstIndex', '$.entryCount') AS r FROM docs WHERE rowid = ?",
    );
    this.#countLive = db.prepare(
      `INSERT INTO session_doc_counts (session_id, live) VALUES (?, ?)
       ON CONFLICT (session_id) DO UPDATE SET live = live + excluded.live`,
    );
    this.#dropEmptySession = db.prepare('DELETE FROM session_doc_counts WHERE session_id = ? AND live <= 0');
    this.#liveDocuments = db.prepare('SELECT coalesce(sum(live), 0) AS n FROM session_doc_counts');
    this.#liveSessions = db.prepare("SELECT count(*) AS n FROM session_doc_counts WHERE session_id != ''");
    this.#sessionDocuments = db.prepare(
      "SELECT coalesce(sum(live), 0) AS n FROM session_doc_counts WHERE session_id != ''",
    );
  }

  /**
   * Only the bounds that are given appear in the SQL: `(:start IS NULL OR id >= :start)` would
   * keep SQLite from seeking the id index, and every export page would scan from the first id.
   */
  allDocs(withBodies: boolean, start: boolean, end: boolean): Statement {
    const shape = `${withBodies}/${start}/${end}`;
    let stmt = this.#allDocs.get(shape);
    if (!stmt) {
      const where = ['deleted = 0', ...(start ? ['id >= :start'] : []), ...(end ? ['id <= :end'] : [])];
      stmt = this.#db.prepare(
        `SELECT id, rev${withBodies ? ', body' : ''} FROM docs WHERE ${where.join(' AND ')}
         ORDER BY id LIMIT :limit OFFSET :skip`,
      );
      this.#allDocs.set(shape, stmt);
    }
    return stmt;
  }

  /** Stored bodies in id order as bytes (a BLOB is never decoded to a string), per shape. */
  bodies(from: 'none' | 'start' | 'after', end: boolean): Statement {
    const shape = `bodies/${from}/${end}`;
    let stmt = this.#allDocs.get(shape);
    if (!stmt) {
      const where = [
        'deleted = 0',
        ...(from === 'start' ? ['id >= :from'] : from === 'after' ? ['id > :from'] : []),
        ...(end ? ['id <= :end'] : []),
      ];
      stmt = this.#db.prepare(
        `SELECT id, CAST(body AS BLOB) AS body FROM docs WHERE ${where.join(' AND ')} ORDER BY id LIMIT :limit`,
      );
      this.#allDocs.set(shape, stmt);
    }
    return stmt;
  }

  maxSeq(): number {
    return (this.#maxSeq.get() as { seq: number }).seq;
  }

  chunkRange(rowid: number): { file: string; firstIndex: number; entryCount: number } | null {
    const row = this.#chunkRange.get(rowid) as { r: string | null } | undefined;
    if (!row?.r) return null;
    const [file, firstIndex, entryCount] = JSON.parse(row.r) as unknown[];
    if (typeof file !== 'string' || typeof firstIndex !== 'number' || typeof entryCount !== 'number')
      return null;
    return { file, firstIndex, entryCount };
  }

  countLive(sessionId: string, delta: number): void {
    this.#countLive.run(sessionId, delta);
    if (delta < 0) this.#dropEmptySession.run(sessionId);
  }

  liveDocuments(): number {
    return (this.#liveDocuments.get() as { n: number }).n;
  }

  /** Live documents that belong to a session (design documents and the like excluded). */
  sessionDocuments(): number {
    return (this.#sessionDocuments.get() as { n: number }).n;
  }

  liveSessions(): number {
    return (this.#liveSessions.get() as { n: number }).n;
  }
}
