/**
 * Whether the test PostgreSQL answers. The suite must pass on a machine without one, so the
 * PostgreSQL runs of shared suites are skipped then, with the reason (and the URL) in their titles.
 */
import pg from 'pg';

/** The test database: `CT_TEST_DATABASE_URL`, else the local trust-auth server of these machines. */
export const TEST_DATABASE_URL =
  process.env.CT_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Engines a run covers: `CT_TEST_ENGINES=sqlite,postgres` (the default) narrows it. */
export function requestedEngines(): string[] {
  return (process.env.CT_TEST_ENGINES ?? 'sqlite,postgres')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Empty when PostgreSQL answers; otherwise why the PostgreSQL runs are skipped. */
export async function probePostgres(): Promise<string> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return '';
  } catch (err) {
    const e = err as { code?: string; message?: string };
    return `no PostgreSQL at ${TEST_DATABASE_URL} (${e.code ?? e.message ?? String(err)})`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Test schemas and databases are named `ct_test_<pid>_<Date.now() in base 36>_…` (engines.ts). */
const SCHEMA = /^ct_test_\d+_([0-9a-z]+)_/;
const STALE_MS = 6 * 60 * 60 * 1000;

/**
 * Drops test schemas and databases (corpus copies, setup-corpus.ts) left by runs that were killed before their cleanup (hours old, so never one
 * a concurrent run is using). Best effort: a failure only leaves them for the next run.
 */
export async function sweepStaleSchemas(): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ name: string }>(
      "SELECT nspname AS name FROM pg_namespace WHERE nspname LIKE 'ct\\_test\\_%'",
    );
    for (const { name } of rows) {
      const made = SCHEMA.exec(name)?.[1];
      if (made && Date.now() - parseInt(made, 36) > STALE_MS)
        await client.query(`DROP SCHEMA ${name} CASCADE`);
    }
    const databases = await client.query<{ name: string }>(
      "SELECT datname AS name FROM pg_database WHERE datname LIKE 'ct\\_test\\_%'",
    );
    for (const { name } of databases.rows) {
      const made = SCHEMA.exec(name)?.[1];
      if (made && Date.now() - parseInt(made, 36) > STALE_MS)
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }
  } catch {
    // the next run tries again
  } finally {
    await client.end().catch(() => undefined);
  }
}
