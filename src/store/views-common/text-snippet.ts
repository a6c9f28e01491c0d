/**
 * A search hit's snippet, cut from the entry's indexed text in JS: about `maxTokens` tokens
 * around the first match, matched tokens between the snippet markers, `…` where the text was
 * cut — the shape FTS5's snippet() gives. Tokens come from search-tokens.ts, the very tokens such
 * an engine indexes, so what is marked is what matched. (PostgreSQL's ts_headline would re-parse
 * each text — several times the cost of the search — with a parser that keeps paths whole.)
 */
import { MARK_CLOSE, MARK_OPEN, type SearchTerm } from './search-terms.js';
import { foldToken, searchTokens, TOKEN } from './search-tokens.js';

interface Token {
  start: number;
  end: number;
  folded: string;
}

interface Phrase {
  words: string[];
  prefix: boolean;
}

/** Tokens of a text, read only as far as the snippet needs them. */
class Tokens {
  readonly list: Token[] = [];
  readonly #iter: IterableIterator<RegExpMatchArray>;
  #done = false;

  constructor(text: string) {
    this.#iter = text.matchAll(TOKEN);
  }

  /** Reads until `n` tokens are known or the text ends; says whether there are `n`. */
  has(n: number): boolean {
    while (this.list.length < n && !this.#done) {
      const r = this.#iter.next();
      if (r.done) this.#done = true;
      else {
        const folded = foldToken(r.value[0]);
        if (folded !== '')
          this.list.push({ start: r.value.index!, end: r.value.index! + r.value[0].length, folded });
      }
    }
    return this.list.length >= n;
  }
}

function matchesAt(tokens: Tokens, phrase: Phrase, i: number): boolean {
  if (!tokens.has(i + phrase.words.length)) return false;
  return phrase.words.every((w, k) => {
    const t = tokens.list[i + k]!.folded;
    return phrase.prefix && k === phrase.words.length - 1 ? t.startsWith(w) : t === w;
  });
}

/** The snippet with MARK_OPEN / MARK_CLOSE around matched tokens (split it with `splitSnippet`). */
export function textSnippet(text: string, terms: SearchTerm[], maxTokens = 24): string {
  const phrases: Phrase[] = terms
    .map((t) => ({ words: searchTokens(t.text), prefix: t.prefix }))
    .filter((p) => p.words.length > 0);
  const longest = Math.max(1, ...phrases.map((p) => p.words.length));
  const tokens = new Tokens(text);
  if (!tokens.has(1)) return text;
  let first = 0;
  for (let i = 0; tokens.has(i + 1); i++) {
    if (phrases.some((p) => matchesAt(tokens, p, i))) {
      first = i;
      break;
    }
  }
  // A little context before the first match, the rest after it; near the end, more before.
  const lead = Math.floor(maxTokens / 5);
  let from = Math.max(0, first - lead);
  if (!tokens.has(from + maxTokens)) from = Math.max(0, tokens.list.length - maxTokens);
  const to = Math.min(tokens.list.length, from + maxTokens);
  const more = tokens.has(to + 1);

  const hit = new Set<number>();
  for (let i = Math.max(0, from - longest + 1); i < to; i++) {
    for (const p of phrases) {
      if (matchesAt(tokens, p, i)) for (let k = 0; k < p.words.length; k++) hit.add(i + k);
    }
  }
  const list = tokens.list;
  let out = from > 0 ? '…' : text.slice(0, list[0]!.start);
  for (let i = from; i < to; i++) {
    const t = list[i]!;
    if (i > from) out += text.slice(list[i - 1]!.end, t.start);
    // A run of matched tokens (a phrase) is marked as one span, as FTS5 marks a phrase.
    if (hit.has(i) && !(i > from && hit.has(i - 1))) out += MARK_OPEN;
    out += text.slice(t.start, t.end);
    if (hit.has(i) && !(i + 1 < to && hit.has(i + 1))) out += MARK_CLOSE;
  }
  out += more ? '…' : text.slice(list[to - 1]!.end);
  return out;
}
