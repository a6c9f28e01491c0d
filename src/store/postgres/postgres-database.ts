/**
 * The connection pool of the PostgreSQL engine, its base tables, and the transaction helper every
 * write goes through. Derived (view) tables are created by `PostgresViews.materialize`, never
 * here: migrations own them.
 *
 * Several processes share one database, so three kinds of advisory locks order their work:
 * the migration lock (`withMigrationLock`), a shared/exclusive "views" lock (writers share it, a
 * view (re)build takes it alone, so no write slips past a build), and one lock per session that a
 * write takes for every session it touches (derived rows of a session are read-modify-written).
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { StoreConfigError } from '../contract.js';
import type { PostgresSettings } from './postgres-settings.js';

/** What both a pool and a checked-out client offer. */
export type Queryable = Pick<pg.PoolClient, 'query'>;

/** Advisory lock namespaces (the first key of the two-key form); any constants unlikely to clash. */
export const LOCK = {
  /** Base schema creation at open (several processes may start at once). */
  schema: 0x43540001,
  migrations: 0x43540002,
  /** Shared by writers, exclusive for view builds. */
  views: 0x43540003,
  sessions: 0x43540004,
} as const;

/**
 * Base schema. Every table with per-session rows leads its key with `session_id` (distributable by
 * session on Citus, see docs/deployment.md). Text keys use the "C" collation: ids sort by code
 * point as in the embedded engine (`_all_docs` order and paging must not depend on the locale).
 *
 * `docs.body` is the canonical JSON of the content as text — not jsonb, which cannot hold `\u0000`
 * and would reorder keys — compressed with lz4 where the server has it (a transcript page
 * decompresses whole chunk bodies; lz4 does that about twice as fast as the default pglz).
 *
 * `seq` is assigned at the end of each write transaction, under the `doc_seq` row lock, so
 * sequence order is commit order (a change-feed reader never skips a change that commits late);
 * it is NULL only inside an uncommitted write.
 */
const BASE_SCHEMA = `
CREATE TABLE IF NOT EXISTS docs (
  session_id text COLLATE "C" NOT NULL,
  id text COLLATE "C" NOT NULL,
  rev text NOT NULL,
  hash text NOT NULL,
  seq bigint,
  deleted boolean NOT NULL DEFAULT false,
  type text COLLATE "C",
  body text /*BODY_COMPRESSION*/ NOT NULL,
  PRIMARY KEY (session_id, id)
);
CREATE UNIQUE INDEX IF NOT EXISTS docs_by_id ON docs (id);
CREATE INDEX IF NOT EXISTS docs_by_seq ON docs (seq);
CREATE INDEX IF NOT EXISTS docs_by_type ON docs (type, session_id, id) WHERE NOT deleted;

CREATE TABLE IF NOT EXISTS session_doc_counts (
  session_id text COLLATE "C" PRIMARY KEY,
  live bigint NOT NULL
);

CREATE TABLE IF NOT EXISTS doc_seq (
  id int PRIMARY KEY CHECK (id = 1),
  value bigint NOT NULL
);
INSERT INTO doc_seq (id, value) VALUES (1, 0) ON CONFLICT (id) DO NOTHING;

CREATE TABLE IF NOT EXISTS local_docs (
  id text COLLATE "C" PRIMARY KEY,
  value text NOT NULL
);

CREATE TABLE IF NOT EXISTS schema_marker (
  id int PRIMARY KEY CHECK (id = 1),
  version int NOT NULL,
  history text NOT NULL
);

CREATE TABLE IF NOT EXISTS view_registry (
  name text COLLATE "C" PRIMARY KEY,
  materialized_at text NOT NULL
);
`;

/**
 * A named statement: each connection prepares it once and then skips parsing and planning (a
 * good part of a small statement's time). Named after its text, so a different text is a
 * different statement; there are a few dozen (one per filter combination, per view's write).
 */
function named(text: string, values: unknown[]): pg.QueryConfig {
  return { name: `ct_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`, text, values };
}

/**
 * The store's connections prepare every statement given with parameters (`query(text, values)`)
 * as a named statement: an ingest runs a dozen fixed statements per session it writes, and
 * parsing and planning each anew was a tenth of the server's CPU (200 MB: 4.6 → 4.2 s). Rows go
 * as binary array columns (binary-columns.ts), so even a write's text is fixed.
 */
class PreparingClient extends pg.Client {}
const clientQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
PreparingClient.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const [text, values, ...callback] = args; // the pool passes a callback
  if (typeof text === 'string' && Array.isArray(values)) {
    return clientQuery.call(this, named(text, values), ...callback);
  }
  return clientQuery.apply(this, args);
} as typeof pg.Client.prototype.query;

/** A read, prepared by the connection (see `PreparingClient`). */
export function readQuery<R extends pg.QueryResultRow = pg.QueryResultRow>(
  q: Queryable,
  text: string,
  values: unknown[] = [],
): Promise<pg.QueryResult<R>> {
  return q.query<R>(text, values);
}

/** Times a transaction is run before its error is thrown. */
const TRANSACTION_ATTEMPTS = 5;

/** Errors after which the whole transaction is simply run again. */
const RETRYABLE = new Set([
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '23505', // unique_violation: another process inserted the same id first; the rerun sees it
]);

export interface PostgresDatabaseOptions {
  /** Pool size per process (default 10). */
  maxConnections?: number;
}

export class PostgresDatabase {
  readonly pool: pg.Pool;
  readonly schema: string;
  readonly display: string;
  #closed: Promise<void> | null = null;

  private constructor(pool: pg.Pool, settings: PostgresSettings) {
    this.pool = pool;
    this.schema = settings.schema;
    this.display = settings.display;
  }

  /** Connects, creates the schema and base tables if missing; clear errors for the usual mistakes. */
  static async open(
    settings: PostgresSettings,
    options: PostgresDatabaseOptions = {},
  ): Promise<PostgresDatabase> {
    // Set-up runs on a connection of its own, which also finds out whether the server has lz4.
    // A server that takes the connection but never answers (a wrong port, a proxy) must not hang
    // the start: the set-up gives up after CONNECT_TIMEOUT_MS and says so.
    const setupPool = new pg.Pool({
      connectionString: settings.connectionString,
      max: 1,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    setupPool.on('error', () => undefined);
    let lz4 = false;
    try {
      await new PostgresDatabase(setupPool, settings).transaction(async (client) => {
        await client.query('SELECT pg_advisory_xact_lock($1, 0)', [LOCK.schema]);
        await client.query(`CREATE SCHEMA IF NOT EXISTS ${settings.schema}`);
        const found = await client.query(
          "SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)",
        );
        lz4 = found.rows.length > 0;
        await client.query(BASE_SCHEMA.replace('/*BODY_COMPRESSION*/', lz4 ? 'COMPRESSION lz4' : ''));
      });
    } catch (err) {
      throw openError(err, settings);
    } finally {
      await setupPool.end().catch(() => undefined);
    }
    const pool = new pg.Pool({
      // Every large value this store writes (views' texts and tsvectors, cursors), not only
      // document bodies, compresses with lz4 rather than pglz: about 4 % faster ingest. A
      // connection option, so nothing changes for anyone else using the server.
      connectionString: lz4
        ? withConnectionOption(settings.connectionString, 'default_toast_compression', 'lz4')
        : settings.connectionString,
      max: options.maxConnections ?? 10,
      idleTimeoutMillis: 30_000,
      // A request fails rather than waits for ever on a database that stopped answering (this
      // also bounds the wait for a free connection, which a busy pool serves within a few ms).
      connectionTimeoutMillis: 3 * CONNECT_TIMEOUT_MS,
      Client: PreparingClient,
    });
    // An idle client's connection error (server restart) must not crash the process.
    pool.on('error', () => undefined);
    return new PostgresDatabase(pool, settings);
  }

  query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    text: string,
    values?: unknown[],
  ): Promise<pg.QueryResult<R>> {
    return this.pool.query<R>(text, values);
  }

  /**
   * Runs `fn` in one transaction on one connection; reruns it from the start after a deadlock,
   * serialization failure or a unique violation raced by another process, so `fn` must only
   * write through `client` and keep no state across attempts. `opening`: statements without
   * parameters (settings for the transaction, a read they depend on) sent with BEGIN in one
   * round trip, whose results `fn` gets in order.
   */
  async transaction<T>(
    fn: (client: pg.PoolClient, opened: pg.QueryResult[]) => Promise<T>,
    opening: string[] = [],
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const client = await this.pool.connect();
      let broken = false;
      try {
        // Several statements in one simple query: one result each, BEGIN's first.
        const begun = (await client.query(['BEGIN', ...opening].join('; '))) as unknown as
          pg.QueryResult | pg.QueryResult[];
        const result = await fn(client, Array.isArray(begun) ? begun.slice(1) : []);
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
        const code = (err as { code?: string }).code;
        if (attempt >= TRANSACTION_ATTEMPTS || code === undefined || !RETRYABLE.has(code)) throw err;
      } finally {
        client.release(broken);
      }
      // A short random pause lets the other transaction finish before this one reruns.
      await new Promise((r) => setTimeout(r, Math.random() * 20 * attempt));
    }
  }

  /** Runs `fn` holding a session-level advisory lock on a dedicated connection. */
  async withLock<T>(key: number, fn: () => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken = false;
    try {
      await client.query('SELECT pg_advisory_lock($1, 0)', [key]);
      try {
        return await fn();
      } finally {
        await client.query('SELECT pg_advisory_unlock($1, 0)', [key]).catch(() => {
          broken = true; // the connection is dropped, which releases the lock
        });
      }
    } finally {
      client.release(broken);
    }
  }

  close(): Promise<void> {
    this.#closed ??= this.pool.end();
    return this.#closed;
  }
}

/**
 * Takes, inside a write transaction, the shared views lock and the lock of every session given
 * (in a fixed order, so two writers never wait on each other in a cycle).
 */
export async function lockForWrite(client: Queryable, sessionIds: Iterable<string>): Promise<void> {
  await client.query(
    `SELECT pg_advisory_xact_lock_shared($1, 0),
       (SELECT count(pg_advisory_xact_lock($2, h))
        FROM (SELECT DISTINCT hashtext(s) AS h FROM unnest($3::text[]) AS s ORDER BY 1) AS l)`,
    [LOCK.views, LOCK.sessions, [...new Set(sessionIds)]],
  );
}

/** How long opening waits for the server's answer. */
const CONNECT_TIMEOUT_MS = 10_000;

function openError(err: unknown, settings: PostgresSettings): Error {
  const e = err as { code?: string; message?: string };
  const where = `PostgreSQL at ${settings.display} (CT_DATABASE_URL)`;
  if (/timeout/i.test(e.message ?? '') && e.code === undefined) {
    return new StoreConfigError(
      `no answer from ${where} within ${CONNECT_TIMEOUT_MS / 1000} s: is it a PostgreSQL server?`,
    );
  }
  if (/Connection terminated unexpectedly/.test(e.message ?? '')) {
    return new StoreConfigError(`${where} closed the connection at once: is it a PostgreSQL server?`);
  }
  switch (e.code) {
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EHOSTUNREACH':
    case 'ETIMEDOUT':
      return new StoreConfigError(`cannot reach ${where}: ${e.code}`);
    case '28P01':
    case '28000':
      return new StoreConfigError(`${where} refused the login: ${e.message}`);
    case '3D000':
      return new StoreConfigError(`${where}: ${e.message}; create it first (createdb)`);
    case '42501':
      return new StoreConfigError(`${where}: ${e.message}; the user needs CREATE on the database or schema`);
    default:
      return err instanceof Error ? err : new Error(String(err));
  }
}

/** The connection string with `-c name=value` in its `options`, unless the caller set `name` there. */
function withConnectionOption(connectionString: string, name: string, value: string): string {
  const u = new URL(connectionString);
  const options = u.searchParams.get('options') ?? '';
  if (new RegExp(`(?:^|\\s)-c\\s*${name}=`).test(options)) return connectionString;
  u.searchParams.set('options', `${options} -c ${name}=${value}`.trim());
  return u.toString();
}
