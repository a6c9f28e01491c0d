/**
 * Highlighting search terms in transcript text (arrival from search, `?q=`). The terms follow the
 * search syntax: words, `"quoted phrases"`, `prefix*`. Output is plain segments the reader renders
 * as text with <mark> around matches — never HTML.
 */

export interface Segment {
  text: string;
  mark: boolean;
}

export interface Term {
  text: string;
  /** `deploy*`: matches words starting with it. */
  prefix: boolean;
}

const OPERATORS = new Set(['and', 'or', 'not', 'near']);

/** The terms of a search query (`"connection refused" deploy*` → 2 terms). */
export function searchTerms(q: string | undefined): Term[] {
  if (!q) return [];
  const terms: Term[] = [];
  const re = /"([^"]*)"?|(\S+)/g;
  for (let m = re.exec(q); m; m = re.exec(q)) {
    if (m[1] !== undefined) {
      const t = m[1].trim();
      if (t) terms.push({ text: t, prefix: false });
      continue;
    }
    let w = m[2]!;
    if (OPERATORS.has(w.toLowerCase()) && w === w.toUpperCase()) continue;
    w = w.replace(/^[-+(]+|[)]+$/g, '');
    const prefix = w.endsWith('*');
    w = w.replace(/\*+$/, '').replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
    if (w.length > 0) terms.push({ text: w, prefix });
  }
  return terms;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** One regex matching any term, case-insensitively; null when there are none. */
export function termsRegExp(terms: readonly Term[]): RegExp | null {
  if (terms.length === 0) return null;
  const parts = [...terms]
    .sort((a, b) => b.text.length - a.text.length)
    .map((t) => escapeRegExp(t.text).replace(/\s+/g, '\\s+') + (t.prefix ? '[\\p{L}\\p{N}_]*' : ''));
  return new RegExp(parts.join('|'), 'giu');
}

/** Splits `text` into marked and unmarked segments. */
export function splitHighlights(text: string, terms: readonly Term[] | RegExp | null): Segment[] {
  const re = terms instanceof RegExp || terms === null ? terms : termsRegExp(terms);
  if (!re || !text) return text ? [{ text, mark: false }] : [];
  re.lastIndex = 0;
  const out: Segment[] = [];
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[0].length === 0) {
      re.lastIndex++;
      continue;
    }
    if (m.index > last) out.push({ text: text.slice(last, m.index), mark: false });
    out.push({ text: m[0], mark: true });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last), mark: false });
  return out;
}

/** True when `text` contains any of the terms. */
export function hasMatch(text: string | undefined, re: RegExp | null): boolean {
  if (!text || !re) return false;
  re.lastIndex = 0;
  const hit = re.test(text);
  re.lastIndex = 0;
  return hit;
}
