/**
 * The PostgreSQL document engine: documents, local state, the schema marker and the materialised
 * views in one schema of one database, shared by any number of API processes.
 */
import type { DocStore, StoreCapabilities, Views } from '../contract.js';
import { LOCK, PostgresDatabase, type PostgresDatabaseOptions } from './postgres-database.js';
import { PostgresDocStore } from './postgres-doc-store.js';
import type { PostgresSettings } from './postgres-settings.js';
import { PostgresViews } from './postgres-views.js';

export class PostgresEngine {
  readonly docs: DocStore;
  readonly views: Views;
  readonly capabilities: StoreCapabilities = Object.freeze({
    engine: 'postgres',
    multiProcess: true,
    exactSearchTotals: false,
  });
  readonly #db: PostgresDatabase;
  readonly #docs: PostgresDocStore;

  private constructor(db: PostgresDatabase) {
    this.#db = db;
    const views = new PostgresViews(db);
    this.#docs = new PostgresDocStore(db, views);
    this.docs = this.#docs;
    this.views = views;
  }

  /**
   * Connects and creates the schema's base tables if missing (safe when several processes start
   * at once). Views an older version made are brought up to date by migrations
   * (src/migrations/012-… on), not here.
   */
  static async open(settings: PostgresSettings, options?: PostgresDatabaseOptions): Promise<PostgresEngine> {
    return new PostgresEngine(await PostgresDatabase.open(settings, options));
  }

  /** The schema this engine lives in. */
  get schema(): string {
    return this.#db.schema;
  }

  /**
   * A session-level advisory lock: N processes starting together run their migrations one after
   * another, and each sees the schema marker the previous one wrote (so every step runs once).
   */
  withMigrationLock<T>(fn: () => Promise<T>): Promise<T> {
    return this.#db.withLock(LOCK.migrations, fn);
  }

  counts(): Promise<{ documents: number; sessions: number }> {
    return this.#docs.counts();
  }

  async close(): Promise<void> {
    await this.#db.close();
  }
}
