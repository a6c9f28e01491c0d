/**
 * What PostgreSQL's statistics say of the search table — its rows and the share of them holding
 * each common lexeme — so an unfiltered search can tell a word with far more matches than its
 * ranking window before it looks (see full-text-view.ts). Read at most once a minute per process.
 *
 * Statistics come from ANALYZE, which autovacuum runs; on a server where it is off (or has not
 * caught up with a large import) they would never exist or never change, so when the table has
 * changed by a fifth since they were taken, one process analyzes it in the background.
 */
import { LOCK, type PostgresDatabase } from '../postgres-database.js';

export interface TermStats {
  /** Rows in the search table when it was last analyzed. */
  rows: number;
  /** Share of rows holding each of the most common lexemes. */
  shares: Map<string, number>;
}

/** How long one reading is used. */
const MAX_AGE_MS = 60_000;

/**
 * The least number of matches the statistics promise for terms that all must match, or 0 when
 * they promise nothing: a term that is not a single plain word (a phrase, a prefix) or not among
 * the common lexemes. Terms are assumed independent, which undercounts words that go together:
 * the safe side, since the caller only acts on a large estimate.
 */
export function expectedMatches(lexemes: Array<string | null>, stats: TermStats | null): number {
  if (!stats || lexemes.length === 0) return 0;
  let expected = stats.rows;
  for (const lexeme of lexemes) {
    const share = lexeme === null ? undefined : stats.shares.get(lexeme);
    if (share === undefined) return 0;
    expected *= share;
  }
  return expected;
}

/** The lexeme a search term is indexed as, when it is one plain word (ASCII letters and digits). */
export function plainLexeme(token: string, prefix: boolean): string | null {
  const word = token.trim();
  return !prefix && /^[A-Za-z0-9]+$/.test(word) ? word.toLowerCase() : null;
}

export class SearchTableStats {
  #reading: { at: number; stats: Promise<TermStats | null> } | null = null;
  #analyzing = false;

  /** The latest reading, at most a minute old; null while the table has never been analyzed. */
  get(db: PostgresDatabase): Promise<TermStats | null> {
    const now = Date.now();
    if (!this.#reading || now - this.#reading.at > MAX_AGE_MS) {
      const stats = this.#read(db).catch(() => null);
      this.#reading = { at: now, stats };
    }
    return this.#reading.stats;
  }

  async #read(db: PostgresDatabase): Promise<TermStats | null> {
    const { rows } = await db.pool.query<{
      rows: number;
      changed: string | null;
      analyzed: boolean;
      elems: string[] | null;
      freqs: number[] | null;
    }>(
      `SELECT c.reltuples AS rows, t.n_mod_since_analyze AS changed,
        coalesce(t.last_analyze, t.last_autoanalyze) IS NOT NULL AS analyzed,
        s.most_common_elems::text::text[] AS elems, s.most_common_elem_freqs AS freqs
      FROM pg_class c
      LEFT JOIN pg_stat_user_tables t ON t.relid = c.oid
      LEFT JOIN pg_stats s ON s.schemaname = current_schema() AND s.tablename = c.relname AND s.attname = 'tsv'
      WHERE c.oid = to_regclass('full_text_entries')`,
    );
    const row = rows[0];
    if (!row) return null;
    // Never analyzed, or changed by a fifth since (a table without common lexemes is not asked
    // again until then).
    if (!row.analyzed || Number(row.changed ?? 0) > 0.2 * Math.max(row.rows, 0) + 1000) this.#analyze(db);
    if (row.elems === null || row.freqs === null || row.rows < 0) return null;
    const shares = new Map<string, number>();
    row.elems!.forEach((lexeme, i) => shares.set(lexeme, row.freqs![i]!));
    return { rows: row.rows, shares };
  }

  /** One ANALYZE at a time across processes (the others skip it), in the background. */
  #analyze(db: PostgresDatabase): void {
    if (this.#analyzing) return;
    this.#analyzing = true;
    void (async () => {
      const client = await db.pool.connect();
      try {
        const { rows } = await client.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1, 0) AS got', [
          LOCK.analyze,
        ]);
        if (!rows[0]?.got) return;
        try {
          await client.query('ANALYZE full_text_entries');
        } finally {
          await client.query('SELECT pg_advisory_unlock($1, 0)', [LOCK.analyze]);
        }
        this.#reading = null; // read the new statistics on the next search
      } finally {
        client.release();
      }
    })()
      .catch(() => undefined)
      .finally(() => {
        this.#analyzing = false;
      });
  }
}
