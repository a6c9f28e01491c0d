/**
 * What PostgreSQL's statistics say of the search table — its rows and the share of them holding
 * each common lexeme — so an unfiltered search can tell a word with far more matches than its
 * ranking window before it looks (see full-text-view.ts). Read at most once a minute per process.
 * Statistics come from ANALYZE (autovacuum's, or ../table-statistics.ts's when it lags).
 */
import type { PostgresDatabase } from '../postgres-database.js';

export interface TermStats {
  /** Rows in the search table when it was last analyzed. */
  rows: number;
  /** Share of rows holding each of the most common lexemes. */
  shares: Map<string, number>;
}

/** How long one reading is used. */
const MAX_AGE_MS = 60_000;
/** How long a reading that found no statistics is used. */
const NO_STATS_RETRY_MS = 5_000;

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

/**
 * What a row visited by the walk down `seq` costs, as a share of a match collected through the
 * GIN index (a bitmap heap visit, its rank, a place in the sort). Measured on 200 MB of history:
 * 0.55–0.65 µs against 1.5–2.7 µs. Near the break-even point the two ways cost about the same,
 * so a rough figure does.
 */
const WALKED_ROW_COST = 0.3;

/**
 * How an unfiltered search finds the matches it ranks (full-text-view.ts), from the matches the
 * statistics expect among `rows`:
 * - `walk`: down `seq` from the newest entry until the window holds `window` + 1 matches. It
 *   visits about `window × rows / expected` rows, matching or not: cheap for a word in a large
 *   share of the history, the whole table for one in too few.
 * - `collect`: every match through the GIN index, up to `cap`. It visits each match once. Past
 *   `cap` the statistics were wrong (stale, or words that go together), and the walk follows.
 * Deciding on the estimate rather than looking first spares a medium word both: a word in 12 % of
 * 200 MB of history took 12 ms to be found too common, then 26 ms to walk; collected, 15 ms.
 */
export type SearchPlan = { way: 'walk' } | { way: 'collect'; cap: number };

export function planSearch(expected: number, window: number, rows: number): SearchPlan {
  if (expected > window && expected * expected > WALKED_ROW_COST * window * rows) return { way: 'walk' };
  return { way: 'collect', cap: 2 * Math.ceil(Math.max(window, expected)) };
}

/** The lexeme a search term is indexed as, when it is one plain word (ASCII letters and digits). */
export function plainLexeme(token: string, prefix: boolean): string | null {
  const word = token.trim();
  return !prefix && /^[A-Za-z0-9]+$/.test(word) ? word.toLowerCase() : null;
}

export class SearchTableStats {
  readonly #retryMs: number;
  #reading: { at: number; stats: Promise<TermStats | null>; none: boolean } | null = null;

  /**
   * `retryMs`: how soon a reading that found no statistics is taken again. A table is first
   * analyzed just after a large import (../table-statistics.ts, in the background of the first
   * read), which is when people start searching: a minute without statistics had the words in
   * half the entries looked for both ways, at twice the time.
   */
  constructor(retryMs = NO_STATS_RETRY_MS) {
    this.#retryMs = retryMs;
  }

  /** The latest reading, at most a minute old; null while the table has never been analyzed. */
  get(db: PostgresDatabase): Promise<TermStats | null> {
    const now = Date.now();
    let reading = this.#reading;
    if (!reading || now - reading.at > (reading.none ? this.#retryMs : MAX_AGE_MS)) {
      const fresh = { at: now, stats: this.#read(db).catch(() => null), none: false };
      void fresh.stats.then((stats) => {
        fresh.none = stats === null;
      });
      this.#reading = reading = fresh;
    }
    return reading.stats;
  }

  async #read(db: PostgresDatabase): Promise<TermStats | null> {
    const { rows } = await db.pool.query<{ rows: number; elems: string[] | null; freqs: number[] | null }>(
      `SELECT c.reltuples AS rows, s.most_common_elems::text::text[] AS elems, s.most_common_elem_freqs AS freqs
      FROM pg_class c
      LEFT JOIN pg_stats s ON s.schemaname = current_schema() AND s.tablename = c.relname AND s.attname = 'tsv'
      WHERE c.oid = to_regclass('full_text_entries')`,
    );
    const row = rows[0];
    if (!row || row.elems === null || row.freqs === null || row.rows < 0) return null;
    const { elems, freqs } = row;
    const shares = new Map<string, number>();
    elems.forEach((lexeme, i) => shares.set(lexeme, freqs[i]!));
    return { rows: row.rows, shares };
  }
}
