/**
 * What makes PostgreSQL full-text search answer as the embedded engine's FTS5 index does.
 *
 * Tokens: PostgreSQL's parser keeps paths, e-mails and URLs whole and leaves accents (unless the
 * `unaccent` extension is installed); FTS5's unicode61 splits on everything that is not a letter,
 * digit or mark and folds accents. Indexed text and query terms both pass through `tokenText`
 * (views-common/search-tokens.ts) first, so the parser, with the plain `simple` configuration
 * (lower case, no stop words, no stemming), sees exactly unicode61's tokens. No extension needed.
 *
 * Grammar: the terms come from views-common/search-terms.ts. `websearch_to_tsquery` would read
 * `OR` and `-x` as operators (FTS5 here takes them literally) and has no prefix operator, so each
 * term becomes `phraseto_tsquery` (its words, in order), with `:*` on the last word of a prefix
 * term, and the terms are ANDed. The pieces are PostgreSQL's own tsquery output, joined inside
 * the statement, so user text never reaches the tsquery parser.
 */
import { searchTerms, type SearchTerm } from '../../views-common/search-terms.js';
import { tokenText } from '../../views-common/search-tokens.js';

/** The text search configuration of the index and the queries. */
export const TS_CONFIG = 'pg_catalog.simple';

/**
 * The search terms as statement parameters, or null when nothing searchable is left (the engine
 * then answers "no hits" without asking PostgreSQL).
 */
export function termParams(
  input: string,
): { searchTerms: SearchTerm[]; terms: string[]; prefixes: boolean[] } | null {
  const terms = searchTerms(input);
  if (terms.length === 0) return null;
  return {
    searchTerms: terms,
    terms: terms.map((t) => tokenText(t.text)),
    prefixes: terms.map((t) => t.prefix),
  };
}

/**
 * A `query(q)` CTE: the tsquery of the terms in parameters `terms` (text[]) and `prefixes`
 * (boolean[]). NULL when some term has no indexable word (one over PostgreSQL's word length
 * limit): it can never match, as in FTS5, and dropping it would instead widen the search.
 */
export function tsQueryCte(terms: string, prefixes: string): string {
  return `query AS (
    SELECT CASE WHEN bool_or(numnode(t.q) = 0) THEN NULL
      ELSE string_agg('(' || t.q::text || CASE WHEN t.prefix THEN ':*' ELSE '' END || ')', ' & ' ORDER BY t.n)::tsquery
      END AS q
    FROM (SELECT u.n, u.prefix, phraseto_tsquery('${TS_CONFIG}', u.term) AS q
      FROM unnest(${terms}::text[], ${prefixes}::boolean[]) WITH ORDINALITY AS u(term, prefix, n)) AS t
  )`;
}
