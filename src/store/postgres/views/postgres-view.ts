/**
 * One materialisable view of the PostgreSQL engine: its DDL, its build from stored documents, and
 * its share of per-write maintenance. Several writes run at once (one per pooled connection), so
 * per-write state lives in a `ViewBatch` made for each write transaction, never on the view.
 * A batch is told about every write in document order (`removing` the old version, then `added`
 * for the new one) and issues its SQL at `flush`, still inside the transaction, so the views never
 * lag the documents.
 */
import type { ViewName, ViewReshape } from '../../contract.js';
import type { Queryable } from '../postgres-database.js';

/** A live document about to be replaced or deleted. */
export interface PreviousDoc {
  sessionId: string;
  id: string;
  type: string | null;
  /** `file`, `firstIndex` and `entryCount` of a replaced chunk (read before it was overwritten). */
  chunkRange: { file: string; firstIndex: number; entryCount: number } | null;
}

/** A document as just written (the caller's object; read it, never keep it after the flush). */
export interface WrittenDoc {
  sessionId: string;
  id: string;
  type: string | null;
  doc: Record<string, unknown>;
}

export interface ViewBatch {
  removing?(prev: PreviousDoc): void;
  added?(doc: WrittenDoc): void;
  flush(): Promise<void>;
}

export interface PostgresView {
  readonly name: ViewName;
  /** A view whose tables this one reads or indexes: it must be materialised first. */
  readonly requires?: ViewName;
  /** Document types whose writes this view follows. */
  readonly follows: readonly string[];
  /** Whether `removing` needs the chunk range of a replaced chunk (costs a read of its old body). */
  readonly needsChunkRange?: boolean;
  create(q: Queryable): Promise<void>;
  drop(q: Queryable): Promise<void>;
  /** Fills freshly created tables from the stored documents (and adds indexes best built on full tables). */
  build(q: Queryable): Promise<void>;
  /**
   * Applies or reverts one of the view's reshapes (contract.ts `VIEW_RESHAPES`) with the views
   * lock held; does nothing when the tables are in that shape already.
   */
  reshape?(q: Queryable, reshape: ViewReshape, direction: 'up' | 'down'): Promise<void>;
  /** Per-write maintenance for one transaction; absent for views that need none (indexes). */
  batch?(q: Queryable): ViewBatch;
}

/**
 * PostgreSQL text cannot hold U+0000. Derived rows (search text, turn text, rollup attributes)
 * carry U+FFFD in its place; documents themselves keep every character (their JSON escapes it).
 */
export function pgText(value: string): string;
export function pgText(value: string | null): string | null;
export function pgText(value: string | null): string | null {
  return value !== null && value.includes('\u0000') ? value.replaceAll('\u0000', '\uFFFD') : value;
}

/** Bodies per page of `forEachDoc`, at most (a page always holds one document). */
const PAGE_BYTES = 16 * 1024 * 1024;

/**
 * Visits every live document of one type in key order, a page at a time (bodies can be large;
 * paging keeps memory flat while the visitor writes through the same connection).
 */
export async function forEachDoc(
  q: Queryable,
  type: string,
  visit: (rows: Array<{ session_id: string; id: string; body: string }>) => Promise<void>,
  pageSize = 200,
  maxBytes = PAGE_BYTES,
): Promise<void> {
  let after: [string, string] = ['', ''];
  for (;;) {
    // Pages end at pageSize rows or once maxBytes of bodies are in (octet_length reads a stored
    // body's size from its header): 200 chunks of a transcript with megabyte lines are 400 MB.
    const { rows } = await q.query<{ session_id: string; id: string; body: string }>(
      `SELECT session_id, id, body FROM (
         SELECT session_id, id, body,
           sum(octet_length(body)) OVER (ORDER BY session_id, id ROWS UNBOUNDED PRECEDING) - octet_length(body) AS before
         FROM docs WHERE type = $1 AND NOT deleted AND (session_id, id) > ($2, $3)
         ORDER BY session_id, id LIMIT $4
       ) page WHERE before < $5 ORDER BY session_id, id`,
      [type, after[0], after[1], pageSize, Math.max(maxBytes, 1)],
    );
    if (rows.length === 0) return;
    await visit(rows);
    const last = rows[rows.length - 1]!;
    after = [last.session_id, last.id];
  }
}

/** Fields of `rows` as one array each: the parameters of an `unnest($1::…[], $2::…[], …)` statement. */
export function columns<T, K extends keyof T>(rows: T[], ...keys: K[]): Array<Array<T[K]>> {
  return keys.map((k) => rows.map((r) => r[k]));
}

/** The key of a row per transcript entry: (session, file, index). */
export function entryKey(op: { sessionId: string; file: string; idx: number }): string {
  return `${op.sessionId}\u0000${op.file}\u0000${op.idx}`;
}

/**
 * Applies a view batch's operations in order and empties the list: each run of consecutive
 * removes is one statement, each run of upserts another. One statement may not upsert a row
 * twice, so within a run the later write of a key wins, as it would one statement at a time.
 */
export async function applyRuns<O extends { kind: 'remove' | 'upsert' }>(
  ops: O[],
  apply: {
    remove(run: Array<Extract<O, { kind: 'remove' }>>): Promise<unknown>;
    upsert(run: Array<Extract<O, { kind: 'upsert' }>>): Promise<unknown>;
    /** The row an upsert writes. */
    key(op: Extract<O, { kind: 'upsert' }>): string;
  },
): Promise<void> {
  type R = Extract<O, { kind: 'remove' }>;
  type U = Extract<O, { kind: 'upsert' }>;
  let start = 0;
  while (start < ops.length) {
    const kind = ops[start]!.kind;
    let end = start + 1;
    while (end < ops.length && ops[end]!.kind === kind) end++;
    const run = ops.slice(start, end);
    if (kind === 'remove') await apply.remove(run as R[]);
    else {
      const last = new Map<string, U>();
      for (const op of run as U[]) last.set(apply.key(op), op);
      await apply.upsert([...last.values()]);
    }
    start = end;
  }
  ops.length = 0;
}
