/**
 * Decides, for one bulk write, what happens to each document — the embedded engine's rules, one
 * document after another: a new id without `_rev` is created; identical content is `unchanged`
 * whatever `_rev` it carries; a live document is replaced only at its current `_rev`; a tombstone
 * may be recreated without one; anything else is a `conflict`. The result is the per-document
 * outcome plus the final row of every id written, so the rows go to PostgreSQL in a few set-based
 * statements while views still see every write in order. Pure: no I/O.
 */
import { nextRev } from '../../core/revision.js';
import type { WriteResult } from '../contract.js';
import { hashBody } from '../docs-common/encode-content.js';
import { documentOf, type PreparedDoc } from '../docs-common/prepare-docs.js';

/** A `docs` row as read before the write. */
export interface StoredRow {
  session_id: string;
  id: string;
  rev: string;
  hash: string;
  deleted: boolean;
  type: string | null;
}

/** One accepted write, in batch order, with the live version it replaced (if any). */
export interface PlannedWrite {
  doc: PreparedDoc;
  prev: {
    sessionId: string;
    type: string | null;
    /** When the replaced version was written earlier in this same batch: its content. */
    fromBatch?: Record<string, unknown>;
  } | null;
}

/** The row an id ends with after the batch. */
export interface FinalRow {
  sessionId: string;
  id: string;
  rev: string;
  hash: string;
  deleted: boolean;
  type: string | null;
  body: string;
  /** The session of the stored row before the batch; null when the id was not stored. */
  oldSession: string | null;
}

export interface WritePlan {
  results: WriteResult[];
  writes: PlannedWrite[];
  rows: FinalRow[];
  /** Live documents gained (+) or lost (−) per session. */
  liveDelta: Map<string, number>;
  /** (session, id) of every id written, ordered by its last write: the order of their sequence numbers. */
  seqOrder: Array<[string, string]>;
  /** Ids whose stored live version is replaced (its chunk range must be read before the update). */
  replacedStored: string[];
}

interface State {
  sessionId: string;
  rev: string;
  hash: string;
  deleted: boolean;
  type: string | null;
  /** Set once the id was written in this batch. */
  doc?: PreparedDoc;
}

export function planWrites(docs: PreparedDoc[], stored: Map<string, StoredRow>): WritePlan {
  const state = new Map<string, State>();
  for (const [id, r] of stored) {
    state.set(id, { sessionId: r.session_id, rev: r.rev, hash: r.hash, deleted: r.deleted, type: r.type });
  }
  const plan: WritePlan = {
    results: [],
    writes: [],
    rows: [],
    liveDelta: new Map(),
    seqOrder: [],
    replacedStored: [],
  };
  const live = (sessionId: string, n: number) =>
    plan.liveDelta.set(sessionId, (plan.liveDelta.get(sessionId) ?? 0) + n);
  const lastWrite = new Map<string, State & { doc: PreparedDoc }>();

  for (const d of docs) {
    const hash = (d.hash ??= hashBody(d.body));
    const s = state.get(d.id);
    let prev: PlannedWrite['prev'] = null;
    if (!s) {
      if (d.rev !== undefined) {
        plan.results.push({
          id: d.id,
          status: 'conflict',
          reason: `document does not exist; _rev ${d.rev} cannot match`,
        });
        continue;
      }
      live(d.sessionId, 1);
    } else if (s.deleted) {
      // A tombstone may be recreated without a revision, as in CouchDB.
      if (d.rev !== undefined && d.rev !== s.rev) {
        plan.results.push({
          id: d.id,
          status: 'conflict',
          rev: s.rev,
          reason: `document was deleted at ${s.rev}`,
        });
        continue;
      }
      live(d.sessionId, 1);
    } else if (s.hash === hash) {
      plan.results.push({ id: d.id, status: 'unchanged', rev: s.rev });
      continue;
    } else if (d.rev !== s.rev) {
      const reason =
        d.rev === undefined
          ? `document exists at ${s.rev}; _rev is required to replace it`
          : `_rev ${d.rev} is not the current revision ${s.rev}`;
      plan.results.push({ id: d.id, status: 'conflict', rev: s.rev, reason });
      continue;
    } else {
      prev = { sessionId: s.sessionId, type: s.type, ...(s.doc ? { fromBatch: documentOf(s.doc) } : {}) };
      if (!s.doc) plan.replacedStored.push(d.id);
      if (s.sessionId !== d.sessionId) {
        live(s.sessionId, -1);
        live(d.sessionId, 1);
      }
    }
    const rev = nextRev(s?.rev, hash);
    const next = { sessionId: d.sessionId, rev, hash, deleted: false, type: d.type, doc: d };
    state.set(d.id, next);
    lastWrite.delete(d.id); // re-inserted at the end: sequence numbers follow the last write
    lastWrite.set(d.id, next);
    plan.writes.push({ doc: d, prev });
    plan.results.push({ id: d.id, status: 'written', rev });
  }

  for (const [id, w] of lastWrite) {
    plan.rows.push({
      sessionId: w.sessionId,
      id,
      rev: w.rev,
      hash: w.hash,
      deleted: false,
      type: w.type,
      body: w.doc.body,
      oldSession: stored.get(id)?.session_id ?? null,
    });
    plan.seqOrder.push([w.sessionId, id]);
  }
  return plan;
}
