/**
 * The one place that chooses storage engines (DESIGN §5), by configuration alone
 * (store-settings.ts): documents and views in the embedded SQLite file `<dataDir>/transcripts.db`
 * or in PostgreSQL (`CT_DATABASE_URL`); objects in `<dataDir>/objects/` or an S3 bucket
 * (`CT_S3_*`). The two choices are independent.
 *
 * Each engine's module is imported when the configuration names it, not before: better-sqlite3,
 * pg and the AWS SDK take a good part of a second to load between them, and a process uses one
 * engine of each kind (or none: only `serve` opens a store).
 */
import { join } from 'node:path';
import { makeDirs } from '../config/make-dirs.js';
import type { DocStore, ObjectStore, Store, StoreCapabilities, Views } from './contract.js';
import { guardForgotten } from './forget.js';
import { CachedObjectTotals, invalidatingWrites } from './object-totals.js';
import { storeSettings, type StoreEnv, type StoreSettings } from './store-settings.js';

export interface OpenStoreOptions {
  /** Data directory of the embedded engines (created if missing; unused by PostgreSQL + S3). */
  dataDir: string;
  /** Where engine settings are read from (default `process.env`); see docs/settings.md. */
  env?: StoreEnv;
  /** Explicit engine settings (tests, tools): used instead of reading `env`. */
  settings?: StoreSettings;
}

/** How long a shared bucket's object count and bytes are reused (see object-totals.ts). */
const SHARED_TOTALS_MAX_AGE_MS = 30_000;

interface DocEngine {
  docs: DocStore;
  views: Views;
  capabilities: StoreCapabilities;
  withMigrationLock<T>(fn: () => Promise<T>): Promise<T>;
  counts(): { documents: number; sessions: number } | Promise<{ documents: number; sessions: number }>;
  close(): Promise<void>;
}

interface ObjectEngine {
  objects: ObjectStore;
  /** Whether processes on other machines see the same objects. */
  shared: boolean;
  totals(): Promise<{ objects: number; objectBytes: number }>;
  close(): Promise<void>;
}

/**
 * Opens the store for this instance.
 *
 * @example
 * const store = await openStore({ dataDir: paths.dataDir });
 * try { await store.views.listSessions({}, { limit: 50, offset: 0 }); } finally { await store.close(); }
 */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  const settings = options.settings ?? storeSettings(options.env ?? process.env);
  // A data dir under /proc fails naming it rather than hanging (make-dirs.ts); the object and
  // upload dirs inside it are then made by the engines.
  if (!settings.database || !settings.s3) await makeDirs(options.dataDir);
  const engine = await openDocEngine(options.dataDir, settings);
  let objects: ObjectEngine;
  try {
    objects = await openObjectEngine(options.dataDir, settings);
  } catch (err) {
    await engine.close();
    throw err;
  }
  let closing: Promise<void> | undefined;
  const totals = new CachedObjectTotals(() => objects.totals(), {
    // A shared bucket is written by other processes too: their objects count within this long.
    maxAgeMs: objects.shared ? SHARED_TOTALS_MAX_AGE_MS : Number.POSITIVE_INFINITY,
  });
  // Tombstones outrank every source: every write of every client passes the one guard.
  return guardForgotten({
    docs: engine.docs,
    objects: invalidatingWrites(objects.objects, totals),
    views: engine.views,
    capabilities: Object.freeze({
      engine: engine.capabilities.engine,
      // Several API processes need both halves shared: one database and one bucket.
      multiProcess: engine.capabilities.multiProcess && objects.shared,
      exactSearchTotals: engine.capabilities.exactSearchTotals,
    }),
    withMigrationLock: (fn) => engine.withMigrationLock(fn),
    stats: async () => ({ ...(await engine.counts()), ...(await totals.get()) }),
    close: () => (closing ??= Promise.all([engine.close(), objects.close()]).then(() => undefined)),
  });
}

async function openDocEngine(dataDir: string, settings: StoreSettings): Promise<DocEngine> {
  if (settings.database) {
    const [{ PostgresEngine }, { postgresSettings }] = await Promise.all([
      import('./postgres/postgres-engine.js'),
      import('./postgres/postgres-settings.js'),
    ]);
    return PostgresEngine.open(postgresSettings(settings.database.url, settings.database.schema));
  }
  const { SqliteEngine } = await import('./sqlite/sqlite-engine.js');
  return SqliteEngine.open(join(dataDir, 'transcripts.db'));
}

async function openObjectEngine(dataDir: string, settings: StoreSettings): Promise<ObjectEngine> {
  if (settings.s3) {
    const { S3ObjectStore } = await import('./s3-objects/s3-object-store.js');
    const s3 = await S3ObjectStore.open(settings.s3);
    return { objects: s3, shared: true, totals: () => s3.totals(), close: async () => s3.close() };
  }
  const { DirObjectStore } = await import('./dir-objects/dir-object-store.js');
  const dir = await DirObjectStore.open({
    root: join(dataDir, 'objects'),
    // Same tree as the objects, so the final rename never crosses a filesystem.
    uploads: join(dataDir, 'object-uploads'),
  });
  return { objects: dir, shared: false, totals: () => dir.totals(), close: async () => undefined };
}
