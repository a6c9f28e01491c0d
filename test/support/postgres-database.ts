/**
 * Tests of the PostgreSQL engine's connection layer: a `PostgresDatabase` with one connection over
 * a fresh schema, closed and its schema dropped after each test. Without a PostgreSQL, `describePg`
 * skips and `title` says why.
 */
import { afterAll, afterEach, describe } from 'vitest';
import { PostgresDatabase } from '../../src/store/postgres/postgres-database.js';
import { postgresSettings } from '../../src/store/postgres/postgres-settings.js';
import { testEngine } from './engines.js';

export function postgresDatabases() {
  const engine = testEngine('postgres');
  let db: PostgresDatabase | null = null;
  afterEach(async () => {
    await db?.close();
    db = null;
    await engine.cleanup();
  });
  afterAll(() => engine.stop());
  return {
    describePg: engine.skip ? describe.skip : describe,
    title: (name: string) => `${name}${engine.skip ? ` (skipped: ${engine.skip})` : ''}`,
    /** The test's database (one per test). */
    async open(): Promise<PostgresDatabase> {
      const env = await engine.serverEnv();
      db = await PostgresDatabase.open(postgresSettings(env.CT_DATABASE_URL!), { maxConnections: 1 });
      return db;
    },
  };
}
