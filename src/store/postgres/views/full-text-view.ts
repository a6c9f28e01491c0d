/**
 * `full_text`: PostgreSQL full-text search over entry text. `full_text_entries` holds one row per
 * entry with searchable text (capped, see views-common/entry-search-text.ts) and its tsvector
 * (`to_tsvector` of its token text, as search-query.ts says), indexed with GIN together with its
 * word pairs, made from that tsvector, which spare a phrase of common words most of its
 * candidates (phrase-pairs.ts). Rows are keyed (session, file, index) like the embedded engine's,
 * so a replaced chunk's rows are found by range and overlapping chunks resolve the same way (the
 * later write wins). Ranking is `ts_rank`; FTS5 ranks by bm25, so the order of hits may differ between
 * engines, their set does not.
 *
 * GIN's pending list (fast update) is left to the server: merged when it reaches the server's
 * `gin_pending_list_limit`, and by autovacuum.
 */
import type { Page, SearchHit, SearchQuery, SearchResult, ViewReshape } from '../../contract.js';
import { chunkFields } from '../../views-common/chunk-fields.js';
import { SEARCH_STALE } from '../../contract.js';
import { entrySearchText } from '../../views-common/entry-search-text.js';
import { olderFormStale } from '../../views-common/search-stale.js';
import { splitSnippet, type SearchTerm } from '../../views-common/search-terms.js';
import { rankWindow } from '../../views-common/rank-window.js';
import { hasCjk, tokenText } from '../../views-common/search-tokens.js';
import { textSnippet } from '../../views-common/text-snippet.js';
import { writeColumns } from '../binary-columns.js';
import { readQuery, type PostgresDatabase, type Queryable } from '../postgres-database.js';
import {
  columns,
  forEachDoc,
  pgText,
  applyRuns,
  entryKey,
  type PostgresView,
  type PreviousDoc,
  type ViewBatch,
  type WrittenDoc,
} from './postgres-view.js';
import { termParams, TS_CONFIG, tsQueryCte } from './search-query.js';
import {
  expectedMatches,
  plainLexeme,
  planSearch,
  SearchCutoffs,
  SearchTableStats,
} from './search-table-stats.js';
import { pairsSql, termPairs, UNPAIRED } from './phrase-pairs.js';
import type { FilterSql } from './session-filter-sql.js';

/**
 * Every search reads the tsvector of every candidate row (to rank it, and to check a phrase), so
 * it stays in the row: compressed when the row is large, never moved to the TOAST table, where
 * each read costs an index lookup. The entry text, read only for the page of hits, goes out first.
 * (1 GB of history: a rare word 33 → 23 ms, a phrase 131 → 59 ms.)
 *
 * Kept uncompressed (pglz, which gives up below a quarter saved, rather than the store's lz4,
 * which saves about 3 % of a tsvector), a rank skips decompressing it (a common word walked 9.2 →
 * 7.9 ms, 200 MB of history), but each write of a large row tries pglz on it and fails slowly:
 * ingest took 8–16 % longer. Not worth it.
 */
const TSV_STORAGE_DDL = 'ALTER TABLE full_text_entries ALTER COLUMN tsv SET STORAGE MAIN';

/**
 * The columns a search reads for each match come first, in the order it reads them, and the text
 * (read for the page of hits only) last: a row is read from its start, and each column passed
 * costs a look at memory the search does not otherwise need (a word in an eighth of the entries,
 * 200 MB of history: about 1 ms of 13). A table made before keeps its order until
 * `transcripts reindex` makes it anew.
 */
const TABLE_DDL = `
CREATE TABLE IF NOT EXISTS full_text_entries (
  -- Insertion order: an unfiltered search ranks the most recent matches (see #searchEverything).
  seq bigint GENERATED ALWAYS AS IDENTITY,
  idx int NOT NULL,
  session_id text COLLATE "C" NOT NULL,
  file text COLLATE "C" NOT NULL,
  tsv tsvector NOT NULL,
  -- Adjacent lexemes with a common word, for phrases (phrase-pairs.ts).
  pairs tsvector NOT NULL DEFAULT '${UNPAIRED}',
  role text NOT NULL,
  timestamp text,
  text text NOT NULL,
  PRIMARY KEY (session_id, file, idx)
);
${TSV_STORAGE_DDL};
`;
/**
 * What the tsvectors hold: since form 2 a CJK character is a token of its own (search-tokens.ts);
 * since form 3 tool inputs are indexed as their keys and values, since form 4 without terminal
 * escape sequences (entry-search-text.ts). The table's comment says which form it is in (a table
 * made before has none): a marker that is not a table, so every table stays keyed by session for
 * Citus.
 */
const FORMAT_COMMENT = 'transcripts full-text form 4: no terminal escape codes';
/** Forms 2 and 3: CJK characters were tokens of their own already. */
const CJK_SPACED_COMMENTS = [
  'transcripts full-text form 2: CJK characters are tokens of their own',
  'transcripts full-text form 3: tool inputs as keys and values',
];
const FORMAT_DDL = `COMMENT ON TABLE full_text_entries IS '${FORMAT_COMMENT}'`;
/**
 * Text that may hold a CJK character, by code point ranges (a superset of search-tokens.ts's
 * scripts, which PostgreSQL's regular expressions cannot name); `hasCjk` decides.
 */
const MAYBE_CJK =
  '[\\u1100-\\u11ff\\u2e80-\\u9fff\\ua960-\\ua97f\\uac00-\\ud7ff\\uf900-\\ufaff\\uff66-\\uffdc\\U00020000-\\U000323af]';

/**
 * One GIN index over both columns: a phrase's words and pairs are looked up in one scan. GIN keeps
 * no term frequencies, so ranking reads each match's tsvector. RUM keeps them, but writing 43,000
 * rows in batches of 500 took 34 s with a RUM index against 3.5 s with this one (no pending list),
 * more than ingest can give; and it is an extension not every PostgreSQL offers.
 */
const TSV_INDEX_DDL =
  'CREATE INDEX IF NOT EXISTS full_text_entries_tsv ON full_text_entries USING gin (tsv, pairs)';
const SEQ_INDEX_DDL = 'CREATE INDEX IF NOT EXISTS full_text_entries_seq ON full_text_entries (seq)';
const INDEX_DDL = `
${TSV_INDEX_DDL};
${SEQ_INDEX_DDL};
`;

/** The tsquery as a scalar subquery: computed once, and usable as a GIN index condition. */
const MATCH = '(SELECT q FROM query)';
/** What each match carries into `pageOfMatches`, besides its rank. */
const MATCH_COLUMNS = 'e.session_id, e.file, e.idx, e.seq';

const SQL = {
  removeRanges: `DELETE FROM full_text_entries t
    USING unnest($1::text[], $2::text[], $3::int[], $4::int[]) AS r(session_id, file, lo, hi)
    WHERE t.session_id = r.session_id AND t.file = r.file AND t.idx >= r.lo AND t.idx < r.hi`,
  /**
   * The tsvector (a function in FROM: made once per row, read twice) and the pairs made of it.
   * Both were once made in JS and sent as binary tsvectors, with a parser of our own that ingest
   * time did not pay for (paired ingests: 114.8 vs 102.9 s, 50.7 vs 61.7 s). The pairs cost the
   * server CPU (bench history of 200 MB: 12.5–14.4 s an ingest, against 5.8–6.3 s with both made
   * in JS; of 50 MB: 3.2–3.5 s, 2.1 s making no pairs, 1.6–1.8 s in JS), spent beside the ingest
   * process, which took as long (200 MB: 26.1–27.7 s against 24.6–27.0 s and one 44.8 s; 50 MB,
   * four pairs of runs: 4.5–8.0 s against 5.2–7.7 s; 2 cores shared with other work).
   */
  upsert: (
    from: string,
  ) => `INSERT INTO full_text_entries (session_id, file, idx, role, timestamp, text, tsv, pairs)
    SELECT s, f, i, r, ts, t, v, ${pairsSql('v')}
    FROM ${from} AS u(s, f, i, r, ts, t, k), to_tsvector('${TS_CONFIG}', k) AS v
    ON CONFLICT (session_id, file, idx) DO UPDATE SET role = excluded.role,
      timestamp = excluded.timestamp, text = excluded.text, tsv = excluded.tsv, pairs = excluded.pairs`,
};

type Op =
  | { kind: 'remove'; sessionId: string; file: string; lo: number; hi: number }
  | {
      kind: 'upsert';
      sessionId: string;
      file: string;
      idx: number;
      role: string;
      timestamp: string | null;
      text: string;
    };

export class FullTextView implements PostgresView {
  readonly name = 'full_text' as const;
  readonly #stats = new SearchTableStats();
  readonly #cutoffs = new SearchCutoffs();
  readonly follows = ['chunk'];
  readonly needsChunkRange = true;

  async create(q: Queryable): Promise<void> {
    await q.query(TABLE_DDL);
    await q.query(FORMAT_DDL);
  }

  async drop(q: Queryable): Promise<void> {
    await q.query('DROP TABLE IF EXISTS full_text_entries');
  }

  /**
   * Fills the new table from the chunk documents, then builds its GIN index: built in one pass
   * from sorted entries rather than kept up to date row by row, the index costs a fraction of the
   * time (1 GB of history: reindex 44.8 s → 33–35 s). Runs in the caller's transaction with
   * `create`, so no search ever sees the table without its index.
   */
  async build(q: Queryable): Promise<void> {
    await forEachDoc(q, 'chunk', async (rows) => {
      const batch = new Batch(q);
      for (const row of rows) batch.add(row.session_id, JSON.parse(row.body) as Record<string, unknown>);
      await batch.flush();
    });
    await q.query(INDEX_DDL);
  }

  batch(q: Queryable): ViewBatch {
    return new Batch(q);
  }

  /** Rebuilds the index from the chunk documents; the table is recreated, not emptied row by row. */
  async reindex(q: Queryable): Promise<{ entries: number; sessions: number }> {
    await this.drop(q);
    await this.create(q);
    await this.build(q);
    const { rows } = await q.query<{ entries: string; sessions: string }>(
      'SELECT count(*) AS entries, count(DISTINCT session_id) AS sessions FROM full_text_entries',
    );
    return { entries: Number(rows[0]!.entries), sessions: Number(rows[0]!.sessions) };
  }

  /**
   * `full_text_form`: up brings a table made by an older version to this one's shape; down leaves
   * it as it is (older versions read this shape, and their reindex makes theirs again). `seq` (insertion order, which
   * the ranking window of an unfiltered search walks) came later, and so did the tsvector's
   * storage and the word pairs. Adding `seq` rewrites the table once; the storage applies to rows
   * written from now on. Older rows get `UNPAIRED` (found as before, not faster) and the index is
   * rebuilt over both columns. `transcripts reindex` rewrites the rest (and the columns' order).
   * A pending-list limit set by an earlier version is reset to the server's. The caller holds the
   * views lock exclusively.
   */
  async reshape(q: Queryable, _reshape: ViewReshape, direction: 'up' | 'down'): Promise<void> {
    if (direction === 'down') return;
    const { rows } = await q.query<{ attname: string; attstorage: string }>(
      `SELECT attname, attstorage FROM pg_attribute
       WHERE attrelid = 'full_text_entries'::regclass AND attname IN ('seq', 'tsv', 'pairs') AND NOT attisdropped`,
    );
    const storage = new Map(rows.map((r) => [r.attname, r.attstorage]));
    if (!storage.has('seq')) {
      await q.query('ALTER TABLE full_text_entries ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY');
      await q.query(SEQ_INDEX_DDL);
    }
    if (storage.get('tsv') !== 'm') await q.query(TSV_STORAGE_DDL);
    if (!storage.has('pairs')) {
      // A constant default: existing rows are not rewritten.
      await q.query(`ALTER TABLE full_text_entries ADD COLUMN pairs tsvector NOT NULL DEFAULT '${UNPAIRED}'`);
      await q.query('DROP INDEX IF EXISTS full_text_entries_tsv');
      await q.query(TSV_INDEX_DDL);
    }
    await this.#upgradeForm(q);
    const index = await q.query<{ options: string[] | null }>(
      "SELECT reloptions AS options FROM pg_class WHERE oid = 'full_text_entries_tsv'::regclass",
    );
    if (index.rows[0]?.options?.some((o) => o.startsWith('gin_pending_list_limit='))) {
      await q.query('ALTER INDEX full_text_entries_tsv RESET (gin_pending_list_limit)');
    }
  }

  /**
   * Form 1 tokenized a CJK run as one word: those rows get their tsvector again, so CJK words
   * inside a run are found in history written before too. Forms 1 and 2 indexed tool inputs as
   * JSON, and forms before 4 terminal escape codes with the words: remaking those rows means
   * reading every chunk, so search is marked stale instead, and `transcripts reindex` rebuilds it.
   */
  async #upgradeForm(q: Queryable): Promise<void> {
    const { rows } = await q.query<{ comment: string | null }>(
      "SELECT obj_description('full_text_entries'::regclass, 'pg_class') AS comment",
    );
    const comment = rows[0]?.comment;
    if (comment === FORMAT_COMMENT) return;
    if (!CJK_SPACED_COMMENTS.includes(comment ?? '')) await this.#retokenizeCjk(q);
    const any = await q.query('SELECT 1 FROM full_text_entries LIMIT 1');
    if (any.rows.length > 0) {
      await q.query(
        `INSERT INTO local_docs (id, value) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET value = excluded.value`,
        [SEARCH_STALE, JSON.stringify(olderFormStale(new Date().toISOString()))],
      );
    }
    await q.query(FORMAT_DDL);
  }

  /** Form 1 → 2: the rows holding CJK text get their tsvector again. */
  async #retokenizeCjk(q: Queryable): Promise<void> {
    let after: [string, string, number] = ['', '', -1];
    for (;;) {
      const page = await q.query<{ session_id: string; file: string; idx: number; text: string }>(
        `SELECT session_id, file, idx, text FROM full_text_entries
         WHERE (session_id, file, idx) > ($1, $2, $3) AND text ~ $4
         ORDER BY session_id, file, idx LIMIT 500`,
        [...after, MAYBE_CJK],
      );
      const cjk = page.rows.filter((r) => hasCjk(r.text));
      if (cjk.length > 0) {
        await q.query(
          `UPDATE full_text_entries t SET tsv = to_tsvector('${TS_CONFIG}', u.k)
           FROM unnest($1::text[], $2::text[], $3::int[], $4::text[]) AS u(s, f, i, k)
           WHERE t.session_id = u.s AND t.file = u.f AND t.idx = u.i`,
          [
            cjk.map((r) => r.session_id),
            cjk.map((r) => r.file),
            cjk.map((r) => r.idx),
            cjk.map((r) => tokenText(r.text)),
          ],
        );
      }
      if (page.rows.length < 500) break;
      const last = page.rows[page.rows.length - 1]!;
      after = [last.session_id, last.file, last.idx];
    }
  }

  /** Hits ranked best first; `filter` comes from `sessionFilterSql(…, 'e.session_id')`. */
  async search(db: PostgresDatabase, query: SearchQuery, filter: FilterSql): Promise<SearchResult> {
    const terms = termParams(query.q);
    if (terms === null) return { total: 0, totalExact: true, hits: [] };
    const pairs = await termPairs(db.pool, terms.terms, terms.prefixes);
    if (filter.where.length === 0) return this.#searchEverything(db, query, terms, pairs);
    const n = filter.params.length;
    const from = `FROM full_text_entries e
      ${filter.needsRollup ? 'JOIN session_rollup r ON r.session_id = e.session_id' : ''}
      WHERE ${matchSql(pairs, n + 3)} ${filter.where.map((w) => `AND ${w}`).join(' ')}`;
    // The rank is computed below an optimisation fence (OFFSET 0), so the window that counts
    // sees narrow rows rather than every match's tsvector, which spilled to disk past work_mem
    // (a rare word: 10 ms → 6 ms).
    const found = await pageOfMatches(
      db.pool,
      `SELECT ${MATCH_COLUMNS}, ts_rank(e.tsv, ${MATCH}) AS rank ${from} OFFSET 0`,
      [...filter.params, terms.terms, terms.prefixes, ...(pairs === null ? [] : [pairs])],
      n + 1,
      query,
    );
    return { total: found.total, totalExact: true, hits: toHits(found.page, terms.searchTerms) };
  }

  /**
   * An unfiltered search, kept cheap for words found in a large share of the history: when there
   * are more matches than `rankWindow`, counting them all would visit every matching row (a word
   * in half the entries: ~150 ms), so the total stays a lower bound and relevance is ranked over
   * the most recently indexed matches — the window the embedded engine ranks too. They are found
   * one of three ways, chosen on what the table statistics expect (`planSearch`): collecting
   * every match through the GIN index and keeping the most recent, walking `seq` backwards, or
   * the GIN bitmap over a range of recent `seq`. Every way gives the same answer.
   */
  async #searchEverything(
    db: PostgresDatabase,
    query: SearchQuery,
    terms: NonNullable<ReturnType<typeof termParams>>,
    pairs: string | null,
  ): Promise<SearchResult> {
    const window = rankWindow(query.offset, query.limit);
    const params = [terms.terms, terms.prefixes, window, ...(pairs === null ? [] : [pairs])];
    const lexemes = terms.searchTerms.map((t, i) => plainLexeme(terms.terms[i]!, t.prefix));
    const stats = await this.#stats.get(db);
    const rows = stats?.rows ?? 0;
    const plan = planSearch(expectedMatches(lexemes, stats), window, rows);
    const match = matchSql(pairs, 4);
    let found: Matches | null = null;
    if (plan.way === 'collect') found = await this.#collectMatches(db, match, params, query, plan.cap);
    if (plan.way === 'range') {
      found = await this.#rangeMatches(db, match, params, query, window, plan.entries, rows);
    }
    found ??= await this.#recentMatches(db, match, params, query);
    const exact = found.total <= window;
    return {
      total: exact ? found.total : window,
      totalExact: exact,
      hits: toHits(found.page, terms.searchTerms),
    };
  }

  /**
   * Every match through the GIN index, ranked over the window's most recent, and paged; null when
   * there are more than `cap` (the walk is then cheaper).
   */
  async #collectMatches(
    db: PostgresDatabase,
    match: string,
    params: unknown[],
    page: Page,
    cap: number,
  ): Promise<Matches | null> {
    const found = await pageOfMatches(
      db.pool,
      `SELECT ${MATCH_COLUMNS}, ts_rank(e.tsv, ${MATCH}) AS rank
      FROM full_text_entries e WHERE ${match} LIMIT $${params.length + 1}::int + 1`,
      [...params, cap],
      1,
      page,
      3,
    );
    return found.total > cap ? null : found;
  }

  /**
   * The matches among the newest `entries` entries, ranked over the window's most recent and
   * paged: the word's GIN bitmap ANDed with a bitmap of that `seq` range, so only matches in the
   * range are visited. Null when the range holds no more than the window (older matches may
   * belong in it: the walk follows). `seq` has gaps where rows were replaced, so the range is
   * widened by the table's gaps per entry, from the statistics' row count `rows`. The same search
   * made before in this process starts the range at its cutoff instead (SearchCutoffs).
   */
  async #rangeMatches(
    db: PostgresDatabase,
    match: string,
    params: unknown[],
    page: Page,
    window: number,
    entries: number,
    rows: number,
  ): Promise<Matches | null> {
    const key = JSON.stringify([match, params]);
    const cutoff = this.#cutoffs.get(key);
    // The bounds are read before index scans are turned off (min and max need them). Bitmaps
    // only (an index scan down `seq` would be the walk), planned with the range's bound known:
    // a generic plan guesses at the range and may visit every match instead.
    const opening = [
      ...(cutoff === undefined ? ['SELECT min(seq) AS first, max(seq) AS last FROM full_text_entries'] : []),
      'SET LOCAL enable_indexscan = off',
      'SET LOCAL enable_seqscan = off',
      'SET LOCAL plan_cache_mode = force_custom_plan',
    ];
    const found = await db.transaction(async (client, [bounds]) => {
      let from: number;
      if (cutoff !== undefined) from = cutoff - 1;
      else {
        const { first, last } = bounds!.rows[0] as { first: string | null; last: string | null };
        if (first === null || last === null) return null;
        const seqsPerEntry = Math.max(1, (Number(last) - Number(first) + 1) / Math.max(rows, 1));
        from = Number(last) - Math.ceil(entries * seqsPerEntry);
      }
      return pageOfMatches(
        client,
        `SELECT ${MATCH_COLUMNS}, ts_rank(e.tsv, ${MATCH}) AS rank
        FROM full_text_entries e WHERE ${match} AND e.seq > $${params.length + 1}::bigint`,
        [...params, from],
        1,
        page,
        3,
      );
    }, opening);
    const enough = found !== null && found.total > window;
    this.#cutoffs.set(key, enough ? found.cutoff : null);
    return enough ? found : null;
  }

  /** The `window` most recently indexed matches (and whether there is one more), ranked and paged. */
  async #recentMatches(db: PostgresDatabase, match: string, params: unknown[], page: Page): Promise<Matches> {
    // The walk down `seq` must not be planned as a GIN bitmap (which would visit every match to
    // sort them by `seq`); without statistics the planner would choose just that.
    const opening = ['SET LOCAL enable_bitmapscan = off', 'SET LOCAL enable_seqscan = off'];
    return db.transaction(
      (client) =>
        pageOfMatches(
          client,
          `SELECT ${MATCH_COLUMNS}, ts_rank(e.tsv, ${MATCH}) AS rank
        FROM full_text_entries e WHERE ${match} ORDER BY e.seq DESC LIMIT $3::int + 1`,
          params,
          1,
          page,
          3,
        ),
      opening,
    );
  }
}

/** The condition a matching row meets: its tsvector, and its pairs (parameter `pairsAt`) if any. */
function matchSql(pairs: string | null, pairsAt: number): string {
  const words = `e.tsv @@ ${MATCH}`;
  return pairs === null ? words : `${words} AND e.pairs @@ $${pairsAt}::tsquery`;
}

interface Matches {
  /** Matches found (a walk stops at the window plus one). */
  total: number;
  page: HitRow[];
  /** The `seq` of the newest match left out of the window; null when none was (or no page). */
  cutoff: number | null;
}

/**
 * Ranks `matches` (MATCH_COLUMNS and rank) and returns one page of them, with the entries' text;
 * the total rides along each row. `params` are those of `matches`, the query's terms and
 * prefixes at `termsAt` and the one after. With `windowAt` (the parameter holding the window),
 * only the window's most recent matches are ranked; the older ones count, but are not ranked.
 *
 * The matches carry the page's sort key (rank, session, file, index) and `seq`, so a bounded
 * top-N sort picks the page and only its rows are looked up for their text. Ranks tie often
 * (every entry holding a word once ranks alike), so picking the page by rank alone WITH TIES
 * meant a full sort and a lookup of every tie: 83 rows for a page of 20 on the bench's rare
 * word, 4–5 ms of a 13 ms search. One pass over the matches counts them, and a bounded sort by
 * `seq` finds the newest match left out of the window (the cutoff, returned too); no window
 * function (a common word: 10 → 7.7 ms).
 * The lookup joins on session as well as `seq`, so it stays local to a shard on Citus.
 */
async function pageOfMatches(
  q: Queryable,
  matches: string,
  params: unknown[],
  termsAt: number,
  page: Page,
  windowAt?: number,
): Promise<Matches> {
  const cte = tsQueryCte(`$${termsAt}`, `$${termsAt + 1}`);
  const limit = `$${params.length + 1}::int`;
  const offset = `$${params.length + 2}::int`;
  // The sort by `seq` runs only when there are more matches than the window (a subquery is
  // evaluated when first needed): a rare word, collected whole, skips it (4,800 matches: 0.8 ms).
  let [cut, ranked, cutoff] = ['', '', 'NULL::bigint'];
  if (windowAt !== undefined) {
    const over = `(SELECT n FROM s) > $${windowAt}::int`;
    // The newest match left out is the (n - window)th oldest: a sort bounded by how many matches
    // the window leaves out (one, from a cutoff), not by the window.
    cut = `, cut AS (SELECT m.seq FROM m ORDER BY m.seq
      OFFSET (SELECT n FROM s) - $${windowAt}::int - 1 LIMIT 1)`;
    ranked = ` WHERE NOT ${over} OR m.seq > (SELECT seq FROM cut)`;
    cutoff = `CASE WHEN ${over} THEN (SELECT seq FROM cut) END`;
  }
  const { rows } = await readQuery<HitRow & { total: string; cutoff: string | null }>(
    q,
    `WITH ${cte}, m AS MATERIALIZED (${matches}),
    s AS (SELECT count(*) AS n FROM m)${cut},
    top AS (SELECT m.session_id, m.file, m.idx, m.seq, m.rank FROM m${ranked}
      ORDER BY m.rank DESC, m.session_id, m.file, m.idx LIMIT ${limit} OFFSET ${offset})
    SELECT top.session_id, top.file, top.idx, top.rank, (SELECT n FROM s) AS total,
      ${cutoff} AS cutoff, e.role, e.timestamp, e.text
    FROM top JOIN full_text_entries e ON e.session_id = top.session_id AND e.seq = top.seq
    ORDER BY top.rank DESC, top.session_id, top.file, top.idx`,
    [...params, page.limit, page.offset],
  );
  if (rows.length > 0) {
    const first = rows[0]!;
    return {
      total: Number(first.total),
      page: rows,
      cutoff: first.cutoff === null ? null : Number(first.cutoff),
    };
  }
  // An empty page (limit 0, offset past the end, no match) says nothing of the total. The window
  // is named even where only the page used it: every parameter must have a type.
  const window = windowAt === undefined ? '' : `, $${windowAt}::int AS window`;
  const count = await readQuery<{ n: string }>(
    q,
    `WITH ${cte} SELECT count(*) AS n${window} FROM (${matches}) m`,
    params,
  );
  return { total: Number(count.rows[0]!.n), page: [], cutoff: null };
}

interface HitRow {
  session_id: string;
  file: string;
  idx: number;
  role: string;
  timestamp: string | null;
  text: string;
  rank: number;
}

/** Snippets are cut in JS (views-common/text-snippet.ts) from the page's texts. */
function toHits(rows: HitRow[], searchTerms: SearchTerm[]): SearchHit[] {
  return rows.map((r) => ({
    kind: 'entry' as const,
    sessionId: r.session_id,
    file: r.file,
    index: r.idx,
    role: r.role,
    timestamp: r.timestamp,
    snippet: splitSnippet(textSnippet(r.text, searchTerms)),
    rank: r.rank,
  }));
}

class Batch implements ViewBatch {
  readonly #q: Queryable;
  readonly #ops: Op[] = [];

  constructor(q: Queryable) {
    this.#q = q;
  }

  removing(prev: PreviousDoc): void {
    const range = prev.chunkRange;
    if (!range) return;
    this.#ops.push({
      kind: 'remove',
      sessionId: prev.sessionId,
      file: pgText(range.file),
      lo: range.firstIndex,
      hi: range.firstIndex + range.entryCount,
    });
  }

  added(w: WrittenDoc): void {
    this.add(w.sessionId, w.doc);
  }

  add(sessionId: string, doc: Record<string, unknown>): void {
    const chunk = chunkFields(doc);
    if (!chunk) return;
    for (const entry of chunk.entries) {
      const text = entrySearchText(entry);
      if (text.trim() === '') continue;
      this.#ops.push({
        kind: 'upsert',
        sessionId,
        file: pgText(chunk.file),
        idx: entry.index,
        role: pgText(typeof entry.role === 'string' ? entry.role : 'other'),
        timestamp: typeof entry.timestamp === 'string' ? pgText(entry.timestamp) : null,
        text: pgText(text),
      });
    }
  }

  async flush(): Promise<void> {
    if (this.#ops.length === 0) return;
    // Overlapping chunks index an entry twice: the later write wins, as in the embedded engine.
    await applyRuns(this.#ops, {
      remove: (ops) => this.#q.query(SQL.removeRanges, columns(ops, 'sessionId', 'file', 'lo', 'hi')),
      upsert: (ops) =>
        writeColumns(
          this.#q,
          ops.map((o) => [o.sessionId, o.file, o.idx, o.role, o.timestamp, o.text, tokenText(o.text)]),
          ['text', 'text', 'int', 'text', 'text', 'text', 'text'],
          SQL.upsert,
        ),
      key: entryKey,
    });
  }
}
