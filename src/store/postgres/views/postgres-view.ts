/**
 * One materialisable view of the PostgreSQL engine: its DDL, its build from stored documents, and
 * its share of per-write maintenance. Several writes run at once (one per pooled connection), so
 * per-write state lives in a `ViewBatch` made for each write transaction, never on the view.
 * A batch is told about every write in document order (`removing` the old version, then `added`
 * for the new one) and issues its SQL at `flush`, still inside the transaction, so the views never
 * lag the documents.
 */
import type { ViewName } from '../../contract.js';
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
  /** Fills freshly created tables from the stored documents. */
  build(q: Queryable): Promise<void>;
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

/**
 * Visits every live document of one type in key order, a page at a time (bodies can be large;
 * paging keeps memory flat while the visitor writes through the same connection).
 */
export async function forEachDoc(
  q: Queryable,
  type: string,
  visit: (rows: Array<{ session_id: string; id: string; body: string }>) => Promise<void>,
  pageSize = 200,
): Promise<void> {
  let after: [string, string] = ['', ''];
  for (;;) {
    const { rows } = await q.query<{ session_id: string; id: string; body: string }>(
      `SELECT session_id, id, body FROM docs
       WHERE type = $1 AND NOT deleted AND (session_id, id) > ($2, $3)
       ORDER BY session_id, id LIMIT $4`,
      [type, after[0], after[1], pageSize],
    );
    if (rows.length > 0) await visit(rows);
    if (rows.length < pageSize) return;
    const last = rows[rows.length - 1]!;
    after = [last.session_id, last.id];
  }
}

/** Runs of consecutive operations of one kind, in order: each run becomes one statement. */
export function runsOf<T extends { kind: string }>(ops: T[]): T[][] {
  const runs: T[][] = [];
  for (const op of ops) {
    const last = runs[runs.length - 1];
    if (last && last[0]!.kind === op.kind) last.push(op);
    else runs.push([op]);
  }
  return runs;
}
