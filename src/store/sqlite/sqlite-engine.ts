/**
 * The embedded document engine: one SQLite file holding documents, local state, the schema
 * marker and the materialised views, with the views maintained inside every doc write.
 *
 * Two connections to that file: reads run on the main thread's connection; writes go to a writer
 * thread (sqlite-writer.ts) with its own connection. Parsing and serving stay on one core while
 * encoding, hashing, SQLite and view maintenance use the other. WAL keeps readers unblocked.
 */
import type {
  DocInput,
  DocStore,
  SchemaMarker,
  StoreCapabilities,
  ViewName,
  Views,
  WriteResult,
} from '../contract.js';
import { localsOfWrite, prepareDocs, prepareLocals } from '../docs-common/prepare-docs.js';
import { openSqliteDatabase, type SqliteDatabase } from './sqlite-database.js';
import { SqliteDocStore } from './sqlite-doc-store.js';
import { SqliteViews } from './sqlite-views.js';
import { SqliteWriterClient } from './sqlite-writer-client.js';

export class SqliteEngine {
  readonly docs: DocStore;
  readonly views: Views;
  readonly capabilities: StoreCapabilities = Object.freeze({
    engine: 'sqlite',
    multiProcess: false,
    exactSearchTotals: true,
  });
  readonly #db: SqliteDatabase;
  readonly #reads: SqliteDocStore;
  readonly #writer: SqliteWriterClient;
  #lock: Promise<unknown> = Promise.resolve();

  private constructor(db: SqliteDatabase, writer: SqliteWriterClient) {
    this.#db = db;
    this.#writer = writer;
    const readViews = new SqliteViews(db);
    // This connection never writes (the writer thread does), so its doc store needs no observer.
    this.#reads = new SqliteDocStore(db);
    this.docs = writerBackedDocs(this.#reads, writer);
    this.views = writerBackedViews(readViews, writer);
  }

  /**
   * Opens (creating if needed) the database file and starts its writer thread, waiting until it
   * has opened the file too. Views an older version made are brought up to date by migrations
   * (src/migrations/012-… on), not here.
   */
  static async open(file: string): Promise<SqliteEngine> {
    // The main connection opens first: it creates the schema, so the writer finds it in place.
    const db = openSqliteDatabase(file);
    const writer = SqliteWriterClient.start(file);
    try {
      await writer.write('ready');
    } catch (err) {
      await writer.close().catch(() => undefined);
      db.close();
      throw err;
    }
    return new SqliteEngine(db, writer);
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
    return this.#reads.counts();
  }

  async close(): Promise<void> {
    await this.#writer.close();
    if (this.#db.open) this.#db.close();
  }
}

function writerBackedDocs(reads: SqliteDocStore, writer: SqliteWriterClient): DocStore {
  return {
    get: (id) => reads.get(id),
    getRevs: (ids) => reads.getRevs(ids),
    allDocs: (options) => reads.allDocs(options),
    bodies: (options) => reads.bodies(options),
    snapshot: () => reads.snapshot(),
    changes: (since, limit) => reads.changes(since, limit),
    getLocal: (id) => reads.getLocal(id),
    getSchemaMarker: () => reads.getSchemaMarker(),
    localIds: (prefix) => reads.localIds(prefix),
    purgeSession: (sessionId, keep) => writer.write<{ documents: number }>('purgeSession', sessionId, keep),
    // Validation and encoding run here (a bad input never reaches the writer); hashing runs on
    // the writer thread, so the two threads share the work of a write. Only the encoded bodies
    // cross over.
    bulkUpsert: async (docs: DocInput[]) => writer.write<WriteResult[]>('writePrepared', forWriter(docs), []),
    commit: async (docs, locals, options) =>
      writer.write<WriteResult[]>(
        'writePrepared',
        forWriter(docs),
        localsOfWrite(prepareLocals(locals), options),
        { deferSearch: options?.deferSearch === true },
      ),
    delete: (id, rev) => writer.write<WriteResult>('delete', id, rev),
    putLocal: (id, value) => writer.write<void>('putLocal', id, value),
    deleteLocal: (id) => writer.write<void>('deleteLocal', id),
    setSchemaMarker: (marker: SchemaMarker) => writer.write<void>('setSchemaMarker', marker),
  };
}

const forWriter = (docs: DocInput[]) => prepareDocs(docs, { hash: false, doc: false });

function writerBackedViews(reads: SqliteViews, writer: SqliteWriterClient): Views {
  return {
    materialized: () => reads.materialized(),
    materialize: (name: ViewName) => writer.write<void>('materialize', name),
    drop: (name: ViewName) => writer.write<void>('drop', name),
    reshape: (reshape, direction) => writer.write<void>('reshape', reshape, direction),
    reindex: () => writer.write<{ entries: number; sessions: number }>('reindex'),
    reindexBehind: (deferredBefore) =>
      writer.write<{ entries: number; sessions: number } | null>('reindexBehind', deferredBefore),
    listSessions: (filter, page, sort) => reads.listSessions(filter, page, sort),
    getSession: (id) => reads.getSession(id),
    getSessions: (ids) => reads.getSessions(ids),
    transcriptPage: (sessionId, file, page) => reads.transcriptPage(sessionId, file, page),
    turns: (sessionId, role, page) => reads.turns(sessionId, role, page),
    allTurns: (query) => reads.allTurns(query),
    events: (sessionId, page) => reads.events(sessionId, page),
    search: (query) => reads.search(query),
    dailyActivity: (from, to, filter) => reads.dailyActivity(from, to, filter),
    facets: (attribute, filter) => reads.facets(attribute, filter),
    tokenTotals: (filter) => reads.tokenTotals(filter),
    annotations: (ids) => reads.annotations(ids),
    sessionSecrets: (ids) => reads.sessionSecrets(ids),
    tagFacet: (filter) => reads.tagFacet(filter),
    bookmarks: (page) => reads.bookmarks(page),
  };
}
