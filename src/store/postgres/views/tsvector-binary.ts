/**
 * The tsvector of an entry's search text, as PostgreSQL's `to_tsvector('pg_catalog.simple',
 * tokenText(text))` makes it, made here and sent in the binary form the server receives a
 * tsvector parameter in (`tsvectorrecv`: a lexeme count, then each lexeme NUL-terminated with its
 * position count and positions as big-endian 16-bit words; the server sorts the lexemes). Parsing
 * text is most of what indexing an entry costs the server (its parser runs a state machine and a
 * locale-aware case fold per character). A tsvector literal spared it a fifth of its CPU on an
 * ingest; the binary form, a fifth smaller and read without parsing, spares it a tenth more.
 *
 * Only text whose letters, digits and marks are all ASCII (over nine entries in ten) is done
 * here, where the server's rules are few:
 * - tokens are the runs of letters and digits, lower-cased, numbered from 1 in order;
 * - a run starting `<digits>e<digits>` (either case) and going on with a letter is two tokens:
 *   the parser reads that start as a number in scientific notation (`1e5abc` → `1e5`, `abc`);
 * - a token of 2048 characters or more is skipped, without taking a position;
 * - a lexeme keeps at most 255 positions, and positions stop at 16383.
 * Other text is left to `to_tsvector` (`tokens`). Whether a server agrees is checked once per
 * store against `TSVECTOR_PROBE`: one that folds case differently (a Turkish locale) or parses
 * differently is sent token text only.
 */
import { tokenText } from '../../views-common/search-tokens.js';
import type { Queryable } from '../postgres-database.js';
import { PAIR_WORDS } from './phrase-pairs.js';
import { TS_CONFIG } from './search-query.js';

/** PostgreSQL's limits: MAXSTRLEN - 1, MAXNUMPOS - 1, MAXENTRYPOS - 1. */
const MAX_TOKEN_CHARS = 2047;
const MAX_POSITIONS = 255;
const MAX_POSITION = 16383;

/**
 * What the server makes the tsvector from: the binary tsvector (with the row's word pairs, see
 * phrase-pairs.ts), or token text for `to_tsvector`.
 */
export type VectorSource =
  | { vector: Buffer; pairs: Buffer; tokens?: undefined }
  | { tokens: string; vector?: undefined; pairs?: undefined };

export function vectorSource(text: string): VectorSource {
  const t = table.reset();
  if (!scanAscii(text, (start, end) => t.add(text, start, end))) return { tokens: tokenText(text) };
  return { vector: t.vector(text), pairs: t.pairs(text) };
}

/**
 * A search term's tokens as the server makes them (lower-cased, in order), with null for a token
 * it skips; null when the text is not one whose tokens are known here (see `scanAscii`).
 */
export function asciiTokens(text: string): Array<string | null> | null {
  const tokens: Array<string | null> = [];
  const known = scanAscii(text, (start, end) =>
    tokens.push(end - start > MAX_TOKEN_CHARS ? null : text.slice(start, end).toLowerCase()),
  );
  return known ? tokens : null;
}

/**
 * Calls `token` with the range of each token of text whose tokens are ASCII: every other
 * character separates tokens (as `tokenText` says of it, asked once per character). False, part
 * way through, when one does not (a letter, digit or mark outside ASCII). Characters outside ASCII
 * never need folding here: any that is not a separator (every letter) makes the text the server's.
 *
 * The text is scanned in place and a token is a range of it: no string is made per token (making
 * one, and a Map of them, cost twice as much: this runs for every entry written).
 */
function scanAscii(text: string, token: (start: number, end: number) => void): boolean {
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isAsciiAlnum(c)) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0) {
      run(text, start, i, token);
      start = -1;
    }
    if (c >= 128) {
      if (c >= 0xd800 && c <= 0xdbff) {
        if (!separatesAstral(text.codePointAt(i)!)) return false;
        i++; // the low surrogate
      } else if (!separates(c)) return false;
    }
  }
  if (start >= 0) run(text, start, text.length, token);
  return true;
}

/** A run of letters and digits: one token, or two when it starts with a number like `1e5`. */
function run(text: string, start: number, end: number, token: (start: number, end: number) => void): void {
  if (isDigit(text.charCodeAt(start))) {
    let j = start;
    while (j < end && isDigit(text.charCodeAt(j))) j++;
    if (j + 1 < end && fold(text.charCodeAt(j)) === 101 && isDigit(text.charCodeAt(j + 1))) {
      let k = j + 1;
      while (k < end && isDigit(text.charCodeAt(k))) k++;
      if (k < end) {
        token(start, k);
        token(k, end);
        return;
      }
    }
  }
  token(start, end);
}

function isAsciiAlnum(c: number): boolean {
  return c >= 97 ? c <= 122 : c >= 65 ? c <= 90 : c >= 48 && c <= 57;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** A character lower-cased, for ASCII letters. */
function fold(c: number): number {
  return c >= 65 && c <= 90 ? c + 32 : c;
}

/**
 * The lexemes of one text and their positions, in typed arrays reused from text to text (a text
 * is done in one synchronous call, so one table serves them all).
 */
class LexemeTable {
  /** Open addressing by hash: lexeme number + 1, or 0 for an empty slot. */
  #slots = new Int32Array(1024);
  /** Per lexeme: where its first occurrence is in the text, its length and hash. */
  #start = new Int32Array(256);
  #length = new Int32Array(256);
  #hash = new Int32Array(256);
  /** Per lexeme: positions kept, the last one, and (while writing) where the next one goes. */
  #count = new Int32Array(256);
  #last = new Int32Array(256);
  #next = new Int32Array(256);
  /** Per lexeme: 1 when it is one of the pair words (phrase-pairs.ts). */
  #pairWord = new Int32Array(256);
  #pairs = new Set<number>();
  #lexemes = 0;
  /** Every position kept, in text order, with its lexeme. */
  #occurrenceLexeme = new Int32Array(1024);
  #occurrencePosition = new Int32Array(1024);
  #occurrences = 0;
  #position = 0;

  reset(): this {
    if (this.#lexemes > 0) this.#slots.fill(0);
    this.#lexemes = 0;
    this.#occurrences = 0;
    this.#position = 0;
    return this;
  }

  /** One token; one of 2048 characters or more is skipped, without taking a position. */
  add(text: string, start: number, end: number): void {
    const length = end - start;
    if (length > MAX_TOKEN_CHARS) return;
    if (this.#position < MAX_POSITION) this.#position++;
    const hash = foldedHash(text, start, end);
    const mask = this.#slots.length - 1;
    let slot = hash & mask;
    for (;;) {
      const found = this.#slots[slot]!;
      if (found === 0) break;
      const k = found - 1;
      if (
        this.#hash[k] === hash &&
        this.#length[k] === length &&
        sameFolded(text, this.#start[k]!, start, length)
      ) {
        if (this.#count[k]! < MAX_POSITIONS && this.#last[k] !== this.#position) this.#keep(k);
        return;
      }
      slot = (slot + 1) & mask;
    }
    const k = this.#lexemes++;
    if (k === this.#start.length) this.#growLexemes();
    this.#start[k] = start;
    this.#length[k] = length;
    this.#hash[k] = hash;
    this.#count[k] = 0;
    this.#pairWord[k] = isPairWordAt(text, start, length, hash) ? 1 : 0;
    this.#slots[slot] = k + 1;
    this.#keep(k);
    if (this.#lexemes * 2 > this.#slots.length) this.#rehash();
  }

  #keep(k: number): void {
    this.#count[k]!++;
    this.#last[k] = this.#position;
    const n = this.#occurrences++;
    if (n === this.#occurrenceLexeme.length) {
      this.#occurrenceLexeme = grown(this.#occurrenceLexeme);
      this.#occurrencePosition = grown(this.#occurrencePosition);
    }
    this.#occurrenceLexeme[n] = k;
    this.#occurrencePosition[n] = this.#position;
  }

  #growLexemes(): void {
    this.#start = grown(this.#start);
    this.#length = grown(this.#length);
    this.#hash = grown(this.#hash);
    this.#count = grown(this.#count);
    this.#last = grown(this.#last);
    this.#next = grown(this.#next);
    this.#pairWord = grown(this.#pairWord);
  }

  #rehash(): void {
    this.#slots = new Int32Array(this.#slots.length * 2);
    const mask = this.#slots.length - 1;
    for (let k = 0; k < this.#lexemes; k++) {
      let slot = this.#hash[k]! & mask;
      while (this.#slots[slot] !== 0) slot = (slot + 1) & mask;
      this.#slots[slot] = k + 1;
    }
  }

  /** Lexemes in order of first occurrence (the server sorts them); ASCII, so a byte a character. */
  vector(text: string): Buffer {
    let size = 4 + 2 * this.#occurrences;
    for (let k = 0; k < this.#lexemes; k++) size += this.#length[k]! + 3;
    const out = Buffer.allocUnsafe(size);
    let at = out.writeInt32BE(this.#lexemes, 0);
    for (let k = 0; k < this.#lexemes; k++) {
      const from = this.#start[k]!;
      for (let i = from; i < from + this.#length[k]!; i++) out[at++] = fold(text.charCodeAt(i));
      out[at++] = 0;
      at = out.writeUInt16BE(this.#count[k]!, at);
      this.#next[k] = at;
      at += 2 * this.#count[k]!;
    }
    // Each lexeme's positions, in text order: ascending, as the server requires.
    for (let n = 0; n < this.#occurrences; n++) {
      const k = this.#occurrenceLexeme[n]!;
      this.#next[k] = out.writeUInt16BE(this.#occurrencePosition[n]!, this.#next[k]!);
    }
    return out;
  }

  /**
   * The text's word pairs (phrase-pairs.ts) as a binary tsvector without positions: the lexemes
   * at each two kept positions p and p + 1 of which one is a pair word. A position a lexeme does
   * not keep (past its 255th) the server's phrase check cannot see either, so no pair it could
   * need is missing.
   */
  pairs(text: string): Buffer {
    // A pair is a number (its two lexemes'), written out straight from the text like `vector`.
    const found = this.#pairs;
    found.clear();
    const lexemes = this.#lexemes;
    const at = this.#occurrencePosition;
    let size = 4;
    for (let n = 0; n < this.#occurrences; n++) {
      const a = this.#occurrenceLexeme[n]!;
      // The next position is the next occurrence's, except where positions stop at their limit.
      for (let m = n + 1; m < this.#occurrences && at[m]! <= at[n]! + 1; m++) {
        const b = this.#occurrenceLexeme[m]!;
        if (at[m] !== at[n]! + 1 || (this.#pairWord[a] === 0 && this.#pairWord[b] === 0)) continue;
        const pair = a * lexemes + b;
        if (found.has(pair)) continue;
        found.add(pair);
        size += this.#length[a]! + this.#length[b]! + 4; // the space, NUL and position count
      }
    }
    const out = Buffer.allocUnsafe(size);
    let offset = out.writeInt32BE(found.size, 0);
    for (const pair of found) {
      offset = this.#writeLexeme(text, Math.floor(pair / lexemes), out, offset);
      out[offset++] = 32;
      offset = this.#writeLexeme(text, pair % lexemes, out, offset);
      out[offset++] = 0;
      offset = out.writeUInt16BE(0, offset);
    }
    return out;
  }

  #writeLexeme(text: string, k: number, out: Buffer, offset: number): number {
    const from = this.#start[k]!;
    for (let i = from; i < from + this.#length[k]!; i++) out[offset++] = fold(text.charCodeAt(i));
    return offset;
  }
}

/** The pair words by the hash `add` gives their text. */
const PAIR_WORD_HASHES = new Map(PAIR_WORDS.map((w) => [foldedHash(w, 0, w.length), w]));
if (PAIR_WORD_HASHES.size !== PAIR_WORDS.length) throw new Error('two pair words share a hash');

function foldedHash(text: string, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ fold(text.charCodeAt(i)), 0x01000193);
  return hash;
}

/** Whether the token `text[start, start + length)`, whose hash is `hash`, is a pair word. */
function isPairWordAt(text: string, start: number, length: number, hash: number): boolean {
  const word = PAIR_WORD_HASHES.get(hash);
  if (word === undefined || word.length !== length) return false;
  for (let i = 0; i < length; i++) if (fold(text.charCodeAt(start + i)) !== word.charCodeAt(i)) return false;
  return true;
}

function sameFolded(text: string, a: number, b: number, length: number): boolean {
  for (let i = 0; i < length; i++)
    if (fold(text.charCodeAt(a + i)) !== fold(text.charCodeAt(b + i))) return false;
  return true;
}

function grown(a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

const table = new LexemeTable();

/** Whether `tokenText` turns a character outside ASCII into a separator: 1 yes, 2 no, 0 not asked yet. */
const SEPARATES = new Uint8Array(0x10000);
const SEPARATES_ASTRAL = new Map<number, boolean>();

function separates(code: number): boolean {
  if (SEPARATES[code] === 0) {
    // A lone surrogate is not a character; leave such text to the server.
    const yes = !(code >= 0xd800 && code <= 0xdfff) && tokenText(String.fromCharCode(code)) === ' ';
    SEPARATES[code] = yes ? 1 : 2;
  }
  return SEPARATES[code] === 1;
}

function separatesAstral(codePoint: number): boolean {
  let yes = SEPARATES_ASTRAL.get(codePoint);
  if (yes === undefined) {
    yes = codePoint > 0xffff && tokenText(String.fromCodePoint(codePoint)) === ' ';
    SEPARATES_ASTRAL.set(codePoint, yes);
  }
  return yes;
}

/**
 * Whether the server makes of token text the tsvectors `vectorSource` makes: asked once per
 * store; if not, every tsvector is left to it.
 */
export async function serverAgrees(q: Queryable): Promise<boolean> {
  const { rows } = await q.query<{ same: boolean }>(
    `SELECT to_tsvector('${TS_CONFIG}', $1) = $2::tsvector AS same`,
    [tokenText(TSVECTOR_PROBE), vectorSource(TSVECTOR_PROBE).vector],
  );
  return rows[0]?.same === true;
}

/** Search text touching every rule above (and giving a tsvector here), for `serverAgrees`. */
export const TSVECTOR_PROBE = [
  'The QUICK brown Fox jumps over the lazy dog; the end.',
  'abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789',
  '1e5abc abc1e5 1E5 12e 1e 3d 1e10x 12E3B 1e5e7 0x1F 007 a1b2 99999999999999999999',
  'x'.repeat(2048),
  '“Quoted” — x→y ✓ 🤖again the fox',
].join('\n');
