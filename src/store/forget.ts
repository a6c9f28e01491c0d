/**
 * Forgetting a session (DESIGN §13: a tombstone outranks every source). `forgetSession` writes the
 * tombstone, then removes every document, object, view row, search row and piece of ingest state
 * of the session. `guardForgotten` wraps a store so that no write re-creates a forgotten session,
 * whichever path it comes by (the `/api/ingest` routes, the in-process watcher and first-start
 * import, hooks, bundle import): documents of a forgotten session are refused as conflicts
 * naming the tombstone, objects with `SessionForgottenError` (HTTP 410). A tombstone written
 * through it (an imported bundle's) forgets its session there and then.
 */
import { type TombstoneDoc } from '../core/annotations.js';
import { tombstoneId } from '../core/annotation-rules.js';
import type { DocInput, DocStore, ObjectStore, Store, WriteResult } from './contract.js';

/** A write for a forgotten session; the API answers 410 Gone. */
export class SessionForgottenError extends Error {
  override name = 'SessionForgottenError';
  readonly status = 410;
  constructor(readonly sessionId: string) {
    super(
      `session ${sessionId} is forgotten: nothing of it is stored again (\`transcripts unforget ${sessionId}\` lifts that)`,
    );
  }
}

/** Ingest state a session leaves under `_local/` (see ingest-session.ts, core/source-deletion.ts). */
const sessionLocals = (sessionId: string) => [
  `_local/ingest:${sessionId}`,
  `_local/live:deleted:${sessionId}`,
];
/** The tree indexes of backfill and the watcher (ingest-tree.ts), which name each file's session. */
const TREE_INDEX_PREFIX = '_local/ingest-tree:';

interface TreeIndex {
  v: 1;
  files: Record<string, { sessionId: string }>;
}

export interface ForgetResult {
  sessionId: string;
  /** False when the session was already forgotten (its remains are removed again all the same). */
  tombstoned: boolean;
  documents: number;
  objects: number;
}

/** Writes the session's tombstone, then removes everything else of it. */
export async function forgetSession(
  store: Store,
  sessionId: string,
  at = new Date().toISOString(),
): Promise<ForgetResult> {
  const tombstone: TombstoneDoc = {
    _id: tombstoneId(sessionId),
    type: 'tombstone',
    sessionId,
    timestamp: at,
  };
  const existing = await store.docs.get(tombstone._id);
  let tombstoned = false;
  if (!existing) {
    const [r] = await rawDocs(store).bulkUpsert([tombstone]);
    tombstoned = r?.status === 'written';
  }
  return { sessionId, tombstoned, ...(await purgeForgotten(store, sessionId)) };
}

/** Everything of a session but its tombstone: documents (and so view rows), objects, ingest state. */
export async function purgeForgotten(
  store: Pick<Store, 'docs' | 'objects'>,
  sessionId: string,
): Promise<{ documents: number; objects: number }> {
  const { documents } = await store.docs.purgeSession(sessionId, [tombstoneId(sessionId)]);
  let objects = 0;
  for (const o of await store.objects.list(sessionId)) if (await store.objects.delete(o.key)) objects++;
  for (const id of sessionLocals(sessionId)) await store.docs.deleteLocal(id);
  await dropFromTreeIndexes(store.docs, sessionId);
  return { documents, objects };
}

/** Removes the session's files from the tree indexes, so the next backfill reads them again. */
async function dropFromTreeIndexes(docs: DocStore, sessionId: string): Promise<void> {
  const store = { docs };
  for (const id of await store.docs.localIds(TREE_INDEX_PREFIX)) {
    const index = await store.docs.getLocal<TreeIndex>(id);
    if (!index?.files) continue;
    const files = Object.entries(index.files).filter(([, f]) => f.sessionId !== sessionId);
    if (files.length !== Object.keys(index.files).length)
      await store.docs.putLocal(id, { ...index, files: Object.fromEntries(files) });
  }
}

/** Lifts a session's tombstone: the next backfill reads it again. False when there was none. */
export async function unforgetSession(store: Store, sessionId: string): Promise<boolean> {
  const doc = await store.docs.get(tombstoneId(sessionId));
  if (!doc) return false;
  const r = await store.docs.delete(doc._id, doc._rev);
  // Nothing of the session stays, not even the deleted tombstone's row; and no index says its
  // files were read (a watcher may have noted them meanwhile).
  await store.docs.purgeSession(sessionId);
  await dropFromTreeIndexes(store.docs, sessionId);
  return r.status === 'written';
}

/** Every tombstone, in session id order. */
export async function listForgotten(store: Store): Promise<TombstoneDoc[]> {
  const out: TombstoneDoc[] = [];
  let startkey = 'tombstone:';
  for (;;) {
    const page = await store.docs.allDocs({
      startkey,
      endkey: 'tombstone:\u{10FFFF}',
      includeDocs: true,
      limit: 500,
    });
    const rows = out.length === 0 ? page.rows : page.rows.filter((r) => r.id !== startkey);
    for (const r of rows) if (r.doc) out.push(r.doc as unknown as TombstoneDoc);
    if (page.rows.length < 500) return out;
    startkey = page.rows[page.rows.length - 1]!.id;
  }
}

/** Sessions among `sessionIds` that are forgotten. */
export async function forgottenAmong(
  docs: Pick<DocStore, 'getRevs'>,
  sessionIds: Iterable<string>,
): Promise<Set<string>> {
  const ids = [...new Set(sessionIds)].filter((s) => s !== '');
  if (ids.length === 0) return new Set();
  const revs = await docs.getRevs(ids.map(tombstoneId));
  return new Set(ids.filter((s) => revs.has(tombstoneId(s))));
}

const RAW = Symbol('unguarded docs');

function rawDocs(store: Store): DocStore {
  return (store as Store & { [RAW]?: DocStore })[RAW] ?? store.docs;
}

/** The store, with every write checked against the tombstones (see the file comment). */
export function guardForgotten(store: Store): Store {
  const docs = store.docs;
  const objects = store.objects;
  const guardedWrite = async (
    input: DocInput[],
    write: (accepted: DocInput[]) => Promise<WriteResult[]>,
  ): Promise<WriteResult[]> => {
    const sessionOf = (d: DocInput) => (typeof d.sessionId === 'string' ? d.sessionId : '');
    const isTombstone = (d: DocInput) => d.type === 'tombstone';
    const forgotten = await forgottenAmong(docs, input.filter((d) => !isTombstone(d)).map(sessionOf));
    const accepted = input.filter((d) => isTombstone(d) || !forgotten.has(sessionOf(d)));
    const written = accepted.length > 0 || input.length === 0 ? await write(accepted) : [];
    // In input order: the engine answers one result per accepted document, in its order (an id
    // may come twice in one batch).
    let next = 0;
    const results = input.map((d): WriteResult =>
      isTombstone(d) || !forgotten.has(sessionOf(d))
        ? written[next++]!
        : {
            id: d._id,
            status: 'conflict',
            reason: `session ${sessionOf(d)} is forgotten (${tombstoneId(sessionOf(d))})`,
          },
    );
    const byId = new Map(written.map((r) => [r.id, r]));
    // A tombstone written here forgets its session; and a session forgotten while this write was
    // under way (checked before it, committed after the purge) is purged again.
    const tombstoned = accepted
      .filter((d) => isTombstone(d) && byId.get(d._id)?.status === 'written')
      .map(sessionOf);
    const late = await forgottenAmong(docs, accepted.filter((d) => !isTombstone(d)).map(sessionOf));
    for (const s of new Set([...tombstoned, ...late])) await purgeForgotten({ docs, objects }, s);
    return results;
  };
  const refuseForgotten = async (key: string) => {
    const sessionId = key.slice(0, key.indexOf('/'));
    if ((await forgottenAmong(docs, [sessionId])).size > 0) throw new SessionForgottenError(sessionId);
  };
  const guardedDocs: DocStore = {
    ...bindAll(docs),
    bulkUpsert: (input) => guardedWrite(input, (accepted) => docs.bulkUpsert(accepted)),
    commit: async (input, locals, options) => {
      // Ingest state of a forgotten session is not kept either.
      const forgotten = await forgottenAmong(
        docs,
        locals
          .filter((l) => l.id.startsWith('_local/ingest:'))
          .map((l) => l.id.slice('_local/ingest:'.length)),
      );
      const keptLocals = locals.filter((l) => !forgotten.has(l.id.slice('_local/ingest:'.length)));
      return guardedWrite(input, (accepted) => docs.commit(accepted, keptLocals, options));
    },
  };
  const guardedObjects: ObjectStore = {
    ...bindAll(objects),
    put: async (key, body, options) => {
      await refuseForgotten(key);
      return objects.put(key, body, options);
    },
    putFile: async (key, source, options) => {
      await refuseForgotten(key);
      return objects.putFile(key, source, options);
    },
  };
  const guarded: Store & { [RAW]: DocStore } = {
    docs: guardedDocs,
    objects: guardedObjects,
    views: store.views,
    capabilities: store.capabilities,
    withMigrationLock: (fn) => store.withMigrationLock(fn),
    stats: () => store.stats(),
    close: () => store.close(),
    [RAW]: docs,
  };
  return guarded;
}

/** An object's methods bound to it, as own properties (class methods live on the prototype). */
function bindAll<T extends object>(target: T): T {
  const out: Record<string, unknown> = {};
  let proto: object | null = target;
  while (proto && proto !== Object.prototype) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      const value = (target as Record<string, unknown>)[key];
      if (key !== 'constructor' && !(key in out) && typeof value === 'function')
        out[key] = value.bind(target);
    }
    proto = Object.getPrototypeOf(proto) as object | null;
  }
  return out as T;
}
