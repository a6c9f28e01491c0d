/**
 * `transcript_entries`: which chunk document holds which entry range of a file, so a transcript
 * page reads only the chunks that cover it. A re-emitted chunk (same id, more entries) replaces
 * its row; rows are found by chunk id for removal, so no old body is ever parsed.
 */
import type { ProjectedEntry } from '../../../core/documents.js';
import type { PreviousDoc, WrittenDoc } from '../doc-write-observer.js';
import type { SqliteDatabase } from '../sqlite-database.js';
import { chunkFields } from '../../views-common/chunk-fields.js';
import { forEachDoc, LazyStatements, type SqliteView } from './sqlite-view.js';

const DDL = `
CREATE TABLE IF NOT EXISTS transcript_chunks (
  session_id TEXT NOT NULL,
  file TEXT NOT NULL,
  first_index INTEGER NOT NULL,
  entry_count INTEGER NOT NULL,
  chunk_id TEXT NOT NULL,
  PRIMARY KEY (session_id, file, first_index)
);
CREATE INDEX IF NOT EXISTS transcript_chunks_by_id ON transcript_chunks (session_id, chunk_id);
`;

const SQL = {
  remove: 'DELETE FROM transcript_chunks WHERE session_id = ? AND chunk_id = ?',
  upsert: `INSERT INTO transcript_chunks (session_id, file, first_index, entry_count, chunk_id) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (session_id, file, first_index) DO UPDATE SET entry_count = excluded.entry_count, chunk_id = excluded.chunk_id`,
  total:
    'SELECT coalesce(sum(entry_count), 0) AS total FROM transcript_chunks WHERE session_id = ? AND file = ?',
  // The chunk holding `offset` (the last one starting at or before it), then every later one
  // that starts before the page ends.
  covering: `SELECT c.chunk_id, d.body FROM transcript_chunks c
    JOIN docs d ON d.session_id = c.session_id AND d.id = c.chunk_id AND d.deleted = 0
    WHERE c.session_id = @sessionId AND c.file = @file AND c.first_index < @end
      AND c.first_index >= coalesce((SELECT max(first_index) FROM transcript_chunks
        WHERE session_id = @sessionId AND file = @file AND first_index <= @offset), 0)
    ORDER BY c.first_index`,
};

export class TranscriptEntriesView implements SqliteView {
  readonly name = 'transcript_entries' as const;
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
    this.#db.exec('DROP TABLE IF EXISTS transcript_chunks');
  }

  build(): void {
    forEachDoc(this.#db, 'chunk', (row) => this.#add(row.session_id, row.id, JSON.parse(row.body)));
  }

  removing(prev: PreviousDoc): void {
    this.#sql.s.remove.run(prev.sessionId, prev.id);
  }

  added(w: WrittenDoc): void {
    this.#add(w.sessionId, w.id, w.doc);
  }

  #add(sessionId: string, id: string, doc: Record<string, unknown>): void {
    const chunk = chunkFields(doc);
    if (chunk) this.#sql.s.upsert.run(sessionId, chunk.file, chunk.firstIndex, chunk.entryCount, id);
  }

  /** Entries `[offset, offset + limit)` of one file, and how many the file has. */
  page(
    sessionId: string,
    file: string,
    offset: number,
    limit: number,
  ): { total: number; entries: ProjectedEntry[] } {
    const s = this.#sql.s;
    const { total } = s.total.get(sessionId, file) as { total: number };
    if (limit === 0 || offset >= total) return { total, entries: [] };
    const end = offset + limit;
    const byIndex = new Map<number, ProjectedEntry>();
    for (const row of s.covering.all({ sessionId, file, offset, end }) as Array<{ body: string }>) {
      const chunk = chunkFields(JSON.parse(row.body) as Record<string, unknown>);
      for (const entry of chunk?.entries ?? []) {
        if (entry.index >= offset && entry.index < end) byIndex.set(entry.index, entry);
      }
    }
    return { total, entries: [...byIndex.values()].sort((a, b) => a.index - b.index) };
  }
}
