/**
 * The engines the shared suites run on (Kysely's `DIALECTS`): each gives fresh, empty stores —
 * in process (`open`) or for a `transcripts serve` child (`serverEnv`). `CT_TEST_ENGINES` narrows
 * the list. PostgreSQL runs use their own schema per store in the test database and an S3 bucket
 * on an `s3rver` started for the file; without a PostgreSQL they are skipped with the reason
 * (probed once per run in global-setup.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, inject } from 'vitest';
import type { Store } from '../../src/store/contract.js';
import { openStore } from '../../src/store/open-store.js';
import { copySqliteCorpus, corpusTemplate, serverDataDir } from './corpus-template.js';
import { requestedEngines, TEST_DATABASE_URL } from './postgres-probe.js';
import { S3_TEST_KEY, startS3Server, type TestS3Server } from './s3-server.js';

export type EngineName = 'sqlite' | 'postgres';

export interface TestEngine {
  name: EngineName;
  /** Why this engine cannot run here; suites skip it and say so in their titles. */
  skip?: string;
  /** A fresh, empty store (the caller closes it; `cleanup` removes what it left). */
  open(): Promise<Store>;
  /** Environment for a server (or CLI) over one fresh, empty store of this engine. */
  serverEnv(): Promise<Record<string, string>>;
  /** A fresh store holding the shared corpus: a copy of the run's template (corpus-template.ts). */
  openCorpus(): Promise<Store>;
  /**
   * Environment for a server over a fresh copy of the corpus template; `root` is the server's
   * root (startTestServer), where an embedded store is copied.
   */
  corpusServerEnv(root: string): Promise<Record<string, string>>;
  /** Removes every store made so far (schemas, buckets, temp dirs). Call once they are closed. */
  cleanup(): Promise<void>;
  /** `cleanup`, then stops the services started for this file (the S3 server). */
  stop(): Promise<void>;
}

function sqliteEngine(): TestEngine {
  const dirs: string[] = [];
  const cleanup = async () => {
    await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  };
  return {
    name: 'sqlite',
    async open() {
      const dir = await mkdtemp(path.join(tmpdir(), 'ct-sqlite-'));
      dirs.push(dir);
      // Explicit settings: the developer's own CT_DATABASE_URL must not redirect this engine.
      return openStore({ dataDir: dir, settings: {} });
    },
    // A server's store lives under its own temp CT_HOME (api-server.ts), cleaned up with it.
    serverEnv: async () => ({}),
    async openCorpus() {
      const dir = await mkdtemp(path.join(tmpdir(), 'ct-sqlite-'));
      dirs.push(dir);
      await copySqliteCorpus(path.join(dir, 'data'));
      return openStore({ dataDir: path.join(dir, 'data'), settings: {} });
    },
    async corpusServerEnv(root) {
      await copySqliteCorpus(serverDataDir(root));
      return {};
    },
    cleanup,
    stop: cleanup,
  };
}

function postgresEngine(skip: string | undefined): TestEngine {
  const schemas: string[] = [];
  let s3: Promise<TestS3Server> | null = null;
  const services = () => (s3 ??= startS3Server());
  let counter = 0;
  const newName = () =>
    `ct_test_${process.pid}_${Date.now().toString(36)}_${++counter}_${randomBytes(2).toString('hex')}`;
  const fresh = async () => {
    const schema = newName();
    schemas.push(schema);
    const server = await services();
    return { schema, server, bucket: await server.createBucket() };
  };
  const databases: string[] = [];
  /** A new database copied from the corpus template, with a copy of its bucket. */
  const corpusCopy = async () => {
    const template = corpusTemplate('postgres');
    const database = `${newName()}_corpus`;
    databases.push(database);
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE ${database} TEMPLATE ${template.database}`);
    } finally {
      await client.end();
    }
    const server = await services();
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `/${database}`;
    return { url, schema: template.schema, server, bucket: await server.copyBucket(template.bucketDir) };
  };
  const cleanup = async () => {
    const drop = schemas.splice(0);
    const dropDatabases = databases.splice(0);
    if (drop.length === 0 && dropDatabases.length === 0) return;
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      for (const schema of drop) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      for (const database of dropDatabases)
        await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    } finally {
      await client.end();
    }
  };
  return {
    name: 'postgres',
    ...(skip ? { skip } : {}),
    async open() {
      const { schema, server, bucket } = await fresh();
      return openStore({
        dataDir: path.join(tmpdir(), 'ct-unused'),
        settings: {
          database: { url: TEST_DATABASE_URL, schema },
          s3: {
            bucket,
            endpoint: server.endpoint,
            forcePathStyle: true,
            ...S3_TEST_KEY,
          },
        },
      });
    },
    async serverEnv() {
      const { schema, server, bucket } = await fresh();
      const url = new URL(TEST_DATABASE_URL);
      url.searchParams.set('schema', schema);
      return { CT_DATABASE_URL: url.toString(), ...server.env(bucket) };
    },
    async openCorpus() {
      const { url, schema, server, bucket } = await corpusCopy();
      return openStore({
        dataDir: path.join(tmpdir(), 'ct-unused'),
        settings: {
          database: { url: url.toString(), schema },
          s3: { bucket, endpoint: server.endpoint, forcePathStyle: true, ...S3_TEST_KEY },
        },
      });
    },
    async corpusServerEnv() {
      const { url, schema, server, bucket } = await corpusCopy();
      url.searchParams.set('schema', schema);
      return { CT_DATABASE_URL: url.toString(), ...server.env(bucket) };
    },
    cleanup,
    async stop() {
      await cleanup();
      const server = await s3;
      s3 = null;
      await server?.stop();
    },
  };
}

/** One engine by name, whether or not `CT_TEST_ENGINES` lists it (engine-specific test files). */
export function testEngine(name: EngineName): TestEngine {
  if (name === 'sqlite') return sqliteEngine();
  const skip =
    inject('postgresSkip') ||
    (requestedEngines().includes('postgres') ? undefined : 'CT_TEST_ENGINES does not list postgres');
  return postgresEngine(skip);
}

/** The engines this run covers, in order. */
export const ENGINES: TestEngine[] = (['sqlite', 'postgres'] as const)
  .filter((name) => requestedEngines().includes(name))
  .map(testEngine);

/**
 * Declares a suite once per engine of the run, titled `<engine>: <topic>` (a skipped engine keeps
 * its reason in the title). The engine's stores and services are removed after the suite.
 *
 * @example
 * describeEngines('read routes', (engine) => {
 *   beforeAll(async () => { server = await startTestServer({ env: await engine.serverEnv() }); });
 *   describe('GET /api/sessions', () => { … });
 * });
 */
export function describeEngines(topic: string, body: (engine: TestEngine) => void): void {
  for (const engine of ENGINES) {
    const title = `${engine.name}: ${topic}`;
    if (engine.skip) {
      describe.skip(`${title} (skipped: ${engine.skip})`, () => body(engine));
      continue;
    }
    describe(title, () => {
      // Registered first, so it runs after the suite's own afterAll (which stops its servers).
      afterAll(() => engine.stop());
      body(engine);
    });
  }
}

/**
 * A suite that needs several processes on one store — only an engine whose documents and objects
 * are shared (PostgreSQL + S3) can run it. Skipped with the reason when PostgreSQL is unavailable.
 */
export function describeSharedEngine(topic: string, body: (engine: TestEngine) => void): void {
  const engine = testEngine('postgres');
  const title = `${engine.name}: ${topic}`;
  if (engine.skip) {
    describe.skip(`${title} (skipped: ${engine.skip})`, () => body(engine));
    return;
  }
  describe(title, () => {
    afterAll(() => engine.stop());
    body(engine);
  });
}
