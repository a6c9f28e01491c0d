/**
 * The user's search box → terms, shared by every engine so the grammar is the same everywhere:
 * bare words (all must match), "quoted phrases", and `word*` / `"phrase"*` prefixes. Everything
 * else — operators (`OR`, `NOT`, `NEAR(`), column filters (`col:x`), `-x`, `^`, unbalanced quotes —
 * is taken literally: each term is searched as a phrase of the words in it. Each engine turns the
 * terms into its own query language (FTS5 MATCH, a PostgreSQL tsquery), never by pasting text.
 */

import { isSearchable } from '../../core/searchable.js';

/** Snippet markers: control characters that never reach the index (`entrySearchText` strips them). */
export const MARK_OPEN = '\u0001';
export const MARK_CLOSE = '\u0002';

export interface SearchTerm {
  /** The term's text, control characters blanked and trimmed; holds a letter or digit. */
  text: string;
  /** `word*` or `"phrase"*`: the last word matches as a prefix. */
  prefix: boolean;
}

/** Terms with something searchable in them; empty when nothing is left. */
export function searchTerms(input: string): SearchTerm[] {
  return (
    parseTerms(input)
      // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
      .map((t) => ({ text: t.text.replace(/[\u0000-\u001f\u007f]/g, ' ').trim(), prefix: t.prefix }))
      // A term without a letter or digit has no tokens; an engine would match nothing or fail on it.
      .filter((t) => isSearchable(t.text))
  );
}

/**
 * The terms `searchTerms` leaves out (no letter or digit: emoji, punctuation), as typed and once
 * each, so the user is told what was not searched instead of seeing fewer hits or none.
 *
 * @example ignoredTerms('deploy 🎉 "->"') // ['🎉', '"->"']
 */
export function ignoredTerms(input: string): string[] {
  const raw = parseTerms(input)
    // An empty `raw` is an unbalanced quote, which the grammar drops rather than searches.
    .filter((t) => t.raw !== '' && !isSearchable(t.text))
    .map((t) => t.raw);
  return [...new Set(raw)];
}

interface ParsedTerm extends SearchTerm {
  /** The term as typed, quotes and `*` included. */
  raw: string;
}

function parseTerms(input: string): ParsedTerm[] {
  const terms: ParsedTerm[] = [];
  let i = 0;
  while (i < input.length) {
    const ch = input[i]!;
    if (/\s/.test(ch)) {
      i += 1;
    } else if (ch === '"' && input.indexOf('"', i + 1) !== -1) {
      const close = input.indexOf('"', i + 1);
      const prefix = input[close + 1] === '*';
      const end = close + (prefix ? 2 : 1);
      terms.push({ text: input.slice(i + 1, close), prefix, raw: input.slice(i, end) });
      i = end;
    } else {
      // A bare word runs to the next space or quote; an unbalanced quote is just dropped.
      let j = i;
      while (j < input.length && !/\s/.test(input[j]!) && input[j] !== '"') j += 1;
      const raw = ch === '"' ? '' : input.slice(i, j);
      const prefix = raw.endsWith('*');
      terms.push({ text: raw.replace(/\*/g, ' '), prefix, raw });
      i = Math.max(j, i + 1);
    }
  }
  return terms;
}

/** Splits a snippet made with the markers above into plain-text segments. */
export function splitSnippet(snippet: string): Array<{ text: string; mark: boolean }> {
  const out: Array<{ text: string; mark: boolean }> = [];
  let mark = false;
  let text = '';
  const push = () => {
    if (text === '') return;
    const last = out[out.length - 1];
    if (last && last.mark === mark) last.text += text;
    else out.push({ text, mark });
    text = '';
  };
  for (const ch of snippet) {
    if (ch === MARK_OPEN || ch === MARK_CLOSE) {
      push();
      mark = ch === MARK_OPEN;
    } else {
      text += ch;
    }
  }
  push();
  return out;
}
