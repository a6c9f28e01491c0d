/**
 * The stores the benchmark runs on, chosen with `--engine`: each hands out the environment of a
 * fresh, empty store (what a `transcripts serve` or an ingest worker would be configured with).
 * PostgreSQL stores get a schema of their own, dropped afterwards unless `--keep`; objects go to
 * the `CT_S3_*` bucket when one is configured, else to an s3rver on loopback (an emulator: its
 * figures measure the engine's overhead, not a real S3's).
 */
import pg from 'pg';
import { startS3Server, type TestS3Server } from '../test/support/s3-server.js';

export type EngineName = 'sqlite' | 'postgres';

export interface BenchEngine {
  name: EngineName;
  label: string;
  /** Environment of a fresh, empty store. */
  env(): Promise<Record<string, string>>;
  /**
   * Writes out what the engine holds dirty in its own memory (PostgreSQL's shared buffers), so
   * the next timed step does not pay for the step before; `sync` then does the same for the OS.
   */
  settle(): Promise<void>;
  /**
   * Brings the newest store to the rest a server left alone reaches after a bulk load: on
   * PostgreSQL, every table vacuumed and analyzed (autovacuum's work, which would otherwise run
   * beside the first minute of requests). The embedded engine has no such upkeep.
   */
  rest(): Promise<void>;
  close(): Promise<void>;
}

export async function benchEngines(
  names: EngineName[],
  options: { databaseUrl: string; keep: boolean },
): Promise<BenchEngine[]> {
  const out: BenchEngine[] = [];
  for (const name of names) {
    out.push(
      name === 'sqlite'
        ? {
            name,
            label: 'sqlite (embedded: SQLite file + object directory)',
            env: async () => ({}),
            settle: async () => {},
            rest: async () => {},
            close: async () => {},
          }
        : await postgresEngine(options),
    );
  }
  return out;
}

async function postgresEngine(options: { databaseUrl: string; keep: boolean }): Promise<BenchEngine> {
  const realS3 = Boolean(process.env.CT_S3_BUCKET);
  const s3: TestS3Server | null = realS3 ? null : await startS3Server();
  const schemas: string[] = [];
  let checkpoints = true;
  const objects = realS3 ? `S3 bucket ${process.env.CT_S3_BUCKET}` : `s3rver at ${s3!.endpoint}`;
  const display = new URL(options.databaseUrl);
  if (display.password) display.password = '***';
  return {
    name: 'postgres',
    label: `postgres (${display.host}${display.pathname}) + ${objects}`,
    async env() {
      const schema = `ct_bench_${process.pid}_${schemas.length + 1}`;
      schemas.push(schema);
      const url = new URL(options.databaseUrl);
      url.searchParams.set('schema', schema);
      const objectEnv = s3
        ? s3.env(await s3.createBucket())
        : (Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('CT_S3_'))) as Record<
            string,
            string
          >);
      return { CT_DATABASE_URL: url.toString(), ...objectEnv };
    },
    async settle() {
      if (!checkpoints) return;
      const client = new pg.Client({ connectionString: options.databaseUrl });
      await client.connect();
      try {
        await client.query('CHECKPOINT');
      } catch (err) {
        // Needs superuser or pg_checkpoint; without either the bench still runs, less settled.
        checkpoints = false;
        console.log(`note: no CHECKPOINT between steps (${(err as Error).message})`);
      } finally {
        await client.end();
      }
    },
    async rest() {
      const schema = schemas.at(-1);
      if (!schema) return;
      const client = new pg.Client({ connectionString: options.databaseUrl });
      await client.connect();
      try {
        const { rows } = await client.query<{ name: string }>(
          'SELECT tablename AS name FROM pg_tables WHERE schemaname = $1 ORDER BY tablename',
          [schema],
        );
        for (const { name } of rows)
          await client.query(
            `VACUUM (ANALYZE) ${client.escapeIdentifier(schema)}.${client.escapeIdentifier(name)}`,
          );
      } finally {
        await client.end();
      }
    },
    async close() {
      await s3?.stop();
      if (options.keep || schemas.length === 0) return;
      const client = new pg.Client({ connectionString: options.databaseUrl });
      await client.connect();
      try {
        for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}
