/**
 * The writer thread of the embedded engine. Every write — documents, local state, the schema
 * marker, view (re)builds — runs here on its own connection, so canonical encoding, hashing,
 * SQLite and view maintenance use the second core while the main thread parses transcripts or
 * answers queries. SQLite in WAL mode lets the main thread keep reading meanwhile.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ViewName, ViewReshape, WriteOptions } from '../contract.js';
import type { PreparedDoc, PreparedLocal } from '../docs-common/prepare-docs.js';
import { openSqliteDatabase } from './sqlite-database.js';
import { SqliteDocStore } from './sqlite-doc-store.js';
import { SqliteViews } from './sqlite-views.js';
import { toWireError, type WriteReply, type WriteRequest } from './sqlite-writer-protocol.js';

const port = parentPort;
if (!port) throw new Error('sqlite-writer must run as a worker thread');

const db = openSqliteDatabase((workerData as { file: string }).file);
const views = new SqliteViews(db);
const docs = new SqliteDocStore(db, views);

const handlers: Record<string, (...args: never[]) => Promise<unknown>> = {
  writePrepared: async (d: PreparedDoc[], l: PreparedLocal[], o?: WriteOptions) =>
    docs.writePrepared(d, l, o),
  delete: (id: string, rev: string) => docs.delete(id, rev),
  purgeSession: (sessionId: string, keep?: string[]) => docs.purgeSession(sessionId, keep),
  putLocal: (id: string, value: unknown) => docs.putLocal(id, value),
  deleteLocal: (id: string) => docs.deleteLocal(id),
  setSchemaMarker: (m: Parameters<typeof docs.setSchemaMarker>[0]) => docs.setSchemaMarker(m),
  materialize: (name: ViewName) => views.materialize(name),
  drop: (name: ViewName) => views.drop(name),
  reindex: () => views.reindex(),
  reindexBehind: async (deferredBefore: number) => views.reindexBehind(deferredBefore),
  reshape: (reshape: ViewReshape, direction: 'up' | 'down') => views.reshape(reshape, direction),
  // Answers once the thread has opened the database, so `SqliteEngine.open` reports a failure.
  ready: async () => null,
};

port.on('message', (req: WriteRequest) => {
  if (req.op === 'close') {
    db.close();
    // The main thread terminates this thread once it has the reply.
    port.postMessage({ id: req.id, ok: true, value: null } satisfies WriteReply);
    return;
  }
  const handler = handlers[req.op];
  const run = handler
    ? (handler as (...args: unknown[]) => Promise<unknown>)(...req.args)
    : Promise.reject(new Error(`unknown write op ${req.op}`));
  run.then(
    (value) => port.postMessage({ id: req.id, ok: true, value } satisfies WriteReply),
    (err: unknown) =>
      port.postMessage({ id: req.id, ok: false, error: toWireError(err) } satisfies WriteReply),
  );
});
