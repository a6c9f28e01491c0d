/**
 * What PostgreSQL's statistics say of the search table — its rows and the share of them holding
 * each common lexeme — so an unfiltered search can tell a word with far more matches than its
 * ranking window before it looks (see full-text-view.ts). Read at most once a minute per process.
 * Statistics come from ANALYZE: autovacuum's.
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
 * What each way costs, in microseconds, fitted to warm timings of words in 2 % to 50 % of the
 * entries over 200 MB and 1 GB of bench history (43,000 and 222,000 entries).
 */
const COST_US = {
  /** Collecting: a match's bitmap heap visit, its rank and its place in the sort. */
  collectedMatch: 1.2,
  /** Walking: an entry visited on the way down `seq`, matching or not. */
  walkedEntry: 0.52,
  /** Walking: what a match adds, per match in the window. */
  walkedMatch: 0.27,
  /** The range: a match within it (a bitmap heap visit, its rank), per match in the window. */
  rangeMatch: 2.3,
  /** The range: an entry of the word's posting list, read whole into the bitmap. */
  postingEntry: 0.03,
};

/** How far the range reaches beyond the entries expected to hold the window: a margin for chance. */
export const RANGE_MARGIN = 1.25;

/**
 * How an unfiltered search finds the matches it ranks (full-text-view.ts), from the matches the
 * statistics expect among `rows` entries:
 * - `collect`: every match through the GIN index, up to `cap`. It visits each match once: the
 *   cheapest for a word with few matches. Past `cap` the statistics were wrong (stale, or words
 *   that go together), and the walk follows.
 * - `walk`: down `seq` from the newest entry until the window holds `window` + 1 matches. It
 *   visits about `window × rows / expected` entries, matching or not: the cheapest for a word in
 *   a large share of the entries, the whole table for one in too few.
 * - `range`: the word's GIN bitmap ANDed with a `seq` range over the newest `entries` entries,
 *   which should hold the window with a margin. It visits only the matches in that range, at
 *   about twice what collecting one costs, and reads the word's whole posting list: the
 *   cheapest in between (a word in 12 % of 1 GB of history: 13 ms, walked 22 ms, collected
 *   49 ms). Too few matches in the range, and the walk follows.
 */
export type SearchPlan =
  { way: 'walk' } | { way: 'collect'; cap: number } | { way: 'range'; entries: number };

export function planSearch(expected: number, window: number, rows: number): SearchPlan {
  const collect = { way: 'collect', cap: 2 * Math.ceil(Math.max(window, expected)) } as const;
  // Nothing expected, or no more than the window: every match is ranked anyway.
  if (expected <= window) return collect;
  const collecting = COST_US.collectedMatch * expected;
  const walking = window * (COST_US.walkedEntry * (rows / expected) + COST_US.walkedMatch);
  const ranging = window * COST_US.rangeMatch + COST_US.postingEntry * expected;
  if (collecting <= walking && collecting <= ranging) return collect;
  if (walking <= ranging) return { way: 'walk' };
  return { way: 'range', entries: Math.ceil((RANGE_MARGIN * (window + 1) * rows) / expected) };
}

/** The lexeme a search term is indexed as, when it is one plain word (ASCII letters and digits). */
export function plainLexeme(token: string, prefix: boolean): string | null {
  const word = token.trim();
  return !prefix && /^[A-Za-z0-9]+$/.test(word) ? word.toLowerCase() : null;
}

export class SearchTableStats {
  readonly #retryMs: number;
  readonly #now: () => number;
  #reading: { at: number; stats: Promise<TermStats | null>; none: boolean } | null = null;

  /**
   * `retryMs`: how soon a reading that found no statistics is taken again. A table is first
   * analyzed (by autovacuum) soon after a large import, which is when people start searching: a
   * minute without statistics had the words in half the entries looked for both ways, at twice
   * the time. `now` is the clock (tests pass
   * their own).
   */
  constructor(retryMs = NO_STATS_RETRY_MS, now: () => number = Date.now) {
    this.#retryMs = retryMs;
    this.#now = now;
  }

  /** The latest reading, at most a minute old; null while the table has never been analyzed. */
  get(db: PostgresDatabase): Promise<TermStats | null> {
    const now = this.#now();
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

/** Searches whose cutoff is remembered, at most (the least recently used go first). */
const CUTOFFS_KEPT = 512;

/**
 * Where each recent ranged search's window ended: the `seq` of the newest match left out of it.
 * The range the statistics give is a guess with a margin (a word in an eighth of 1 GB of history:
 * 6,300 matches visited for a window of 5,000); the same search again (the next page, the same
 * word later) starts its range at the cutoff, which holds the window and one more match as long
 * as none of them was deleted since, and visits only those and the newer ones. A cutoff is only
 * a hint: a range that turns out to hold too few is walked, and its cutoff forgotten.
 */
export class SearchCutoffs {
  readonly #seqs = new Map<string, number>();

  get(key: string): number | undefined {
    const seq = this.#seqs.get(key);
    if (seq !== undefined) {
      this.#seqs.delete(key); // most recently used last
      this.#seqs.set(key, seq);
    }
    return seq;
  }

  set(key: string, seq: number | null): void {
    this.#seqs.delete(key);
    if (seq === null) return;
    this.#seqs.set(key, seq);
    if (this.#seqs.size > CUTOFFS_KEPT) this.#seqs.delete(this.#seqs.keys().next().value!);
  }
}
