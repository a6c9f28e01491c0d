/**
 * How the doc store tells the materialised views about writes, inside the write transaction, so
 * views never lag the documents. `begin` opens each write transaction. Per write: `removing` (before a live document is replaced or
 * deleted, while its old row is still readable), then `added` (after the new content is stored),
 * and once per transaction `flush` (aggregates that are cheaper to compute once per batch).
 * `reset` runs when the transaction rolls back, to drop per-batch state.
 */

import type { WriteOptions } from '../contract.js';

/** A live document about to be replaced or deleted. */
export interface PreviousDoc {
  sessionId: string;
  id: string;
  type: string | null;
  /**
   * `file`, `firstIndex` and `entryCount` of a chunk, read from the stored row (one SQL JSON
   * extraction, memoised) rather than parsing the whole body in JS.
   */
  chunkRange(): { file: string; firstIndex: number; entryCount: number } | null;
}

/** A document as just written (the caller's object; read it, never keep it after the call). */
export interface WrittenDoc {
  sessionId: string;
  id: string;
  type: string | null;
  doc: Record<string, unknown>;
}

export interface DocWriteObserver {
  begin(options?: WriteOptions): void;
  removing(prev: PreviousDoc): void;
  added(doc: WrittenDoc): void;
  flush(): void;
  reset(): void;
}
