/**
 * Keeps the planner's statistics from going stale. Every query plans from them (a filtered search
 * joins the session table by its estimate of how many sessions match), and they come from
 * ANALYZE, which autovacuum runs; on a server where it is off, or before it has caught up with a
 * large import, they may describe an empty table. One such estimate (8 sessions for a filter that
 * matched 1,579) made a filtered search of a rare word take 460 ms instead of 17 ms on the 1 GB
 * bench history.
 *
 * So at most once a minute per process, a read looks (in the background) for tables of the
 * store's schema changed by a fifth since they were last analyzed, and one process at a time
 * analyzes them.
 */
import { LOCK, type PostgresDatabase } from './postgres-database.js';

/** How often one process looks. */
const CHECK_EVERY_MS = 60_000;

/** Tables changed by more than this share of their rows (plus `MIN_CHANGES`) are analyzed. */
const CHANGED_SHARE = 0.2;
const MIN_CHANGES = 1000;

export class TableStatistics {
  readonly #db: PostgresDatabase;
  #checkedAt = Number.NEGATIVE_INFINITY;
  #running: Promise<void> | null = null;

  constructor(db: PostgresDatabase) {
    this.#db = db;
  }

  /** Called on every read; returns at once, and starts a look when one is due. */
  freshen(): void {
    const now = Date.now();
    if (this.#running || now - this.#checkedAt < CHECK_EVERY_MS) return;
    this.#checkedAt = now;
    this.#running = this.#analyzeStale()
      .catch(() => undefined) // an optimisation: a failure waits for the next look
      .finally(() => {
        this.#running = null;
      });
  }

  /** Waits for a look in progress (a store that closes lets it finish rather than cut it off). */
  async close(): Promise<void> {
    await this.#running;
  }

  /** Analyzes the tables due, unless another process is analyzing. */
  async #analyzeStale(): Promise<void> {
    const client = await this.#db.pool.connect();
    try {
      const { rows } = await client.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_stat_user_tables t JOIN pg_class c ON c.oid = t.relid
        WHERE t.schemaname = current_schema()
          AND t.n_mod_since_analyze > $1::float8 * greatest(c.reltuples, 0) + $2::int
        ORDER BY c.relname`,
        [CHANGED_SHARE, MIN_CHANGES],
      );
      if (rows.length === 0) return;
      const locked = await client.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1, 0) AS got', [
        LOCK.analyze,
      ]);
      if (!locked.rows[0]?.got) return;
      try {
        for (const { name } of rows) await client.query(`ANALYZE ${client.escapeIdentifier(name)}`);
      } finally {
        await client.query('SELECT pg_advisory_unlock($1, 0)', [LOCK.analyze]);
      }
    } finally {
      client.release();
    }
  }
}
