/**
 * The document store of the PostgreSQL engine, with the embedded engine's semantics: one `docs`
 * row per document (tombstones stay, so the change sequence reports deletions), revisions
 * `<n>-<contentHash>`, per-document conflicts, `unchanged` for identical content.
 *
 * Several processes write at once. A write transaction first locks every session it touches
 * (postgres-database.ts): the session a document is in and the one it moves to. A document's id
 * belongs to one session at a time, so two writers of one document run one after the other and
 * the second reads the first's revision: a stale `_rev` is a `conflict`, never a lost update.
 * (Session locks rather than `SELECT … FOR UPDATE`, which Citus only allows within one shard.)
 * Views are maintained inside the same transaction.
 */
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
import { TOMBSTONE } from '../docs-common/encode-content.js';
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
import { chunkFields } from '../views-common/chunk-fields.js';
import { writeColumns, type ColumnType } from './binary-columns.js';
import { lockForWrite, readQuery, type PostgresDatabase, type Queryable } from './postgres-database.js';
import { planWrites, type StoredRow, type WritePlan } from './postgres-write-plan.js';
import type { PostgresViews } from './postgres-views.js';
import type { PreviousDoc } from './views/postgres-view.js';

export class PostgresDocStore implements DocStore {
  readonly #db: PostgresDatabase;
  readonly #views: PostgresViews;

  constructor(db: PostgresDatabase, views: PostgresViews) {
    this.#db = db;
    this.#views = views;
  }

  async get(id: string): Promise<StoredDoc | null> {
    if (typeof id !== 'string' || id.includes('\u0000')) return null;
    const { rows } = await this.#db.query<{ rev: string; body: string }>(
      'SELECT rev, body FROM docs WHERE id = $1 AND NOT deleted',
      [id],
    );
    return rows[0] ? toStoredDoc(id, rows[0].rev, rows[0].body) : null;
  }

  async getRevs(ids: string[]): Promise<Map<string, string>> {
    const revs = new Map<string, string>();
    const usable = ids.filter((id) => typeof id === 'string' && !id.includes('\u0000'));
    if (usable.length === 0) return revs;
    const { rows } = await this.#db.query<{ id: string; rev: string }>(
      'SELECT id, rev FROM docs WHERE id = ANY($1) AND NOT deleted',
      [usable],
    );
    for (const row of rows) revs.set(row.id, row.rev);
    return revs;
  }

  async bulkUpsert(docs: DocInput[]): Promise<WriteResult[]> {
    return this.#write(checkText(prepareDocs(docs)), []);
  }

  async commit(
    docs: DocInput[],
    locals: Array<{ id: string; value: unknown }>,
    options?: WriteOptions,
  ): Promise<WriteResult[]> {
    // Validate everything before the transaction: a bad input rejects the whole commit.
    return this.#write(
      checkText(prepareDocs(docs)),
      localsOfWrite(checkLocals(prepareLocals(locals)), options),
      options,
    );
  }

  async delete(id: string, rev: string): Promise<WriteResult> {
    if (typeof id !== 'string' || id === '') throw new StoreInputError('id must be a non-empty string');
    if (typeof rev !== 'string' || rev === '') throw new StoreInputError('rev must be a non-empty string');
    if (id.includes('\u0000')) return { id, status: 'conflict', reason: 'document does not exist' };
    return this.#db.transaction(async (client) => {
      const found = await selectRows(client, [id]);
      await lockForWrite(
        client,
        [...found.values()].map((r) => r.session_id),
      );
      // Read again under the lock; a document moved meanwhile is locked in its new session too.
      let row = (await selectRows(client, [id])).get(id);
      if (row && row.session_id !== found.get(id)?.session_id) {
        await lockForWrite(client, [row.session_id]);
        row = (await selectRows(client, [id])).get(id);
      }
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
      const views = await this.#views.writeBatch(client);
      const ranges = views.needsChunkRange ? await chunkRanges(client, [row]) : new Map();
      const newRev = nextRev(row.rev, TOMBSTONE.hash);
      await client.query(
        `UPDATE docs SET rev = $3, hash = $4, deleted = true, body = $5, seq = NULL
         WHERE session_id = $1 AND id = $2`,
        [row.session_id, id, newRev, TOMBSTONE.hash, TOMBSTONE.body],
      );
      await countLive(client, new Map([[row.session_id, -1]]));
      views.removing({ sessionId: row.session_id, id, type: row.type, chunkRange: ranges.get(id) ?? null });
      await views.flush();
      await assignSeqs(client, [[row.session_id, id]]);
      return { id, status: 'written', rev: newRev };
    });
  }

  async purgeSession(sessionId: string, keep: string[] = []): Promise<{ documents: number }> {
    if (typeof sessionId !== 'string' || sessionId === '')
      throw new StoreInputError('sessionId must be a non-empty string');
    if (sessionId.includes('\u0000')) return { documents: 0 };
    return this.#db.transaction(async (client) => {
      await lockForWrite(client, [sessionId]);
      const { rows } = await client.query<StoredRow>(
        'SELECT session_id, id, rev, hash, deleted, type FROM docs WHERE session_id = $1 AND NOT (id = ANY($2))',
        [sessionId, keep],
      );
      const live = rows.filter((r) => !r.deleted);
      const views = await this.#views.writeBatch(client);
      const ranges = views.needsChunkRange ? await chunkRanges(client, live) : new Map();
      // Rows first, then the views, as for deletes: a view recomputing the session reads what is left.
      await client.query('DELETE FROM docs WHERE session_id = $1 AND NOT (id = ANY($2))', [sessionId, keep]);
      if (live.length > 0) {
        await countLive(client, new Map([[sessionId, -live.length]]));
        for (const row of live)
          views.removing({ sessionId, id: row.id, type: row.type, chunkRange: ranges.get(row.id) ?? null });
        await views.flush();
      }
      return { documents: live.length };
    });
  }

  async localIds(prefix: string): Promise<string[]> {
    if (typeof prefix !== 'string' || prefix === '')
      throw new StoreInputError('prefix must be a non-empty string');
    const { rows } = await this.#db.query<{ id: string }>(
      'SELECT id FROM local_docs WHERE left(id, length($1)) = $1 ORDER BY id',
      [prefix.replaceAll('\u0000', '')],
    );
    return rows.map((r) => r.id);
  }

  async allDocs(options: AllDocsOptions = {}): Promise<AllDocsResult> {
    const skip = nonNegativeInt(options.skip, 'skip') ?? 0;
    const limit = nonNegativeInt(options.limit, 'limit') ?? null;
    const { startkey, endkey } = options;
    const where = ['NOT deleted'];
    const params: unknown[] = [limit, skip];
    for (const [name, key, op] of [
      ['startkey', startkey, '>='],
      ['endkey', endkey, '<='],
    ] as const) {
      if (key === undefined) continue;
      if (typeof key !== 'string') throw new StoreInputError(`${name} must be a string`);
      params.push(key.replaceAll('\u0000', '')); // NUL never occurs in a stored id; order is unchanged
      where.push(`id ${op} $${params.length}`);
    }
    const withBodies = options.includeDocs === true;
    const [page, total] = await Promise.all([
      this.#db.query<{ id: string; rev: string; body?: string }>(
        `SELECT id, rev${withBodies ? ', body' : ''} FROM docs WHERE ${where.join(' AND ')}
         ORDER BY id LIMIT $1 OFFSET $2`,
        params,
      ),
      this.#db.query<{ n: string }>('SELECT coalesce(sum(live), 0) AS n FROM session_doc_counts'),
    ]);
    return {
      total_rows: Number(total.rows[0]!.n),
      // Like PouchDB, the offset is the number of rows skipped, not the global position.
      offset: skip,
      rows: page.rows.map((r) => ({
        id: r.id,
        key: r.id,
        value: { rev: r.rev },
        ...(r.body !== undefined ? { doc: toStoredDoc(r.id, r.rev, r.body) } : {}),
      })),
    };
  }

  async bodies(options: BodiesOptions): Promise<Array<{ id: string; body: Buffer }>> {
    return bodiesOf(this.#db.pool, options);
  }

  /**
   * A REPEATABLE READ READ ONLY transaction on a connection of its own, held until `close`:
   * PostgreSQL keeps its snapshot for every statement, and it never blocks a writer.
   */
  async snapshot(): Promise<DocSnapshot> {
    const client = await this.#db.pool.connect();
    try {
      // The snapshot is taken at the first statement after BEGIN: take it now.
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SELECT 1');
    } catch (err) {
      client.release(true);
      throw err;
    }
    let open = true;
    return {
      bodies: (options) => {
        if (!open) return Promise.reject(new StoreInputError('the snapshot is closed'));
        return bodiesOf(client, options);
      },
      async close() {
        if (!open) return;
        open = false;
        let broken = false;
        await client.query('ROLLBACK').catch(() => (broken = true));
        client.release(broken);
      },
    };
  }

  async changes(since: number, limit?: number): Promise<{ results: Change[]; lastSeq: number }> {
    if (typeof since !== 'number' || !Number.isFinite(since))
      throw new StoreInputError('since must be a number');
    const max = nonNegativeInt(limit, 'limit') ?? null;
    // One statement, one snapshot: the counter read separately could already include a write
    // that committed after the change rows were read, and a follower would skip it.
    const { rows } = await this.#db.query<{
      last: string;
      seq: string | null;
      id: string;
      rev: string;
      deleted: boolean;
    }>(
      `SELECT (SELECT value FROM doc_seq WHERE id = 1) AS last, c.seq, c.id, c.rev, c.deleted
       FROM (SELECT 1) AS one LEFT JOIN LATERAL (
         SELECT seq, id, rev, deleted FROM docs WHERE seq > $1 ORDER BY seq LIMIT $2
       ) AS c ON true`,
      [since, max],
    );
    const results = rows
      .filter((r) => r.seq !== null)
      .map((r) => ({ seq: Number(r.seq), id: r.id, rev: r.rev, deleted: r.deleted }));
    const lastSeq = results.length > 0 ? results[results.length - 1]!.seq : Number(rows[0]?.last ?? 0);
    return { results, lastSeq };
  }

  async getLocal<T = unknown>(id: string): Promise<T | null> {
    if (typeof id !== 'string' || id.includes('\u0000')) return null;
    const { rows } = await this.#db.query<{ value: string }>('SELECT value FROM local_docs WHERE id = $1', [
      id,
    ]);
    return rows[0] ? (JSON.parse(rows[0].value) as T) : null;
  }

  async putLocal(id: string, value: unknown): Promise<void> {
    const [local] = checkLocals([prepareLocal(id, value, 'local document')]);
    await putLocals(this.#db.pool, [local!]);
  }

  async deleteLocal(id: string): Promise<void> {
    if (typeof id !== 'string' || id.includes('\u0000')) return;
    await this.#db.query('DELETE FROM local_docs WHERE id = $1', [id]);
  }

  async getSchemaMarker(): Promise<SchemaMarker | null> {
    const { rows } = await this.#db.query<{ version: number; history: string }>(
      'SELECT version, history FROM schema_marker WHERE id = 1',
    );
    const row = rows[0];
    return row ? { version: row.version, history: JSON.parse(row.history) as SchemaMarker['history'] } : null;
  }

  async setSchemaMarker(marker: SchemaMarker): Promise<void> {
    if (!Number.isInteger(marker?.version) || !Array.isArray(marker.history)) {
      throw new StoreInputError('schema marker needs an integer version and a history array');
    }
    await this.#db.query(
      `INSERT INTO schema_marker (id, version, history) VALUES (1, $1, $2)
       ON CONFLICT (id) DO UPDATE SET version = excluded.version, history = excluded.history`,
      [marker.version, JSON.stringify(marker.history)],
    );
  }

  /** For `Store.stats()`: live session documents (design documents aside) and sessions holding one. */
  async counts(): Promise<{ documents: number; sessions: number }> {
    const { rows } = await this.#db.query<{ documents: string; sessions: string }>(
      `SELECT coalesce(sum(live), 0) AS documents, count(*) AS sessions
       FROM session_doc_counts WHERE session_id <> ''`,
    );
    return { documents: Number(rows[0]!.documents), sessions: Number(rows[0]!.sessions) };
  }

  async #write(docs: PreparedDoc[], locals: PreparedLocal[], options?: WriteOptions): Promise<WriteResult[]> {
    // An ingest commit (documents + its cursor) need not wait for the WAL flush: a PostgreSQL crash
    // can lose only the last fraction of a second of them, cursor included, and the next run reads
    // those bytes again; never a torn commit. Like the embedded engine's synchronous=NORMAL. It
    // made ingest about 5 % faster.
    const opening = locals.length > 0 ? ['SET LOCAL synchronous_commit = off'] : [];
    return this.#db.transaction(async (client) => {
      const locked = new Set(docs.map((d) => d.sessionId));
      await lockForWrite(client, locked);
      const ids = [...new Set(docs.map((d) => d.id))];
      let stored = await selectRows(client, ids);
      // A document moving from another session: lock that one too, then read again (until no
      // document is in a session this write does not hold).
      for (;;) {
        const more = [...new Set([...stored.values()].map((r) => r.session_id))].filter(
          (s) => !locked.has(s),
        );
        if (more.length === 0) break;
        await lockForWrite(client, more);
        for (const s of more) locked.add(s);
        stored = await selectRows(client, ids);
      }
      const plan = planWrites(docs, stored);
      if (plan.writes.length > 0) await this.#apply(client, plan, stored, options);
      if (locals.length > 0) await putLocals(client, locals);
      return plan.results;
    }, opening);
  }

  async #apply(
    client: Queryable,
    plan: WritePlan,
    stored: Map<string, StoredRow>,
    options?: WriteOptions,
  ): Promise<void> {
    const views = await this.#views.writeBatch(client, options);
    // Ranges of replaced stored chunks, read before their rows are overwritten.
    const ranges = views.needsChunkRange
      ? await chunkRanges(
          client,
          plan.replacedStored.map((id) => stored.get(id)!),
        )
      : new Map<string, PreviousDoc['chunkRange']>();
    await writeRows(client, plan);
    await countLive(client, plan.liveDelta);
    for (const w of plan.writes) {
      if (w.prev) {
        const range = w.prev.fromBatch ? rangeOf(w.prev.fromBatch) : (ranges.get(w.doc.id) ?? null);
        views.removing({ sessionId: w.prev.sessionId, id: w.doc.id, type: w.prev.type, chunkRange: range });
      }
      views.added({ sessionId: w.doc.sessionId, id: w.doc.id, type: w.doc.type, doc: documentOf(w.doc) });
    }
    await views.flush();
    await assignSeqs(client, plan.seqOrder);
  }
}

/** Current rows of these ids (read under their sessions' locks, they stay current). */
async function selectRows(q: Queryable, ids: string[]): Promise<Map<string, StoredRow>> {
  if (ids.length === 0) return new Map();
  const { rows } = await q.query<StoredRow>(
    'SELECT session_id, id, rev, hash, deleted, type FROM docs WHERE id = ANY($1)',
    [ids],
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/** Final row states of a plan: inserts, in-place updates, and moves (delete + insert, Citus-safe). */
async function writeRows(q: Queryable, plan: WritePlan): Promise<void> {
  const moved = plan.rows.filter((r) => r.oldSession !== null && r.oldSession !== r.sessionId);
  if (moved.length > 0) {
    await q.query(
      `DELETE FROM docs d USING unnest($1::text[], $2::text[]) AS m(s, i) WHERE d.session_id = m.s AND d.id = m.i`,
      [moved.map((r) => r.oldSession), moved.map((r) => r.id)],
    );
  }
  const inserts = plan.rows.filter((r) => r.oldSession === null || r.oldSession !== r.sessionId);
  const updates = plan.rows.filter((r) => r.oldSession !== null && r.oldSession === r.sessionId);
  const rows = (list: typeof plan.rows) =>
    list.map((r) => [r.sessionId, r.id, r.rev, r.hash, r.deleted, r.type, r.body]);
  const types: ColumnType[] = ['text', 'text', 'text', 'text', 'boolean', 'text', 'text'];
  await writeColumns(
    q,
    rows(inserts),
    types,
    (from) => `INSERT INTO docs (session_id, id, rev, hash, deleted, type, body) SELECT * FROM ${from}`,
  );
  await writeColumns(
    q,
    rows(updates),
    types,
    (
      from,
    ) => `UPDATE docs d SET rev = u.rev, hash = u.hash, deleted = u.deleted, type = u.type, body = u.body, seq = NULL
      FROM ${from} AS u(session_id, id, rev, hash, deleted, type, body)
      WHERE d.session_id = u.session_id AND d.id = u.id`,
  );
}

/** Adds to the live-document count of each session; a session left with none is forgotten. */
async function countLive(q: Queryable, delta: Map<string, number>): Promise<void> {
  const changed = [...delta].filter(([, n]) => n !== 0);
  if (changed.length === 0) return;
  await q.query(
    `INSERT INTO session_doc_counts (session_id, live) SELECT * FROM unnest($1::text[], $2::bigint[])
     ON CONFLICT (session_id) DO UPDATE SET live = session_doc_counts.live + excluded.live`,
    [changed.map(([s]) => s), changed.map(([, n]) => n)],
  );
  const shrunk = changed.filter(([, n]) => n < 0).map(([s]) => s);
  if (shrunk.length > 0) {
    await q.query('DELETE FROM session_doc_counts WHERE session_id = ANY($1) AND live <= 0', [shrunk]);
  }
}

/**
 * Sequence numbers for the documents written, in write order, taken last: the `doc_seq` row lock
 * is held from here to commit, so sequence order is commit order across processes.
 */
async function assignSeqs(q: Queryable, written: Array<[string, string]>): Promise<void> {
  if (written.length === 0) return;
  const { rows } = await q.query<{ value: string }>(
    'UPDATE doc_seq SET value = value + $1 WHERE id = 1 RETURNING value',
    [written.length],
  );
  const base = Number(rows[0]!.value) - written.length;
  await q.query(
    `UPDATE docs d SET seq = $3::bigint + w.n
     FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS w(session_id, id, n)
     WHERE d.session_id = w.session_id AND d.id = w.id`,
    [written.map(([s]) => s), written.map(([, i]) => i), base],
  );
}

async function putLocals(q: Queryable, locals: PreparedLocal[]): Promise<void> {
  // One statement may not upsert an id twice: the later value wins, as in turn.
  const last = new Map(locals.map((l) => [l.id, l.value]));
  await q.query(
    `INSERT INTO local_docs (id, value) SELECT * FROM unnest($1::text[], $2::text[])
     ON CONFLICT (id) DO UPDATE SET value = excluded.value`,
    [[...last.keys()], [...last.values()]],
  );
}

/** Chunk ranges of stored chunk rows, from their bodies (documents only; views never need more). */
async function chunkRanges(q: Queryable, rows: StoredRow[]): Promise<Map<string, PreviousDoc['chunkRange']>> {
  const ids = rows.filter((r) => r.type === 'chunk' && !r.deleted).map((r) => r.id);
  const out = new Map<string, PreviousDoc['chunkRange']>();
  if (ids.length === 0) return out;
  const { rows: bodies } = await q.query<{ id: string; body: string }>(
    'SELECT id, body FROM docs WHERE id = ANY($1)',
    [ids],
  );
  for (const b of bodies) out.set(b.id, rangeOf(JSON.parse(b.body) as Record<string, unknown>));
  return out;
}

function rangeOf(doc: Record<string, unknown>): PreviousDoc['chunkRange'] {
  const c = chunkFields(doc);
  return c ? { file: c.file, firstIndex: c.firstIndex, entryCount: c.entryCount } : null;
}

/** `DocStore.bodies` on a pool or on a snapshot's connection. */
async function bodiesOf(q: Queryable, options: BodiesOptions): Promise<Array<{ id: string; body: Buffer }>> {
  const { from, fromKey, endkey, limit, maxBytes } = checkBodiesOptions(options);
  const where = ['NOT deleted'];
  const params: unknown[] = [limit];
  // NUL never occurs in a stored id, and dropping it keeps the order.
  if (from !== 'none') {
    params.push(fromKey!.replaceAll('\u0000', ''));
    where.push(`id ${from === 'after' ? '>' : '>='} $${params.length}`);
  }
  if (endkey !== undefined) {
    params.push(endkey.replaceAll('\u0000', ''));
    where.push(`id <= $${params.length}`);
  }
  // The byte bound is applied in the statement: `octet_length` of a stored (compressed or
  // toasted) body reads its size from the header, so bodies past the bound are never
  // decompressed or sent. Fetching `limit` rows and cutting here pulled some 60 MB per 4 MB page
  // of large chunks, and made a document export eight times slower than the embedded engine's.
  params.push(Number.isFinite(maxBytes) ? Math.max(maxBytes, 1) : null);
  const { rows } = await readQuery<{ id: string; body: string }>(
    q,
    `SELECT id, body FROM (
      SELECT id, body, sum(octet_length(body)) OVER (ORDER BY id ROWS UNBOUNDED PRECEDING) - octet_length(body) AS before
      FROM docs WHERE ${where.join(' AND ')} ORDER BY id LIMIT $1
    ) page WHERE $${params.length}::bigint IS NULL OR before < $${params.length}::bigint ORDER BY id`,
    params,
  );
  return rows.map((r) => ({ id: r.id, body: Buffer.from(r.body, 'utf8') }));
}

function toStoredDoc(id: string, rev: string, body: string): StoredDoc {
  return { _id: id, _rev: rev, ...(JSON.parse(body) as Record<string, unknown>) };
}

/** PostgreSQL text cannot hold U+0000: an id, session id or type with one cannot be stored. */
function checkText(docs: PreparedDoc[]): PreparedDoc[] {
  docs.forEach((d, i) => {
    for (const [name, value] of [
      ['_id', d.id],
      ['sessionId', d.sessionId],
      ['type', d.type],
    ] as const) {
      if (value?.includes('\u0000'))
        throw new StoreInputError(`docs[${i}].${name} must not contain a NUL character`);
    }
  });
  return docs;
}

function checkLocals(locals: PreparedLocal[]): PreparedLocal[] {
  locals.forEach((l, i) => {
    if (l.id.includes('\u0000'))
      throw new StoreInputError(`locals[${i}].id must not contain a NUL character`);
  });
  return locals;
}
