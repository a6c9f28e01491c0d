/**
 * Validation of what callers hand the doc store, done before any transaction starts so a bad
 * input rejects the whole call (naming the offending document) and nothing is written. Each body
 * is encoded here, once.
 */
import {
  SEARCH_STALE,
  StoreInputError,
  type BodiesOptions,
  type DocInput,
  type WriteOptions,
} from '../contract.js';
import { deferredStale } from '../views-common/search-stale.js';
import { encodeBody, hashBody } from './encode-content.js';

export interface PreparedDoc {
  id: string;
  rev: string | undefined;
  sessionId: string;
  type: string | null;
  body: string;
  /** Absent when the caller left hashing to the writer. */
  hash?: string;
  /** The caller's document; absent when it is handed to another thread, which parses `body`. */
  doc?: DocInput;
}

export interface PreparedLocal {
  id: string;
  value: string;
}

/**
 * `hash: false` leaves the content hash to whoever writes: the embedded engine's writer thread
 * hashes while the calling thread parses the next transcript. `doc: false` leaves the document
 * out: a string crosses to another thread cheaply, while copying the document object as well
 * cost the parsing thread about 1 s per GB ingested and held a second copy of every batch in
 * memory. The doc store fills in a missing hash, and parses the body where it needs the document.
 */
export function prepareDocs(
  docs: DocInput[],
  options: { hash?: boolean; doc?: boolean } = {},
): PreparedDoc[] {
  if (!Array.isArray(docs)) throw new StoreInputError('docs must be an array');
  return docs.map((doc, i) => {
    if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
      throw new StoreInputError(`docs[${i}] must be an object`);
    }
    const { _id: id, _rev: rev } = doc;
    if (typeof id !== 'string' || id === '')
      throw new StoreInputError(`docs[${i}]._id must be a non-empty string`);
    if (id.startsWith('_local/')) {
      throw new StoreInputError(`docs[${i}]._id "${id}": _local/ documents are written with putLocal`);
    }
    if (rev !== undefined && (typeof rev !== 'string' || rev === '')) {
      throw new StoreInputError(`docs[${i}]._rev must be a non-empty string when given`);
    }
    const body = encodeBody(doc);
    const hash = options.hash === false ? undefined : hashBody(body);
    return {
      id,
      rev,
      sessionId: typeof doc.sessionId === 'string' ? doc.sessionId : '',
      type: typeof doc.type === 'string' ? doc.type : null,
      body,
      hash,
      doc: options.doc === false ? undefined : doc,
    };
  });
}

/** A prepared document's content as an object: the caller's, or parsed back from its body. */
export function documentOf(d: PreparedDoc): Record<string, unknown> {
  return d.doc ?? (JSON.parse(d.body) as Record<string, unknown>);
}

export function prepareLocal(id: unknown, value: unknown, what: string): PreparedLocal {
  if (typeof id !== 'string' || id === '')
    throw new StoreInputError(`${what}: id must be a non-empty string`);
  const json = value === undefined ? undefined : JSON.stringify(value);
  if (json === undefined) throw new StoreInputError(`${what} "${id}": value must be JSON-serialisable`);
  return { id, value: json };
}

export function prepareLocals(locals: Array<{ id: string; value: unknown }>): PreparedLocal[] {
  if (!Array.isArray(locals)) throw new StoreInputError('locals must be an array');
  return locals.map((l, i) => prepareLocal(l?.id, l?.value, `locals[${i}]`));
}

export function nonNegativeInt(value: number | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 0)
    throw new StoreInputError(`${name} must be a non-negative integer`);
  return value;
}

/** `bodies` options checked once for every engine: where the page starts, and its bounds. */
export function checkBodiesOptions(options: BodiesOptions): {
  from: 'none' | 'start' | 'after';
  fromKey?: string;
  endkey?: string;
  limit: number;
  maxBytes: number;
} {
  for (const name of ['startkey', 'after', 'endkey'] as const) {
    const key = options[name];
    if (key !== undefined && typeof key !== 'string') throw new StoreInputError(`${name} must be a string`);
  }
  const limit = nonNegativeInt(options.limit, 'limit') ?? 0;
  const maxBytes = nonNegativeInt(options.maxBytes, 'maxBytes') ?? Number.POSITIVE_INFINITY;
  const from = options.after !== undefined ? 'after' : options.startkey !== undefined ? 'start' : 'none';
  return { from, fromKey: options.after ?? options.startkey, endkey: options.endkey, limit, maxBytes };
}

/** A write's locals, with the search-stale marker when it defers search (see `WriteOptions`). */
export function localsOfWrite(locals: PreparedLocal[], options: WriteOptions | undefined): PreparedLocal[] {
  if (!options?.deferSearch) return locals;
  return [
    ...locals,
    ...prepareLocals([{ id: SEARCH_STALE, value: deferredStale(new Date().toISOString()) }]),
  ];
}
