/**
 * One materialisable view of the embedded engine: its DDL, its build from stored documents, and
 * its share of per-write maintenance (called inside the write transaction, see
 * doc-write-observer.ts). `SqliteViews` keeps the registry and only calls views that exist.
 */
import type { Statement } from 'better-sqlite3';
import type { ViewName, ViewReshape } from '../../contract.js';
import type { PreviousDoc, WrittenDoc } from '../doc-write-observer.js';
import type { SqliteDatabase } from '../sqlite-database.js';

export interface SqliteView {
  readonly name: ViewName;
  /** A view whose tables this one reads or indexes: it must be materialised first. */
  readonly requires?: ViewName;
  /** Document types whose writes this view follows. */
  readonly follows: readonly string[];
  /** Creates the tables and indexes (IF NOT EXISTS). */
  create(): void;
  /** Removes them (IF EXISTS). */
  drop(): void;
  /** Fills freshly created tables from the stored documents. */
  build(): void;
  /**
   * Applies or reverts one of the view's reshapes (contract.ts `VIEW_RESHAPES`), inside a write
   * transaction; doing nothing when the tables are in that shape already.
   */
  reshape?(reshape: ViewReshape, direction: 'up' | 'down'): void;
  removing?(prev: PreviousDoc): void;
  added?(doc: WrittenDoc): void;
  flush?(): void;
  reset?(): void;
}

/**
 * Prepared statements of a view, each compiled on first use after its tables exist and all
 * forgotten when they are dropped or reshaped (a statement cannot outlive its table). One at a
 * time: a view in an older version's shape (migrated down) prepares only what is used.
 */
export class LazyStatements<K extends string> {
  readonly #db: SqliteDatabase;
  readonly #sql: Record<K, string>;
  readonly #prepared = new Map<K, Statement>();
  readonly s: Record<K, Statement>;

  constructor(db: SqliteDatabase, sql: Record<K, string>) {
    this.#db = db;
    this.#sql = sql;
    const s = {} as Record<K, Statement>;
    for (const key of Object.keys(sql) as K[]) {
      Object.defineProperty(s, key, { enumerable: true, get: () => this.#get(key) });
    }
    this.s = s;
  }

  #get(key: K): Statement {
    let stmt = this.#prepared.get(key);
    if (!stmt) {
      stmt = this.#db.prepare(this.#sql[key]);
      this.#prepared.set(key, stmt);
    }
    return stmt;
  }

  forget(): void {
    this.#prepared.clear();
  }
}

/**
 * Visits every live document of the given type in rowid pages. Paging (not `iterate()`) because
 * the visitor writes through the same connection while the scan is in progress.
 */
export function forEachDoc(
  db: SqliteDatabase,
  type: string,
  visit: (row: { session_id: string; id: string; body: string }) => void,
  pageSize = 200,
): void {
  const page = db.prepare(
    'SELECT rowid, session_id, id, body FROM docs WHERE rowid > ? AND type = ? AND deleted = 0 ORDER BY rowid LIMIT ?',
  );
  let after = 0;
  for (;;) {
    const rows = page.all(after, type, pageSize) as Array<{
      rowid: number;
      session_id: string;
      id: string;
      body: string;
    }>;
    for (const row of rows) visit(row);
    if (rows.length < pageSize) return;
    after = rows[rows.length - 1]!.rowid;
  }
}

/**
 * Statements built from filter combinations (a few dozen distinct texts), prepared once each.
 * Cleared whenever a view's tables are created or dropped.
 */
export class StatementCache {
  readonly #db: SqliteDatabase;
  readonly #cache = new Map<string, Statement>();

  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  get(sql: string): Statement {
    let stmt = this.#cache.get(sql);
    if (!stmt) {
      stmt = this.#db.prepare(sql);
      this.#cache.set(sql, stmt);
    }
    return stmt;
  }

  clear(): void {
    this.#cache.clear();
  }
}
