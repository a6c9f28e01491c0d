/**
 * `speaker_split`: one row per entry of the main transcript that `turnOf` assigns to a side (the
 * You / Claude toggle). A replaced or deleted chunk drops the rows of its old entry range first.
 */
import { MAIN_TRANSCRIPT } from '../../../core/documents.js';
import { turnOf } from '../../../core/transcript/turns.js';
import type { TurnRow } from '../../contract.js';
import type { PreviousDoc, WrittenDoc } from '../doc-write-observer.js';
import type { SqliteDatabase } from '../sqlite-database.js';
import { chunkFields } from '../../views-common/chunk-fields.js';
import { forEachDoc, LazyStatements, type SqliteView } from './sqlite-view.js';

const DDL = `
CREATE TABLE IF NOT EXISTS speaker_turns (
  session_id TEXT NOT NULL,
  file TEXT NOT NULL,
  idx INTEGER NOT NULL,
  role TEXT NOT NULL,
  timestamp TEXT,
  text TEXT NOT NULL,
  model TEXT,
  PRIMARY KEY (session_id, file, idx)
);
CREATE INDEX IF NOT EXISTS speaker_turns_by_role ON speaker_turns (session_id, role, idx);
`;

const SQL = {
  removeRange: 'DELETE FROM speaker_turns WHERE session_id = ? AND file = ? AND idx >= ? AND idx < ?',
  upsert: `INSERT INTO speaker_turns (session_id, file, idx, role, timestamp, text, model) VALUES (?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (session_id, file, idx) DO UPDATE SET role = excluded.role, timestamp = excluded.timestamp,
      text = excluded.text, model = excluded.model`,
  count: 'SELECT count(*) AS n FROM speaker_turns WHERE session_id = ?',
  countRole: 'SELECT count(*) AS n FROM speaker_turns WHERE session_id = ? AND role = ?',
  page: 'SELECT * FROM speaker_turns WHERE session_id = ? ORDER BY idx LIMIT ? OFFSET ?',
  pageRole: 'SELECT * FROM speaker_turns WHERE session_id = ? AND role = ? ORDER BY idx LIMIT ? OFFSET ?',
};

interface TurnDbRow {
  file: string;
  idx: number;
  role: 'user' | 'assistant';
  timestamp: string | null;
  text: string;
  model: string | null;
}

export class SpeakerSplitView implements SqliteView {
  readonly name = 'speaker_split' as const;
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
    this.#db.exec('DROP TABLE IF EXISTS speaker_turns');
  }

  build(): void {
    forEachDoc(this.#db, 'chunk', (row) => this.#add(row.session_id, JSON.parse(row.body)));
  }

  removing(prev: PreviousDoc): void {
    const range = prev.chunkRange();
    if (range?.file === MAIN_TRANSCRIPT) {
      this.#sql.s.removeRange.run(
        prev.sessionId,
        range.file,
        range.firstIndex,
        range.firstIndex + range.entryCount,
      );
    }
  }

  added(w: WrittenDoc): void {
    this.#add(w.sessionId, w.doc);
  }

  #add(sessionId: string, doc: Record<string, unknown>): void {
    const chunk = chunkFields(doc);
    if (chunk?.file !== MAIN_TRANSCRIPT) return;
    const upsert = this.#sql.s.upsert;
    for (const entry of chunk.entries) {
      const turn = turnOf(entry);
      if (!turn) continue;
      const model = typeof entry.model === 'string' ? entry.model : null;
      const timestamp = typeof entry.timestamp === 'string' ? entry.timestamp : null;
      upsert.run(sessionId, chunk.file, entry.index, turn.role, timestamp, turn.text, model);
    }
  }

  turns(
    sessionId: string,
    role: 'user' | 'assistant' | undefined,
    limit: number,
    offset: number,
  ): { total: number; turns: TurnRow[] } {
    const s = this.#sql.s;
    const { n: total } = (role ? s.countRole.get(sessionId, role) : s.count.get(sessionId)) as { n: number };
    const rows = (
      role ? s.pageRole.all(sessionId, role, limit, offset) : s.page.all(sessionId, limit, offset)
    ) as TurnDbRow[];
    return {
      total,
      turns: rows.map((r) => ({
        index: r.idx,
        file: r.file,
        role: r.role,
        timestamp: r.timestamp,
        text: r.text,
        ...(r.model !== null ? { model: r.model } : {}),
      })),
    };
  }
}
