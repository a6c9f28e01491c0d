/**
 * The document store of the embedded engine: one `docs` row per document (tombstones stay, so
 * the change sequence can report deletions), revisions `<n>-<contentHash>`, and a global `seq`
 * bumped on every write. Writes run in one transaction per call and notify the materialised views
 * inside it (see doc-write-observer.ts).
 */
import Database from 'better-sqlite3';
import { nextRev } from '../../core/revision.js';
import {
  StoreInputError,
  type AllDocsOptions,
  type AllDocsResult,
  type BodiesOptions,
  type Change,
  type DocInput,
  type DocSnapshot,
  type DocStore,
  type SchemaMarker,
  type StoredDoc,
  type WriteOptions,
  type WriteResult,
} from '../contract.js';
import type { DocWriteObserver, PreviousDoc } from './doc-write-observer.js';
import { hashBody, TOMBSTONE } from '../docs-common/encode-content.js';
import {
  checkBodiesOptions,
  nonNegativeInt,
  documentOf,
  prepareDocs,
  prepareLocal,
  prepareLocals,
  localsOfWrite,
  type PreparedDoc,
  type PreparedLocal,
} from '../docs-common/prepare-docs.js';
import type { SqliteDatabase } from './sqlite-database.js';
import { SqliteDocStatements, type DocRow } from './sqlite-doc-statements.js';

export class SqliteDocStore implements DocStore {
  readonly #db: SqliteDatabase;
  readonly #sql: SqliteDocStatements;
  readonly #observer: DocWriteObserver | null;

  constructor(db: SqliteDatabase, observer?: DocWriteObserver) {
    this.#db = db;
    this.#sql = new SqliteDocStatements(db);
    this.#observer = observer ?? null;
  }

  async get(id: string): Promise<StoredDoc | null> {
    const row = this.#sql.getDoc.get(id) as { rev: string; body: string } | undefined;
    return row ? toStoredDoc(id, row.rev, row.body) : null;
  }

  async getRevs(ids: string[]): Promise<Map<string, string>> {
    const revs = new Map<string, string>();
    if (ids.length === 0) return revs;
    const rows = this.#sql.getRevs.all(JSON.stringify(ids)) as Array<{ id: string; rev: string }>;
    for (const row of rows) revs.set(row.id, row.rev);
    return revs;
  }

  async bulkUpsert(docs: DocInput[]): Promise<WriteResult[]> {
    return this.writePrepared(prepareDocs(docs), []);
  }

  async commit(
    docs: DocInput[],
    locals: Array<{ id: string; value: unknown }>,
    options?: WriteOptions,
  ): Promise<WriteResult[]> {
    // Validate everything before the transaction: a bad input rejects the whole commit.
    return this.writePrepared(prepareDocs(docs), localsOfWrite(prepareLocals(locals), options), options);
  }

  /**
   * Writes documents validated and encoded by `prepareDocs` (possibly on another thread: the
   * engine encodes on the main thread and writes on its writer thread).
   */
  writePrepared(prepared: PreparedDoc[], locals: PreparedLocal[], options?: WriteOptions): WriteResult[] {
    return this.#write(() => {
      const results = this.#writeDocs(prepared);
      for (const local of locals) this.#sql.putLocal.run(local.id, local.value);
      return results;
    }, options);
  }

  async delete(id: string, rev: string): Promise<WriteResult> {
    if (typeof id !== 'string' || id === '') throw new StoreInputError('id must be a non-empty string');
    if (typeof rev !== 'string' || rev === '') throw new StoreInputError('rev must be a non-empty string');
    return this.#write(() => {
      const row = this.#sql.selectRow.get(id) as DocRow | undefined;
      if (!row) return { id, status: 'conflict', reason: 'document does not exist' };
      if (row.deleted) {
        return row.rev === rev
          ? { id, status: 'unchanged', rev: row.rev }
          : { id, status: 'conflict', rev: row.rev, reason: 'document is already deleted' };
      }
      if (row.rev !== rev) {
        return {
          id,
          status: 'conflict',
          rev: row.rev,
          reason: `rev ${rev} is not the current revision ${row.rev}`,
        };
      }
      this.#observer?.removing(previousDoc(this.#sql, row, id));
      const newRev = nextRev(row.rev, TOMBSTONE.hash);
      this.#sql.updateDoc.run(
        row.session_id,
        newRev,
        TOMBSTONE.hash,
        this.#nextSeq(),
        1,
        row.type,
        TOMBSTONE.body,
        row.rowid,
      );
      this.#sql.countLive(row.session_id, -1);
      return { id, status: 'written', rev: newRev };
    });
  }

  async purgeSession(sessionId: string, keep: string[] = []): Promise<{ documents: number }> {
    if (typeof sessionId !== 'string' || sessionId === '')
      throw new StoreInputError('sessionId must be a non-empty string');
    const kept = new Set(keep);
    return this.#write(() => {
      // FTS5 removes a row by marking it deleted; its words stay in the index's segments until
      // they are merged. For a purge, secure-delete removes them there and then (SQLite 3.42+),
      // so nothing of a forgotten session's text remains in the file. Ingest keeps the faster way.
      const fts = (
        this.#db
          .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE % USING fts5%'",
          )
          .all() as Array<{ name: string }>
      ).map((t) => t.name);
      const secureDelete = (on: 0 | 1) => {
        // A literal: FTS5 takes only an integer, and a bound JS number is a double.
        for (const t of fts)
          this.#db.exec(`INSERT INTO "${t}" ("${t}", rank) VALUES ('secure-delete', ${on})`);
      };
      secureDelete(1);
      const rows = this.#db
        .prepare('SELECT rowid, session_id, id, rev, hash, seq, deleted, type FROM docs WHERE session_id = ?')
        .all(sessionId) as Array<DocRow & { id: string }>;
      const remove = this.#db.prepare('DELETE FROM docs WHERE rowid = ?');
      let documents = 0;
      for (const row of rows) {
        if (kept.has(row.id)) continue;
        if (!row.deleted) {
          // The views drop the document's rows as they would for a delete.
          this.#observer?.removing(previousDoc(this.#sql, row, row.id));
          this.#sql.countLive(row.session_id, -1);
          documents++;
        }
        remove.run(row.rowid);
      }
      secureDelete(0);
      return { documents };
    });
  }

  async localIds(prefix: string): Promise<string[]> {
    if (typeof prefix !== 'string' || prefix === '')
      throw new StoreInputError('prefix must be a non-empty string');
    const rows = this.#db
      .prepare('SELECT id FROM local_docs WHERE id >= ? AND id < ? ORDER BY id')
      .all(prefix, prefix + '\u{10FFFF}') as Array<{ id: string }>;
    return rows.map((r) => r.id);
  }

  async allDocs(options: AllDocsOptions = {}): Promise<AllDocsResult> {
    const skip = nonNegativeInt(options.skip, 'skip') ?? 0;
    const limit = nonNegativeInt(options.limit, 'limit') ?? -1;
    const { startkey, endkey } = options;
    for (const [name, key] of [
      ['startkey', startkey],
      ['endkey', endkey],
    ] as const) {
      if (key !== undefined && typeof key !== 'string') throw new StoreInputError(`${name} must be a string`);
    }
    const rows = this.#sql
      .allDocs(options.includeDocs === true, startkey !== undefined, endkey !== undefined)
      .all({
        limit,
        skip,
        ...(startkey !== undefined ? { start: startkey } : {}),
        ...(endkey !== undefined ? { end: endkey } : {}),
      }) as Array<{ id: string; rev: string; body?: string }>;
    return {
      total_rows: this.#sql.liveDocuments(),
      // Like PouchDB, the offset is the number of rows skipped, not the global position.
      offset: skip,
      rows: rows.map((r) => ({
        id: r.id,
        key: r.id,
        value: { rev: r.rev },
        ...(r.body !== undefined ? { doc: toStoredDoc(r.id, r.rev, r.body) } : {}),
      })),
    };
  }

  async bodies(options: BodiesOptions): Promise<Array<{ id: string; body: Buffer }>> {
    const { from, fromKey, endkey, limit, maxBytes } = checkBodiesOptions(options);
    const stmt = this.#sql.bodies(from, endkey !== undefined);
    const out: Array<{ id: string; body: Buffer }> = [];
    let bytes = 0;
    // iterate(), not all(): a page of multi-megabyte chunks stops at maxBytes, not at limit.
    for (const row of stmt.iterate({
      limit,
      ...(fromKey !== undefined ? { from: fromKey } : {}),
      ...(endkey !== undefined ? { end: endkey } : {}),
    }) as IterableIterator<{ id: string; body: Buffer }>) {
      out.push(row);
      bytes += row.body.length;
      if (bytes >= maxBytes) break;
    }
    return out;
  }

  /**
   * A snapshot on a connection of its own, opened read-only for the purpose: a read transaction
   * on this store's connection would hold every other read of the instance at that moment too
   * (and on the writer's, stall writes). In WAL mode an open reader never blocks the writer; it
   * only keeps the WAL from being checkpointed past its snapshot until it closes.
   */
  async snapshot(): Promise<DocSnapshot> {
    const db = new Database(this.#db.name, { readonly: true, fileMustExist: true });
    try {
      db.pragma('busy_timeout = 5000');
      db.exec('BEGIN');
      // A deferred transaction takes its snapshot at its first read: take it now.
      db.prepare('SELECT 1 FROM docs LIMIT 1').get();
    } catch (err) {
      db.close();
      throw err;
    }
    const reads = new SqliteDocStore(db);
    return {
      bodies: (options) => {
        if (!db.open) return Promise.reject(new StoreInputError('the snapshot is closed'));
        return reads.bodies(options);
      },
      async close() {
        // Closing ends the read transaction.
        if (db.open) db.close();
      },
    };
  }

  async changes(since: number, limit?: number): Promise<{ results: Change[]; lastSeq: number }> {
    if (typeof since !== 'number' || !Number.isFinite(since))
      throw new StoreInputError('since must be a number');
    const max = nonNegativeInt(limit, 'limit') ?? -1;
    const rows = this.#sql.changes.all(since, max) as Array<{
      seq: number;
      id: string;
      rev: string;
      deleted: number;
    }>;
    const results = rows.map((r) => ({ seq: r.seq, id: r.id, rev: r.rev, deleted: r.deleted === 1 }));
    const lastSeq = results.length > 0 ? results[results.length - 1]!.seq : this.#sql.maxSeq();
    return { results, lastSeq };
  }

  async getLocal<T = unknown>(id: string): Promise<T | null> {
    const row = this.#sql.getLocal.get(id) as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as T) : null;
  }

  async putLocal(id: string, value: unknown): Promise<void> {
    const local = prepareLocal(id, value, 'local document');
    this.#sql.putLocal.run(local.id, local.value);
  }

  async deleteLocal(id: string): Promise<void> {
    this.#sql.deleteLocal.run(id);
  }

  async getSchemaMarker(): Promise<SchemaMarker | null> {
    const row = this.#sql.getMarker.get() as { version: number; history: string } | undefined;
    return row ? { version: row.version, history: JSON.parse(row.history) as SchemaMarker['history'] } : null;
  }

  async setSchemaMarker(marker: SchemaMarker): Promise<void> {
    if (!Number.isInteger(marker?.version) || !Array.isArray(marker.history)) {
      throw new StoreInputError('schema marker needs an integer version and a history array');
    }
    this.#sql.setMarker.run(marker.version, JSON.stringify(marker.history));
  }

  /**
   * For `Store.stats()`: live session documents (design documents are store machinery, not
   * history) and the sessions holding at least one.
   */
  counts(): { documents: number; sessions: number } {
    return { documents: this.#sql.sessionDocuments(), sessions: this.#sql.liveSessions() };
  }

  /** Runs a write in one immediate transaction; the views' per-batch state is dropped on failure. */
  #write<T>(fn: () => T, options?: WriteOptions): T {
    try {
      return this.#db
        .transaction(() => {
          this.#observer?.begin(options);
          const result = fn();
          this.#observer?.flush();
          return result;
        })
        .immediate();
    } catch (err) {
      this.#observer?.reset();
      throw err;
    }
  }

  #nextSeq(): number {
    // An index lookup inside the write transaction: always above every stored seq, including
    // the one just written, and safe against another connection's writes.
    return this.#sql.maxSeq() + 1;
  }

  #writeDocs(docs: PreparedDoc[]): WriteResult[] {
    return docs.map((d) => this.#writeDoc(d));
  }

  #writeDoc(d: PreparedDoc): WriteResult {
    const body = d.body;
    const hash = (d.hash ??= hashBody(body));
    const row = this.#sql.selectRow.get(d.id) as DocRow | undefined;
    let rev: string;
    if (!row) {
      if (d.rev !== undefined) {
        return {
          id: d.id,
          status: 'conflict',
          reason: `document does not exist; _rev ${d.rev} cannot match`,
        };
      }
      rev = nextRev(undefined, hash);
      this.#sql.insertDoc.run(d.sessionId, d.id, rev, hash, this.#nextSeq(), d.type, body);
      this.#sql.countLive(d.sessionId, 1);
    } else if (row.deleted) {
      // A tombstone may be recreated without a revision, as in CouchDB.
      if (d.rev !== undefined && d.rev !== row.rev) {
        return { id: d.id, status: 'conflict', rev: row.rev, reason: `document was deleted at ${row.rev}` };
      }
      rev = nextRev(row.rev, hash);
      this.#sql.updateDoc.run(d.sessionId, rev, hash, this.#nextSeq(), 0, d.type, body, row.rowid);
      this.#sql.countLive(d.sessionId, 1);
    } else if (row.hash === hash) {
      return { id: d.id, status: 'unchanged', rev: row.rev };
    } else if (d.rev !== row.rev) {
      const reason =
        d.rev === undefined
          ? `document exists at ${row.rev}; _rev is required to replace it`
          : `_rev ${d.rev} is not the current revision ${row.rev}`;
      return { id: d.id, status: 'conflict', rev: row.rev, reason };
    } else {
      this.#observer?.removing(previousDoc(this.#sql, row, d.id));
      rev = nextRev(row.rev, hash);
      this.#sql.updateDoc.run(d.sessionId, rev, hash, this.#nextSeq(), 0, d.type, body, row.rowid);
      if (row.session_id !== d.sessionId) {
        this.#sql.countLive(row.session_id, -1);
        this.#sql.countLive(d.sessionId, 1);
      }
    }
    this.#observer?.added({
      sessionId: d.sessionId,
      id: d.id,
      type: d.type,
      doc: documentOf(d),
    });
    return { id: d.id, status: 'written', rev };
  }
}

function toStoredDoc(id: string, rev: string, body: string): StoredDoc {
  return { _id: id, _rev: rev, ...(JSON.parse(body) as Record<string, unknown>) };
}

function previousDoc(sql: SqliteDocStatements, row: DocRow, id: string): PreviousDoc {
  let range: ReturnType<PreviousDoc['chunkRange']> | undefined;
  return {
    sessionId: row.session_id,
    id,
    type: row.type,
    chunkRange() {
      if (range === undefined) range = sql.chunkRange(row.rowid);
      return range;
    },
  };
}
