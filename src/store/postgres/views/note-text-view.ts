/**
 * `note_text`: full-text search over what people wrote on sessions — a session's note and each
 * bookmark's note — as the embedded engine's view (sqlite/views/note-text-view.ts). Tokenized and
 * queried as `full_text` is (search-query.ts), ranked by `ts_rank` like the entries, so that
 * `search` merges the two rankings (views-common/note-search.ts). Notes are few and written by
 * people, a few at a time: no pending list, no ranking window.
 */
import { noteHit, noteTextRows, type NoteHits } from '../../views-common/note-search.js';
import { splitSnippet } from '../../views-common/search-terms.js';
import { tokenText } from '../../views-common/search-tokens.js';
import { textSnippet } from '../../views-common/text-snippet.js';
import { readQuery, type Queryable } from '../postgres-database.js';
import { forEachDoc, pgText, type PostgresView, type ViewBatch } from './postgres-view.js';
import { termParams, TS_CONFIG, tsQueryCte } from './search-query.js';
import type { FilterSql } from './session-filter-sql.js';

const DDL = `
CREATE TABLE IF NOT EXISTS note_text_entries (
  session_id text COLLATE "C" NOT NULL,
  file text COLLATE "C" NOT NULL,
  idx int NOT NULL,
  kind text NOT NULL,
  at text,
  text text NOT NULL,
  tsv tsvector NOT NULL,
  PRIMARY KEY (session_id, file, idx)
);
CREATE INDEX IF NOT EXISTS note_text_entries_tsv ON note_text_entries USING gin (tsv);
`;

type Op =
  { kind: 'remove'; sessionId: string } | { kind: 'add'; sessionId: string; doc: Record<string, unknown> };

async function remove(q: Queryable, sessionId: string): Promise<void> {
  await q.query('DELETE FROM note_text_entries WHERE session_id = $1', [pgText(sessionId)]);
}

async function add(q: Queryable, sessionId: string, doc: Record<string, unknown>): Promise<void> {
  const rows = noteTextRows(doc);
  if (rows.length === 0) return;
  await q.query(
    `INSERT INTO note_text_entries (session_id, kind, file, idx, at, text, tsv)
     SELECT $1, k, f, i, a, t, to_tsvector('${TS_CONFIG}', v)
     FROM unnest($2::text[], $3::text[], $4::int[], $5::text[], $6::text[], $7::text[]) AS u(k, f, i, a, t, v)
     ON CONFLICT (session_id, file, idx) DO UPDATE SET kind = excluded.kind, at = excluded.at,
       text = excluded.text, tsv = excluded.tsv`,
    [
      pgText(sessionId),
      rows.map((r) => r.kind),
      rows.map((r) => pgText(r.file)),
      rows.map((r) => r.idx),
      rows.map((r) => (r.at === null ? null : pgText(r.at))),
      rows.map((r) => pgText(r.text)),
      rows.map((r) => pgText(tokenText(r.text))),
    ],
  );
}

interface Row {
  session_id: string;
  kind: 'note' | 'bookmark';
  file: string;
  idx: number;
  at: string | null;
  text: string;
  rank: number;
  total: string;
}

export class NoteTextView implements PostgresView {
  readonly name = 'note_text' as const;
  readonly follows = ['annotation'];

  async create(q: Queryable): Promise<void> {
    await q.query(DDL);
  }

  async drop(q: Queryable): Promise<void> {
    await q.query('DROP TABLE IF EXISTS note_text_entries');
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

  /** How many notes match, and the best `limit`; `filter` from `sessionFilterSql(…, 'n.session_id')`. */
  async search(q: Queryable, text: string, limit: number, filter: FilterSql): Promise<NoteHits> {
    const terms = termParams(text);
    if (terms === null) return { total: 0, hits: [] };
    const n = filter.params.length;
    const { rows } = await readQuery<Row>(
      q,
      `WITH ${tsQueryCte(`$${n + 1}`, `$${n + 2}`)},
      m AS (SELECT n.session_id, n.kind, n.file, n.idx, n.at, n.text, ts_rank(n.tsv, (SELECT q FROM query)) AS rank
        FROM note_text_entries n
        ${filter.needsRollup ? 'JOIN session_rollup r ON r.session_id = n.session_id' : ''}
        WHERE n.tsv @@ (SELECT q FROM query) ${filter.where.map((w) => `AND ${w}`).join(' ')})
      SELECT m.*, (SELECT count(*) FROM m) AS total FROM m
      ORDER BY m.rank DESC, m.session_id, m.file, m.idx LIMIT $${n + 3}::int`,
      [...filter.params, terms.terms, terms.prefixes, Math.max(limit, 1)],
    );
    if (rows.length === 0) return { total: 0, hits: [] };
    const hits = rows.map((r) => noteHit(r, splitSnippet(textSnippet(r.text, terms.searchTerms)), r.rank));
    return { total: Number(rows[0]!.total), hits: hits.slice(0, limit) };
  }
}
