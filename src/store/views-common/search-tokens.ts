/**
 * The tokens of searchable text as FTS5's unicode61 tokenizer (with `remove_diacritics`) sees
 * them: maximal runs of letters, digits and marks, case and accents folded. The embedded engine
 * gets them from FTS5 itself; other engines reduce text with `tokenText` before their own
 * tokenizer sees it, and cut snippets with `searchTokens`, so index, query and snippet agree.
 */

/** One token: a run of letters, digits, marks (and private-use characters). */
export const TOKEN = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;

// eslint-disable-next-line no-control-regex -- ASCII is exactly what the fast path is for
const ASCII = /^[\u0000-\u007f]*$/;

/** Lower case, accents removed: `Café` → `cafe`. */
export function foldToken(token: string): string {
  if (ASCII.test(token)) return token.toLowerCase();
  return token.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The folded tokens of a text, in order. */
export function searchTokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const folded = foldToken(m[0]);
    if (folded !== '') out.push(folded);
  }
  return out;
}

/**
 * The text with accents removed and every run of other characters (punctuation, symbols, spaces)
 * turned into one space: what is left are exactly the tokens above, for a tokenizer that splits
 * on spaces (case is left to it).
 */
export function tokenText(text: string): string {
  // Most text is ASCII, where a plain class does the same as the Unicode ones, several times
  // faster; text with a few other characters (quotes, arrows, an accent) gets the Unicode work
  // on those stretches only. Decomposition never crosses from one stretch into the next, so the
  // tokens are the same as from normalising the whole text.
  if (ASCII.test(text)) return text.replace(/[^A-Za-z0-9]+/g, ' ');
  return text.replace(NON_ASCII, foldStretch).replace(ASCII_SEPARATORS, ' ');
}

// eslint-disable-next-line no-control-regex -- the ASCII characters that are not letters or digits
const ASCII_SEPARATORS = /[\u0000-\u002f\u003a-\u0040\u005b-\u0060\u007b-\u007f]+/g;
// eslint-disable-next-line no-control-regex -- everything outside ASCII
const NON_ASCII = /[^\u0000-\u007f]+/g;

function foldStretch(stretch: string): string {
  return stretch
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^\p{L}\p{N}\p{Co}]+/gu, ' ');
}
