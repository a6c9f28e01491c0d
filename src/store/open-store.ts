/**
 * The one place that chooses storage engines (DESIGN §5). Today: the embedded engine — SQLite
 * file `<dataDir>/transcripts.db` for documents and views, `<dataDir>/objects/` for objects.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Store } from './contract.js';
import { DirObjectStore } from './dir-objects/dir-object-store.js';
import { SqliteEngine } from './sqlite/sqlite-engine.js';

export interface OpenStoreOptions {
  /** Data directory of the embedded engine (created if missing). */
  dataDir: string;
}

/**
 * Opens the store for this instance.
 *
 * @example
 * const store = await openStore({ dataDir: paths.dataDir });
 * try { await store.views.listSessions({}, { limit: 50, offset: 0 }); } finally { await store.close(); }
 */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  await mkdir(options.dataDir, { recursive: true });
  // Engine choice goes here: `CT_DATABASE_URL` will select the PostgreSQL document engine and
  // `CT_S3_*` the S3 object store, independently of each other; without them, the embedded ones.
  const engine = SqliteEngine.open(join(options.dataDir, 'transcripts.db'));
  let objects: DirObjectStore;
  try {
    objects = await DirObjectStore.open({
      root: join(options.dataDir, 'objects'),
      // Same tree as the objects, so the final rename never crosses a filesystem.
      uploads: join(options.dataDir, 'object-uploads'),
    });
  } catch (err) {
    await engine.close();
    throw err;
  }
  return {
    docs: engine.docs,
    objects,
    views: engine.views,
    capabilities: engine.capabilities,
    withMigrationLock: (fn) => engine.withMigrationLock(fn),
    stats: async () => ({ ...engine.counts(), ...(await objects.totals()) }),
    close: () => engine.close(),
  };
}
