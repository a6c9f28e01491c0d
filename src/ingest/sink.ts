/**
 * Where the ingest pipeline writes. In process it is the store itself (`storeSink`); across the
 * network it is the HTTP API's `/api/ingest/*` routes (`src/client/http-sink.ts`). The pipeline
 * never knows which, so `backfill` against a remote instance runs the very same code.
 */
import type { DocInput, FileRange, Store, StoredDoc, WriteResult } from '../store/contract.js';

export interface IngestSink {
  /** Current revisions of documents the pipeline is about to replace. */
  getRevs(ids: string[]): Promise<Map<string, string>>;
  /** One stored document (the open last chunk of a file, which an append extends). */
  getDoc(id: string): Promise<StoredDoc | null>;
  /** Instance-local state (the ingest cursor of a file). */
  getLocal<T>(id: string): Promise<T | null>;
  /** Bytes `[start, end)` of a transcript file into an object (`offset`: appended there). */
  putFile(
    key: string,
    source: FileRange,
    options?: { offset?: number },
  ): Promise<{ key: string; size: number }>;
  /** Documents and local state in one transaction. */
  commit(docs: DocInput[], locals: Array<{ id: string; value: unknown }>): Promise<WriteResult[]>;
}

export function storeSink(store: Store): IngestSink {
  return {
    getRevs: (ids) => store.docs.getRevs(ids),
    getDoc: (id) => store.docs.get(id),
    getLocal: (id) => store.docs.getLocal(id),
    putFile: (key, source, options) => store.objects.putFile(key, source, options),
    commit: (docs, locals) => store.docs.commit(docs, locals),
  };
}
