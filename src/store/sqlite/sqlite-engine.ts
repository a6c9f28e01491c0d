/**
 * The embedded document engine: one SQLite file holding documents, local state, the schema
 * marker and the materialised views, with the views maintained inside every doc write.
 */
import type { StoreCapabilities } from '../contract.js';
import { openSqliteDatabase, type SqliteDatabase } from './sqlite-database.js';
import { SqliteDocStore } from './sqlite-doc-store.js';
import { SqliteViews } from './sqlite-views.js';

export class SqliteEngine {
  readonly docs: SqliteDocStore;
  readonly views: SqliteViews;
  readonly capabilities: StoreCapabilities = Object.freeze({ engine: 'sqlite', multiProcess: false });
  readonly #db: SqliteDatabase;
  #lock: Promise<unknown> = Promise.resolve();

  private constructor(db: SqliteDatabase) {
    this.#db = db;
    this.views = new SqliteViews(db);
    this.docs = new SqliteDocStore(db, this.views);
  }

  /** Opens (creating if needed) the database file. */
  static open(file: string): SqliteEngine {
    return new SqliteEngine(openSqliteDatabase(file));
  }

  /**
   * The embedded engine has one writer process, so there is no cross-process lock to take (as
   * Kysely's SqliteAdapter). Callers in this process are still run one after another, so the API's
   * start-up migration and a `POST /api/migrate/up` cannot interleave their steps.
   */
  withMigrationLock<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#lock.then(fn, fn);
    this.#lock = run.catch(() => undefined);
    return run;
  }

  counts(): { documents: number; sessions: number } {
    return this.docs.counts();
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }
}
