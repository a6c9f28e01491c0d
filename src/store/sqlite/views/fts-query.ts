/**
 * Search terms (views-common/search-terms.ts) → an FTS5 MATCH expression that can never be an SQL
 * error: each term becomes a quoted FTS5 string, so the tokenizer sees only its words and the FTS5
 * parser sees only strings.
 */
import { searchTerms } from '../../views-common/search-terms.js';
import { spaceCjk } from '../../views-common/search-tokens.js';

/** Returns the MATCH expression, or null when nothing searchable is left. */
export function ftsQuery(input: string): string | null {
  const terms = searchTerms(input);
  if (terms.length === 0) return null;
  // CJK characters are set apart as in the index (full-text-view.ts), so a CJK word is a phrase.
  return terms.map((t) => `"${spaceCjk(t.text).replace(/"/g, '""')}"${t.prefix ? '*' : ''}`).join(' ');
}
