/**
 * The ingest tests' store: a migrated SQLite store in a folder, a backfill of a tree into it as
 * `transcripts backfill` writes it, and what came of it (a session's summary, its stored entries).
 */
import path from 'node:path';
import {
  summaryDocSchema,
  type ChunkDoc,
  type ProjectedEntry,
  type SummaryDoc,
} from '../../src/core/documents.js';
import { ingestTree, type IngestTreeOptions } from '../../src/ingest/ingest-tree.js';
import { storeSink } from '../../src/ingest/sink.js';
import { createMigrator } from '../../src/migrations/runner.js';
import type { Store } from '../../src/store/contract.js';
import { openStore } from '../../src/store/open-store.js';

/** A SQLite store in `dir/name`, migrated to the latest version. */
export async function migratedStore(dir: string, name: string): Promise<Store> {
  const s = await openStore({ dataDir: path.join(dir, name) });
  await createMigrator(s).up();
  return s;
}

/** Reads the tree at `root` into `store`, as a backfill on host `test-host`. */
export function backfillInto(store: Store, root: string, extra: Partial<IngestTreeOptions> = {}) {
  return ingestTree({
    root,
    sink: storeSink(store),
    hostname: 'test-host',
    source: 'backfill',
    provenance: 'backfilled',
    ...extra,
  });
}

/** The session's summary, validated; an error naming the session when there is none. */
export async function summaryOf(store: Store, sessionId: string): Promise<SummaryDoc> {
  const doc = await store.docs.get(`summary:${sessionId}`);
  if (!doc) throw new Error(`no summary of ${sessionId}`);
  return summaryDocSchema.parse(doc);
}

/** Every stored entry of the session, in chunk order, each with the object it is in. */
export async function storedEntries(
  store: Store,
  sessionId: string,
): Promise<Array<ProjectedEntry & { file: string }>> {
  const page = await store.docs.allDocs({
    startkey: `chunk:${sessionId}:`,
    endkey: `chunk:${sessionId}:\uffff`,
    includeDocs: true,
    limit: 1000,
  });
  return page.rows.flatMap((r) => {
    const chunk = r.doc as unknown as ChunkDoc;
    return (chunk.entries ?? []).map((e) => ({ ...e, file: chunk.file }));
  });
}
