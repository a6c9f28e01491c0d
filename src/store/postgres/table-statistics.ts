/**
 * Does for the store's tables what autovacuum does, when it is off or lags behind.
 *
 * Statistics: every query plans from them (a filtered search joins the session table by its
 * estimate of how many sessions match), and they come from ANALYZE; before it has run after a
 * large import they may describe an empty table. One such estimate (8 sessions for a filter that
 * matched 1,579) made a filtered search of a rare word take 460 ms instead of 17 ms on the 1 GB
 * bench history.
 *
 * Vacuum, where autovacuum is off (on the server, or for the table): every appended line rewrites
 * the session's last chunk and its derived rows, so the tables gather dead rows that only VACUUM
 * makes room of again; and until a page is vacuumed, an index-only read (the turns across
 * sessions, paged in their index) still visits it (a deep page of turns took 3 ms instead of
 * 0.9 ms on the 200 MB bench history). Where autovacuum is on, vacuum is left to it: it yields to
 * other work on the table, which a VACUUM statement does not.
 *
 * So at most once a minute per process, a read looks (in the background) for tables of the
 * store's schema that autovacuum's default thresholds would have it analyze (changed by a fifth)
 * or vacuum (grown or gone dead by a fifth), and one process at a time does it (per schema: the
 * stores of one database in other schemas tend their own tables meanwhile). A table autovacuum
 * (or anything else) is vacuuming is skipped, not waited for.
 */
import { LOCK, type PostgresDatabase } from './postgres-database.js';

/** How often one process looks. */
const CHECK_EVERY_MS = 60_000;
/** How long a closing store waits for a look before it cancels it. */
const CLOSE_GRACE_MS = 5_000;

/**
 * Autovacuum's default thresholds: a table is analyzed when more than this share of its rows
 * (plus `MIN_CHANGES`) changed since, and vacuumed when as many were inserted or more than this
 * share (plus `MIN_DEAD`) are dead.
 */
const CHANGED_SHARE = 0.2;
const MIN_CHANGES = 1000;
const MIN_DEAD = 50;
/** Autovacuum's default `autovacuum_vacuum_cost_delay`: a vacuum pauses this long per 200 units of work. */
const VACUUM_COST_DELAY_MS = 2;

export class TableStatistics {
  readonly #db: PostgresDatabase;
  #checkedAt = Number.NEGATIVE_INFINITY;
  #running: Promise<void> | null = null;
  /** The server process of the connection at work, while it works; cancelled by `close`. */
  #workingPid: number | null = null;
  #closing = false;

  constructor(db: PostgresDatabase) {
    this.#db = db;
  }

  /** Called on every read; returns at once, and starts a look when one is due. */
  freshen(): void {
    const now = Date.now();
    if (this.#closing || this.#running || now - this.#checkedAt < CHECK_EVERY_MS) return;
    this.#checkedAt = now;
    this.#running = this.#tendStale()
      .catch(() => undefined) // an optimisation: a failure waits for the next look
      .finally(() => {
        this.#running = null;
      });
  }

  /**
   * Lets a look in progress finish, for a few seconds: a vacuum of a large table can take minutes,
   * so after `CLOSE_GRACE_MS` the statement at work is cancelled (what it did stays done).
   */
  async close(): Promise<void> {
    const running = this.#running;
    if (!running) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>(
      (resolve) => (timer = setTimeout(() => resolve('late'), CLOSE_GRACE_MS)),
    );
    const ended = await Promise.race([running, late]);
    clearTimeout(timer);
    if (ended !== 'late') return;
    this.#closing = true;
    const pid = this.#workingPid;
    if (pid !== null) await this.#db.pool.query('SELECT pg_cancel_backend($1)', [pid]).catch(() => undefined);
    await running;
  }

  /**
   * Analyzes and vacuums the tables due, unless another process is at it; the smallest first, so
   * the derived tables reads go through are done in moments, not after the documents (which hold
   * every chunk of every transcript: the largest table by far).
   */
  async #tendStale(): Promise<void> {
    const client = await this.#db.pool.connect();
    try {
      const { rows } = await client.query<{ name: string; analyze: boolean; vacuum: boolean }>(
        `SELECT * FROM (
          SELECT c.relname AS name, pg_table_size(c.oid) AS size,
            t.n_mod_since_analyze > $1::float8 * greatest(c.reltuples, 0) + $2::int AS "analyze",
            (t.n_ins_since_vacuum > $1::float8 * greatest(c.reltuples, 0) + $2::int
              OR t.n_dead_tup > $1::float8 * greatest(c.reltuples, 0) + $3::int)
            AND (current_setting('autovacuum') = 'off' OR EXISTS (SELECT 1 FROM unnest(c.reloptions) AS o
              WHERE o ~* '^autovacuum_enabled=(false|off|no|0)$')) AS "vacuum"
          FROM pg_stat_user_tables t JOIN pg_class c ON c.oid = t.relid
          WHERE t.schemaname = current_schema()) AS due
        WHERE "analyze" OR "vacuum"
        ORDER BY size, name`,
        [CHANGED_SHARE, MIN_CHANGES, MIN_DEAD],
      );
      if (rows.length === 0) return;
      const locked = await client.query<{ got: boolean }>(
        'SELECT pg_try_advisory_lock($1, hashtext(current_schema())) AS got',
        [LOCK.analyze],
      );
      if (!locked.rows[0]?.got) return;
      try {
        // As gentle on the server as autovacuum itself would be (its default cost delay); reset
        // before the connection goes back to the pool.
        await client.query(`SET vacuum_cost_delay = '${VACUUM_COST_DELAY_MS}ms'`);
        const { rows: me } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        this.#workingPid = me[0]!.pid;
        for (const { name, analyze, vacuum } of rows) {
          if (this.#closing) break;
          const table = client.escapeIdentifier(name);
          await client.query(
            vacuum ? `VACUUM (SKIP_LOCKED${analyze ? ', ANALYZE' : ''}) ${table}` : `ANALYZE ${table}`,
          );
        }
      } finally {
        this.#workingPid = null;
        await client.query('RESET vacuum_cost_delay');
        await client.query('SELECT pg_advisory_unlock($1, hashtext(current_schema()))', [LOCK.analyze]);
      }
    } finally {
      client.release();
    }
  }
}
