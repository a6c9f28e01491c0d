/**
 * `session_secrets`: each session's count of likely secrets (total and by rule), from its
 * summary's `secrets`, so the list can filter on them and `transcripts secrets` read them without
 * rescanning. A session whose summary says nothing of secrets has no row.
 */
import type { SessionSecretsRow } from '../../contract.js';
import { secretFields } from '../../views-common/secret-fields.js';
import type { PreviousDoc, WrittenDoc } from '../doc-write-observer.js';
import type { SqliteDatabase } from '../sqlite-database.js';
import { forEachDoc, LazyStatements, type SqliteView } from './sqlite-view.js';

const DDL = `
CREATE TABLE IF NOT EXISTS session_secrets (
  session_id TEXT PRIMARY KEY,
  total INTEGER NOT NULL,
  by_rule TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS session_secrets_found ON session_secrets (session_id) WHERE total > 0;
`;

const SQL = {
  remove: 'DELETE FROM session_secrets WHERE session_id = ?',
  write: 'INSERT OR REPLACE INTO session_secrets (session_id, total, by_rule) VALUES (?, ?, ?)',
  read: `SELECT session_id, total, by_rule FROM session_secrets
    WHERE session_id IN (SELECT value FROM json_each(?))`,
};

export class SessionSecretsView implements SqliteView {
  readonly name = 'session_secrets' as const;
  readonly follows = ['summary'];
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
    this.#db.exec('DROP TABLE IF EXISTS session_secrets;');
  }

  build(): void {
    forEachDoc(this.#db, 'summary', (row) => this.#add(row.session_id, JSON.parse(row.body)));
  }

  removing(prev: PreviousDoc): void {
    if (prev.type === 'summary') this.#sql.s.remove.run(prev.sessionId);
  }

  added(w: WrittenDoc): void {
    if (w.type === 'summary') this.#add(w.sessionId, w.doc);
  }

  #add(sessionId: string, doc: Record<string, unknown>): void {
    const f = secretFields(doc);
    if (f) this.#sql.s.write.run(sessionId, f.total, JSON.stringify(f.byRule));
    else this.#sql.s.remove.run(sessionId);
  }

  secrets(ids: string[]): Map<string, SessionSecretsRow> {
    const out = new Map<string, SessionSecretsRow>();
    if (ids.length === 0) return out;
    const rows = this.#sql.s.read.all(JSON.stringify(ids)) as Array<{
      session_id: string;
      total: number;
      by_rule: string;
    }>;
    for (const r of rows)
      out.set(r.session_id, {
        sessionId: r.session_id,
        total: r.total,
        byRule: JSON.parse(r.by_rule) as Record<string, number>,
      });
    return out;
  }
}
