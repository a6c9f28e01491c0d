/**
 * Word pairs: what lets a phrase of common words find its candidate rows without reading most of
 * the table. GIN indexes which lexemes a row holds, not where, so a phrase such as "read the
 * file" fetches every row holding all three words and checks their positions one by one (1 GB
 * of history: 10,024 rows fetched for 249 matches). Each row therefore also carries `pairs`:
 * every two adjacent lexemes of its tsvector of which one is a very common word (`read the`,
 * `the file`), without positions, in the same GIN index. A phrase asks for its pairs as well,
 * which leaves the rows worth checking (416 there).
 *
 * Both sides are made from the server's own tokens: a row's pairs from its tsvector (`pairsSql`),
 * a phrase's from `to_tsvector` of the term (`termPairs`), so a tokenizer of ours can never ask
 * for a pair the row lacks. Pairs only narrow the candidates; the tsvector's phrase check still
 * decides, so they must never leave out a row it would accept. Rows written before pairs were
 * made (and, by the versions that made them in JS, rows with text outside ASCII) hold
 * `UNPAIRED`, which every pair query also accepts. The query side is the cautious one: it asks
 * only for pairs of tokens it knows to be adjacent.
 */
import { readQuery, type Queryable } from '../postgres-database.js';
import { TS_CONFIG } from './search-query.js';

/**
 * The very common words whose neighbours are paired: function words that appear in a large share
 * of entries, in English prose and in sessions alike. Changing the list changes which pairs rows
 * hold: rows written before would lack pairs that queries then ask for (reindex after a change).
 */
export const PAIR_WORDS: readonly string[] = [
  'a',
  'and',
  'as',
  'be',
  'for',
  'from',
  'if',
  'in',
  'is',
  'it',
  'no',
  'not',
  'of',
  'on',
  'or',
  'that',
  'the',
  'this',
  'to',
  'with',
];

/** The lexeme of a row whose pairs were not made: accepted by every pair query. */
export const UNPAIRED = 'unpaired';

const WORDS = new Set(PAIR_WORDS);
/** The longest lexeme PostgreSQL takes (MAXSTRLEN), in bytes: a longer pair is not made. */
const MAX_PAIR_BYTES = 2047;
const WORDS_SQL = `ARRAY[${PAIR_WORDS.map((w) => `'${w}'`).join(', ')}]`;

/**
 * SQL for the pairs of the tsvector `tsv` (an expression), as a tsvector without positions; empty
 * when it has none, so the row is no candidate for any phrase with a pair. Each lexeme at each
 * position p is joined with each at p + 1: positions stop at 16383, where many lexemes may stand
 * (all paired with the one at 16382), and a lexeme keeps 255 positions, so one it drops the
 * phrase check cannot see either. A pair longer than a lexeme may be is left out (the query side
 * never asks for one). `array_to_tsvector` drops the duplicates.
 */
export function pairsSql(tsv: string): string {
  const occurrences = `(SELECT o.lexeme, unnest(o.positions) AS p FROM unnest(${tsv}) AS o)`;
  return `(SELECT array_to_tsvector(coalesce(array_agg(a.lexeme || ' ' || b.lexeme), '{}'))
    FROM ${occurrences} AS a JOIN ${occurrences} AS b ON b.p = a.p + 1
    WHERE (a.lexeme = ANY(${WORDS_SQL}) OR b.lexeme = ANY(${WORDS_SQL}))
      AND octet_length(a.lexeme) + octet_length(b.lexeme) < ${MAX_PAIR_BYTES})`;
}

/** One search term's tokens, in order; null where a token was skipped (it breaks adjacency). */
export interface TermTokens {
  tokens: Array<string | null>;
  /** Whether the last token is a prefix. */
  prefix: boolean;
}

/**
 * The tsquery (text form) that rows holding the phrases of `terms` (token text, as
 * search-query.ts makes it; `prefixes` says which end in a prefix) must match in `pairs`, or
 * null when no term has a pair. Their tokens are the server's: one round trip (0.24 ms), skipped
 * when no term has two words one of which is a pair word (the server may split a word further,
 * as `1e5abc` into `1e5` and `abc`, but asking for fewer pairs only finds more candidates).
 * Phrases took no longer for it (200 MB bench history, p50 of two runs: "read the file" 3.88 →
 * 3.19 and 3.11 → 2.39 ms, "in the" 18.5 → 17.5 and 14.5 → 13.4 ms): rows with text outside
 * ASCII, once all unpaired, are no longer candidates of every phrase.
 */
export async function termPairs(q: Queryable, terms: string[], prefixes: boolean[]): Promise<string | null> {
  const some = terms.some((t) => {
    const words = t.toLowerCase().split(' ').filter(Boolean);
    return words.length > 1 && words.some((w) => WORDS.has(w));
  });
  if (!some) return null;
  const { rows } = await readQuery<{ n: number } & Lexeme>(
    q,
    `SELECT u.n::int AS n, l.lexeme, l.positions
     FROM unnest($1::text[]) WITH ORDINALITY AS u(k, n), unnest(to_tsvector('${TS_CONFIG}', u.k)) AS l`,
    [terms],
  );
  return pairsQuery(
    terms.map((_, i) => {
      const tokens = serverTokens(rows.filter((r) => r.n === i + 1));
      return tokens && { tokens, prefix: prefixes[i]! };
    }),
  );
}

/** A lexeme of a tsvector and its positions, as `unnest` gives them. */
export interface Lexeme {
  lexeme: string;
  positions: number[];
}

/**
 * A term's tokens in order, from its tsvector: null at a position no lexeme holds. Null when
 * the order may not be whole: a lexeme at 255 positions may have dropped more, and from 16383
 * on every token stands at 16383.
 */
export function serverTokens(lexemes: Lexeme[]): Array<string | null> | null {
  const tokens: Array<string | null> = [];
  for (const { lexeme, positions } of lexemes) {
    if (positions.length >= 255) return null;
    for (const p of positions) {
      if (p >= 16383) return null;
      tokens[p - 1] = lexeme;
    }
  }
  return Array.from(tokens, (t) => t ?? null);
}

/**
 * The tsquery (text form) that rows holding the terms' phrases must match in `pairs`: the pairs
 * of adjacent tokens with a common word, ANDed, or `UNPAIRED`; null when no term has such a pair.
 * A term whose tokens are not known (`null`) adds none, nor does a pair rows cannot hold (too
 * long). A prefix last token makes a prefix pair (`'the fi':*` finds `the file`).
 */
export function pairsQuery(terms: Array<TermTokens | null>): string | null {
  const pairs = new Set<string>();
  for (const term of terms) {
    if (term === null) continue;
    const { prefix } = term;
    // The server drops a skipped token from the phrase: a prefix applies to the last one kept.
    const tokens = term.tokens.slice(0, term.tokens.findLastIndex((t) => t !== null) + 1);
    for (let i = 0; i + 1 < tokens.length; i++) {
      const [a, b] = [tokens[i], tokens[i + 1]];
      if (a == null || b == null) continue;
      const last = prefix && i + 2 === tokens.length;
      // A prefix token is paired only through its exact neighbour: `th*` may be any word.
      if (!WORDS.has(a) && (last || !WORDS.has(b))) continue;
      if (Buffer.byteLength(a) + Buffer.byteLength(b) >= MAX_PAIR_BYTES) continue;
      pairs.add(`'${quote(a)} ${quote(b)}'${last ? ':*' : ''}`);
    }
  }
  if (pairs.size === 0) return null;
  return `(${[...pairs].join(' & ')}) | ${UNPAIRED}`;
}

/** A lexeme quoted in a tsquery, so none can break its text (token text holds no quote or backslash). */
function quote(lexeme: string): string {
  return lexeme.replace(/['\\]/g, '\\$&');
}
