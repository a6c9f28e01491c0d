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
import { TS_CONFIG } from './search-query.js';

/** PostgreSQL's limits: MAXSTRLEN - 1, MAXNUMPOS - 1, MAXENTRYPOS - 1. */
const MAX_TOKEN_CHARS = 2047;
const MAX_POSITIONS = 255;
const MAX_POSITION = 16383;

/** A number in scientific notation at the start of a (lower-cased) run that goes on after it. */
const SCIENTIFIC_PREFIX = /^[0-9]+e[0-9]+(?=[a-z])/;

/** What the server makes the tsvector from: the binary tsvector, or token text for `to_tsvector`. */
export type VectorSource = { vector: Buffer; tokens?: undefined } | { tokens: string; vector?: undefined };

export function vectorSource(text: string): VectorSource {
  const vector = vectorOf(text);
  return vector === null ? { tokens: tokenText(text) } : { vector };
}

/**
 * The binary tsvector of text whose tokens are ASCII: every other character separates tokens (as
 * `tokenText` says of it, asked once per character); null when one does not (a letter, digit or
 * mark outside ASCII). Scanned in place, folding case per token: lower-casing or splitting the
 * whole text would copy it. Characters outside ASCII never need folding here: any that is not a
 * separator (every letter) makes the text the server's.
 */
function vectorOf(text: string): Buffer | null {
  const lexemes = new Map<string, number[]>();
  let position = 0;
  const add = (token: string) => {
    if (token.length > MAX_TOKEN_CHARS) return;
    if (position < MAX_POSITION) position++;
    const positions = lexemes.get(token);
    if (positions === undefined) lexemes.set(token, [position]);
    else if (positions.length < MAX_POSITIONS && positions[positions.length - 1] !== position) {
      positions.push(position);
    }
  };
  let start = -1;
  let upper = false;
  let digitFirst = false;
  const end = (i: number) => {
    const run = upper ? text.slice(start, i).toLowerCase() : text.slice(start, i);
    const number = digitFirst ? SCIENTIFIC_PREFIX.exec(run) : null;
    if (number) {
      add(number[0]);
      add(run.slice(number[0].length));
    } else add(run);
    start = -1;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 97 ? c <= 122 : c >= 65 ? c <= 90 : c >= 48 && c <= 57) {
      if (start < 0) {
        start = i;
        upper = false;
        digitFirst = c <= 57;
      }
      if (c <= 90 && c >= 65) upper = true;
      continue;
    }
    if (start >= 0) end(i);
    if (c >= 128) {
      if (c >= 0xd800 && c <= 0xdbff) {
        if (!separatesAstral(text.codePointAt(i)!)) return null;
        i++; // the low surrogate
      } else if (!separates(c)) return null;
    }
  }
  if (start >= 0) end(text.length);
  // Lexemes in order of first occurrence (the server sorts them); ASCII, so a byte a character.
  let size = 4;
  for (const [lexeme, positions] of lexemes) size += lexeme.length + 3 + 2 * positions.length;
  const out = Buffer.allocUnsafe(size);
  let at = out.writeInt32BE(lexemes.size, 0);
  for (const [lexeme, positions] of lexemes) {
    at += out.write(lexeme, at, 'latin1');
    out[at++] = 0;
    at = out.writeUInt16BE(positions.length, at);
    for (const p of positions) at = out.writeUInt16BE(p, at);
  }
  return out;
}

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
