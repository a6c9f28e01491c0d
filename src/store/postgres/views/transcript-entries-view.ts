/**
 * `transcript_entries`: which chunk document holds which entry range of a file, so a transcript
 * page reads only the chunks that cover it. A re-emitted chunk (same id, more entries) replaces
 * its row; rows are found by chunk id for removal, so no old body is ever read.
 */
import type { ProjectedEntry } from '../../../core/documents.js';
import { chunkFields } from '../../views-common/chunk-fields.js';
import { readQuery, type Queryable } from '../postgres-database.js';
import {
  columns,
  forEachDoc,
  pgText,
  applyRuns,
  type PostgresView,
  type PreviousDoc,
  type ViewBatch,
  type WrittenDoc,
} from './postgres-view.js';

const DDL = `
CREATE TABLE IF NOT EXISTS transcript_chunks (
  session_id text COLLATE "C" NOT NULL,
  file text COLLATE "C" NOT NULL,
  first_index int NOT NULL,
  entry_count int NOT NULL,
  chunk_id text COLLATE "C" NOT NULL,
  PRIMARY KEY (session_id, file, first_index)
);
CREATE INDEX IF NOT EXISTS transcript_chunks_by_id ON transcript_chunks (session_id, chunk_id);
`;

const SQL = {
  remove: `DELETE FROM transcript_chunks c USING unnest($1::text[], $2::text[]) AS r(session_id, chunk_id)
    WHERE c.session_id = r.session_id AND c.chunk_id = r.chunk_id`,
  upsert: `INSERT INTO transcript_chunks (session_id, file, first_index, entry_count, chunk_id)
    SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::text[])
    ON CONFLICT (session_id, file, first_index)
    DO UPDATE SET entry_count = excluded.entry_count, chunk_id = excluded.chunk_id`,
  total: `SELECT coalesce(sum(entry_count), 0) AS total FROM transcript_chunks
    WHERE session_id = $1 AND file = $2`,
  // The chunk holding `offset` (the last one starting at or before it), then every later one
  // that starts before the page ends, each with the file's total: one round trip for a page that
  // has entries. A page past the end gets no rows (not the last chunk, read for nothing).
  covering: `WITH t AS (SELECT coalesce(sum(entry_count), 0) AS total FROM transcript_chunks
      WHERE session_id = $1 AND file = $2)
    SELECT d.body, t.total FROM t, transcript_chunks c
    JOIN docs d ON d.session_id = c.session_id AND d.id = c.chunk_id AND NOT d.deleted
    WHERE c.session_id = $1 AND c.file = $2 AND c.first_index < $4 AND $3 < t.total
      AND c.first_index >= coalesce((SELECT max(first_index) FROM transcript_chunks
        WHERE session_id = $1 AND file = $2 AND first_index <= $3), 0)
    ORDER BY c.first_index`,
};

type Op =
  | { kind: 'remove'; sessionId: string; id: string }
  | { kind: 'upsert'; sessionId: string; id: string; file: string; firstIndex: number; entryCount: number };

export class TranscriptEntriesView implements PostgresView {
  readonly name = 'transcript_entries' as const;
  readonly follows = ['chunk'];

  async create(q: Queryable): Promise<void> {
    await q.query(DDL);
  }

  async drop(q: Queryable): Promise<void> {
    await q.query('DROP TABLE IF EXISTS transcript_chunks');
  }

  async build(q: Queryable): Promise<void> {
    await forEachDoc(q, 'chunk', async (rows) => {
      const batch = new Batch(q);
      for (const row of rows)
        batch.add(row.session_id, row.id, JSON.parse(row.body) as Record<string, unknown>);
      await batch.flush();
    });
  }

  batch(q: Queryable): ViewBatch {
    return new Batch(q);
  }

  /** Entries `[offset, offset + limit)` of one file, and how many the file has. */
  async page(
    q: Queryable,
    sessionId: string,
    file: string,
    offset: number,
    limit: number,
  ): Promise<{ total: number; entries: ProjectedEntry[] }> {
    const key = [pgText(sessionId), pgText(file)];
    const end = offset + limit;
    const { rows } =
      limit === 0
        ? { rows: [] }
        : await readQuery<{ body: string; total: string }>(q, SQL.covering, [...key, offset, end]);
    // No chunk covers the page (limit 0, an empty file, or past the end): counted on its own.
    const total = Number(
      rows[0]?.total ?? (await readQuery<{ total: string }>(q, SQL.total, key)).rows[0]!.total,
    );
    const byIndex = new Map<number, ProjectedEntry>();
    for (const row of rows) {
      const chunk = chunkFields(JSON.parse(row.body) as Record<string, unknown>);
      for (const entry of chunk?.entries ?? []) {
        if (entry.index >= offset && entry.index < end) byIndex.set(entry.index, entry);
      }
    }
    return { total, entries: [...byIndex.values()].sort((a, b) => a.index - b.index) };
  }
}

class Batch implements ViewBatch {
  readonly #q: Queryable;
  readonly #ops: Op[] = [];

  constructor(q: Queryable) {
    this.#q = q;
  }

  removing(prev: PreviousDoc): void {
    this.#ops.push({ kind: 'remove', sessionId: prev.sessionId, id: prev.id });
  }

  added(w: WrittenDoc): void {
    this.add(w.sessionId, w.id, w.doc);
  }

  add(sessionId: string, id: string, doc: Record<string, unknown>): void {
    const chunk = chunkFields(doc);
    if (!chunk) return;
    this.#ops.push({
      kind: 'upsert',
      sessionId,
      id,
      file: pgText(chunk.file),
      firstIndex: chunk.firstIndex,
      entryCount: chunk.entryCount,
    });
  }

  async flush(): Promise<void> {
    await applyRuns(this.#ops, {
      remove: (ops) => this.#q.query(SQL.remove, columns(ops, 'sessionId', 'id')),
      upsert: (ops) =>
        this.#q.query(SQL.upsert, columns(ops, 'sessionId', 'file', 'firstIndex', 'entryCount', 'id')),
      key: (o) => `${o.sessionId}\u0000${o.file}\u0000${o.firstIndex}`,
    });
  }
}
