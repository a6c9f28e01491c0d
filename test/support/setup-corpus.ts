/**
 * Global setup of the API, end-to-end and browser layers: ingests the shared corpus once per
 * engine of the run into a template store, which each test that needs the corpus copies
 * (corpus-template.ts) instead of backfilling it again through a CLI child (about 3 s a time on
 * these machines, in some 20 files, most on both engines).
 *
 * The template is written by the same pipeline as `transcripts backfill --dir <corpus>/claude-code
 * --host test-host` (ingestTree with the backfill's source and provenance), in process into the
 * store instead of through `/api/ingest/*`, which hands the very same documents to the same store
 * calls. The backfill command itself is tested end to end in test/cli/backfill.test.ts.
 *
 * SQLite: a closed data dir, copied file by file. PostgreSQL: a database of its own that
 * `CREATE DATABASE … TEMPLATE` copies, and the S3 bucket as s3rver's directory on disk, copied
 * into the bucket directory of each test file's s3rver.
 */
import { chmodSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { ingestTree } from '../../src/ingest/ingest-tree.js';
import { storeSink } from '../../src/ingest/sink.js';
import { createMigrator } from '../../src/migrations/runner.js';
import type { Store } from '../../src/store/contract.js';
import { openStore } from '../../src/store/open-store.js';
import { CORPUS_HOST, type CorpusTemplates } from './corpus-template.js';
import { claudeCorpusDir } from './paths.js';
import { requestedEngines, TEST_DATABASE_URL } from './postgres-probe.js';
import { S3_TEST_KEY, startS3Server } from './s3-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's corpus templates, by engine (absent: that engine does not run). */
    corpusTemplates: CorpusTemplates;
  }
}

const TEMPLATES = 'CT_TEST_CORPUS_TEMPLATES';

async function ingestCorpus(store: Store): Promise<void> {
  await createMigrator(store).up();
  const result = await ingestTree({
    root: claudeCorpusDir,
    sink: storeSink(store),
    hostname: CORPUS_HOST,
    source: 'backfill',
    provenance: 'backfilled',
  });
  if (result.failed.length > 0 || result.skipped.length > 0)
    throw new Error(`corpus template: ${JSON.stringify({ failed: result.failed, skipped: result.skipped })}`);
}

/** Files 0600 and directories 0700, as `serve` makes a data dir (so it has nothing to repair). */
function makePrivate(dir: string): void {
  chmodSync(dir, 0o700);
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) makePrivate(p);
    else chmodSync(p, 0o600);
  }
}

async function sqliteTemplate(): Promise<string> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ct-corpus-sqlite-'));
  const store = await openStore({ dataDir, settings: {} });
  try {
    await ingestCorpus(store);
  } finally {
    await store.close();
  }
  makePrivate(dataDir);
  return dataDir;
}

async function postgresTemplate(): Promise<NonNullable<CorpusTemplates['postgres']>> {
  const database = `ct_test_${process.pid}_${Date.now().toString(36)}_corpus`;
  const schema = 'ct_corpus';
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${database}`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${database}`;
  const s3 = await startS3Server({ keep: true });
  try {
    const bucket = await s3.createBucket();
    const store = await openStore({
      dataDir: path.join(tmpdir(), 'ct-unused'),
      settings: {
        database: { url: url.toString(), schema },
        s3: { bucket, endpoint: s3.endpoint, forcePathStyle: true, ...S3_TEST_KEY },
      },
    });
    try {
      await ingestCorpus(store);
    } finally {
      await store.close();
    }
    return { database, schema, bucketDir: s3.bucketDir(bucket) };
  } finally {
    await s3.stop();
  }
}

async function dropDatabase(database: string): Promise<void> {
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  let teardown: (() => Promise<void>) | undefined;
  if (!process.env[TEMPLATES]) {
    const templates: CorpusTemplates = {};
    const took: string[] = [];
    const timed = async <T>(name: string, make: () => Promise<T>): Promise<T> => {
      const started = Date.now();
      const made = await make();
      took.push(`${name} ${Date.now() - started} ms`);
      return made;
    };
    // Side by side: the PostgreSQL ingest mostly waits on the server, the SQLite one computes.
    await Promise.all([
      requestedEngines().includes('sqlite') &&
        timed('sqlite', sqliteTemplate).then((dir) => (templates.sqlite = dir)),
      requestedEngines().includes('postgres') &&
        !process.env.CT_TEST_POSTGRES_SKIP &&
        timed('postgres', postgresTemplate).then((made) => {
          templates.postgres = made;
          teardown = () => dropDatabase(made.database);
        }),
    ]);
    process.env[TEMPLATES] = JSON.stringify(templates);
    console.log(`corpus templates: ${took.join(', ')}`);
  }
  project.provide('corpusTemplates', JSON.parse(process.env[TEMPLATES]!) as CorpusTemplates);
  return teardown;
}
