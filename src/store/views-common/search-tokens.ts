/**
 * The tokens of searchable text as FTS5's unicode61 tokenizer (with `remove_diacritics`) sees
 * them: maximal runs of letters, digits and marks, case and accents folded — except in scripts
 * written without spaces between words (Chinese, Japanese) and Hangul, where every character is a
 * token of its own, so a word inside a run is found as the phrase of its characters (`扫描` in
 * `扫描文件`). Engines never see such a run whole: the embedded engine's index and queries get
 * text with those characters set apart (`spaceCjk`), other engines reduce text with `tokenText`
 * before their own tokenizer sees it, and snippets are cut with `searchTokens`, so index, query
 * and snippet agree.
 */

/** Han, kana (with the prolonged sound mark, which is neither) and Hangul. */
const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\u30fc';

/** One such character with the marks that follow it (a voicing mark). */
const CJK_TOKEN = new RegExp(`[${CJK}]\\p{M}*`, 'gv');
const HAS_CJK = new RegExp(`[${CJK}]`, 'v');
const STARTS_CJK = new RegExp(`^[${CJK}]`, 'v');

/** One token: a CJK character, or a run of other letters, digits, marks (and private-use characters). */
export const TOKEN = new RegExp(`[${CJK}]\\p{M}*|[[\\p{L}\\p{N}\\p{M}\\p{Co}]--[${CJK}]]+`, 'gv');

// eslint-disable-next-line no-control-regex -- ASCII is exactly what the fast path is for
const ASCII = /^[\u0000-\u007f]*$/;

/**
 * Lower case, accents removed: `Café` → `cafe`. A CJK character is only composed
 * (`か` + U+3099 → `が`): its marks change the word.
 */
export function foldToken(token: string): string {
  if (ASCII.test(token)) return token.toLowerCase();
  if (STARTS_CJK.test(token)) return token.normalize('NFC');
  return token.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** Whether the text holds a CJK character (whose tokens differ from a tokenizer of runs'). */
export function hasCjk(text: string): boolean {
  return !ASCII.test(text) && HAS_CJK.test(text);
}

/** The text with every CJK character set apart by spaces (and composed), for a tokenizer of runs. */
export function spaceCjk(text: string): string {
  if (!hasCjk(text)) return text;
  return text.replace(CJK_TOKEN, (c) => ` ${c.normalize('NFC')} `);
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
  if (!HAS_CJK.test(stretch)) return foldPlain(stretch);
  // CJK characters are tokens of their own, composed rather than stripped of their marks.
  let out = '';
  let last = 0;
  for (const m of stretch.matchAll(CJK_TOKEN)) {
    out += `${foldPlain(stretch.slice(last, m.index))} ${m[0].normalize('NFC')} `;
    last = m.index + m[0].length;
  }
  return out + foldPlain(stretch.slice(last));
}

function foldPlain(stretch: string): string {
  return stretch
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^\p{L}\p{N}\p{Co}]+/gu, ' ');
}
