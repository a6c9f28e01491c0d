/**
 * `session_annotations`: what people marked on sessions (stars, tags, notes, bookmarks), indexed
 * from the annotation documents, as in the embedded engine (sqlite/views/annotations-view.ts).
 * Annotations are written a few at a time by people, so a batch applies its operations one
 * statement each, in order. Text PostgreSQL refuses (NUL) reads as U+FFFD here (`pgText`), as in
 * the other views: the documents keep what was written.
 */
import type { AnnotationRow, BookmarkRow, SessionFilter } from '../../contract.js';
import { annotationFields } from '../../views-common/annotation-fields.js';
import type { Queryable } from '../postgres-database.js';
import { forEachDoc, pgText, type PostgresView, type ViewBatch } from './postgres-view.js';
import { sessionFilterSql } from './session-filter-sql.js';

const DDL = `
CREATE TABLE IF NOT EXISTS session_annotations (
  session_id text COLLATE "C" PRIMARY KEY,
  starred boolean NOT NULL,
  tags text[] NOT NULL,
  note text NOT NULL,
  bookmarks int NOT NULL,
  at text NOT NULL
);
CREATE INDEX IF NOT EXISTS session_annotations_starred ON session_annotations (session_id) WHERE starred;
CREATE TABLE IF NOT EXISTS session_tags (
  tag text COLLATE "C" NOT NULL,
  session_id text COLLATE "C" NOT NULL,
  PRIMARY KEY (session_id, tag)
);
CREATE INDEX IF NOT EXISTS session_tags_by_tag ON session_tags (tag, session_id);
CREATE TABLE IF NOT EXISTS session_bookmarks (
  session_id text COLLATE "C" NOT NULL,
  file text COLLATE "C" NOT NULL,
  idx int NOT NULL,
  note text,
  at text NOT NULL,
  PRIMARY KEY (session_id, file, idx)
);
CREATE INDEX IF NOT EXISTS session_bookmarks_newest ON session_bookmarks (at DESC, session_id, file, idx);
`;

type Op =
  { kind: 'remove'; sessionId: string } | { kind: 'add'; sessionId: string; doc: Record<string, unknown> };

async function remove(q: Queryable, sessionId: string): Promise<void> {
  const id = pgText(sessionId);
  await q.query('DELETE FROM session_annotations WHERE session_id = $1', [id]);
  await q.query('DELETE FROM session_tags WHERE session_id = $1', [id]);
  await q.query('DELETE FROM session_bookmarks WHERE session_id = $1', [id]);
}

async function add(q: Queryable, sessionId: string, doc: Record<string, unknown>): Promise<void> {
  const a = annotationFields(doc);
  const at = typeof doc.timestamp === 'string' ? doc.timestamp : '';
  await q.query(
    `INSERT INTO session_annotations (session_id, starred, tags, note, bookmarks, at) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (session_id) DO UPDATE SET starred = excluded.starred, tags = excluded.tags,
       note = excluded.note, bookmarks = excluded.bookmarks, at = excluded.at`,
    [
      pgText(sessionId),
      a.starred,
      a.tags.map((t) => pgText(t)),
      pgText(a.note),
      a.bookmarks.length,
      pgText(at),
    ],
  );
  if (a.tags.length > 0)
    await q.query(
      `INSERT INTO session_tags (tag, session_id) SELECT t, $2 FROM unnest($1::text[]) AS t ON CONFLICT DO NOTHING`,
      [a.tags.map((t) => pgText(t)), pgText(sessionId)],
    );
  if (a.bookmarks.length > 0)
    await q.query(
      `INSERT INTO session_bookmarks (session_id, file, idx, note, at)
       SELECT $1, * FROM unnest($2::text[], $3::int[], $4::text[], $5::text[])
       ON CONFLICT (session_id, file, idx) DO UPDATE SET note = excluded.note, at = excluded.at`,
      [
        pgText(sessionId),
        a.bookmarks.map((b) => pgText(b.file)),
        a.bookmarks.map((b) => b.index),
        a.bookmarks.map((b) => (b.note === null ? null : pgText(b.note))),
        a.bookmarks.map((b) => pgText(b.at)),
      ],
    );
}

export class AnnotationsView implements PostgresView {
  readonly name = 'session_annotations' as const;
  readonly follows = ['annotation'];

  async create(q: Queryable): Promise<void> {
    await q.query(DDL);
  }

  async drop(q: Queryable): Promise<void> {
    await q.query(
      'DROP TABLE IF EXISTS session_annotations; DROP TABLE IF EXISTS session_tags; DROP TABLE IF EXISTS session_bookmarks;',
    );
  }

  async build(q: Queryable): Promise<void> {
    await forEachDoc(q, 'annotation', async (rows) => {
      for (const row of rows) await add(q, row.session_id, JSON.parse(row.body) as Record<string, unknown>);
    });
  }

  batch(q: Queryable): ViewBatch {
    const ops: Op[] = [];
    return {
      removing: (prev) => void ops.push({ kind: 'remove', sessionId: prev.sessionId }),
      added: (doc) => void ops.push({ kind: 'add', sessionId: doc.sessionId, doc: doc.doc }),
      async flush() {
        for (const op of ops.splice(0)) {
          if (op.kind === 'remove') await remove(q, op.sessionId);
          else await add(q, op.sessionId, op.doc);
        }
      },
    };
  }

  async annotations(q: Queryable, ids: string[]): Promise<Map<string, AnnotationRow>> {
    const out = new Map<string, AnnotationRow>();
    if (ids.length === 0) return out;
    const { rows } = await q.query<{
      session_id: string;
      starred: boolean;
      tags: string[];
      note: string;
      bookmarks: number;
    }>(
      'SELECT session_id, starred, tags, note, bookmarks FROM session_annotations WHERE session_id = ANY($1)',
      [ids.map((id) => pgText(id))],
    );
    for (const r of rows)
      out.set(r.session_id, {
        sessionId: r.session_id,
        starred: r.starred,
        tags: r.tags,
        note: r.note,
        bookmarks: r.bookmarks,
      });
    return out;
  }

  async tagFacet(q: Queryable, filter: SessionFilter): Promise<Array<{ value: string; sessions: number }>> {
    const f = sessionFilterSql(filter, 't.session_id');
    const join = f.needsRollup ? ' JOIN session_rollup r ON r.session_id = t.session_id' : '';
    const where = f.where.length ? ` WHERE ${f.where.join(' AND ')}` : '';
    const { rows } = await q.query<{ value: string; sessions: string }>(
      `SELECT t.tag AS value, count(*) AS sessions FROM session_tags t${join}${where}
       GROUP BY t.tag ORDER BY count(*) DESC, t.tag`,
      f.params,
    );
    return rows.map((r) => ({ value: r.value, sessions: Number(r.sessions) }));
  }

  async bookmarks(
    q: Queryable,
    limit: number,
    offset: number,
  ): Promise<{ total: number; bookmarks: BookmarkRow[] }> {
    const total = await q.query<{ n: string }>('SELECT count(*) AS n FROM session_bookmarks');
    const { rows } = await q.query<{
      session_id: string;
      file: string;
      idx: number;
      note: string | null;
      at: string;
    }>(
      `SELECT session_id, file, idx, note, at FROM session_bookmarks
       ORDER BY at DESC, session_id, file, idx LIMIT $1 OFFSET $2`,
      [limit, offset],
    );
    return {
      total: Number(total.rows[0]!.n),
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
