/**
 * Word pairs: what lets a phrase of common words find its candidate rows without reading most of
 * the table. GIN indexes which lexemes a row holds, not where, so a phrase such as "read the
 * file" fetches every row holding all three words and checks their positions one by one (1 GB
 * of history: 10,024 rows fetched for 249 matches). Each row therefore also carries `pairs`:
 * every two adjacent lexemes of its tsvector of which one is a very common word (`read the`,
 * `the file`), without positions, in the same GIN index. A phrase asks for its pairs as well,
 * which leaves the rows worth checking (416 there).
 *
 * Pairs only narrow the candidates; the tsvector's phrase check still decides, so they must never
 * leave out a row it would accept: a row whose pairs could not be made here (text only the
 * server tokenizes, see tsvector-binary.ts) holds `UNPAIRED`, which every pair query also accepts.
 * The query side is the cautious one: it asks only for pairs of tokens it knows to be adjacent.
 */

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

/** One search term's tokens, in order; null where a token was skipped (it breaks adjacency). */
export interface TermTokens {
  tokens: Array<string | null>;
  /** Whether the last token is a prefix. */
  prefix: boolean;
}

/**
 * The tsquery (text form) that rows holding the terms' phrases must match in `pairs`: the pairs
 * of adjacent tokens with a common word, ANDed, or `UNPAIRED`; null when no term has such a pair.
 * A term whose tokens are not known here (`null`: the server tokenizes it) adds none. A prefix
 * last token makes a prefix pair (`'the fi':*` finds `the file`).
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
      pairs.add(`'${a} ${b}'${last ? ':*' : ''}`);
    }
  }
  if (pairs.size === 0) return null;
  return `(${[...pairs].join(' & ')}) | ${UNPAIRED}`;
}
