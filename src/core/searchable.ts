/**
 * Whether search text can match anything: the full-text index keeps only words made of letters and
 * digits, so a term without one (an emoji, `->`) has no tokens. One rule for the query parser and
 * for the clients that say what was not searched.
 */
export function isSearchable(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text);
}
