/**
 * The tsvector of an entry's search text, as PostgreSQL's `to_tsvector('pg_catalog.simple',
 * tokenText(text))` makes it, written here as a tsvector literal. Parsing text is most of what
 * indexing an entry costs the server (its parser runs a state machine and a locale-aware case fold
 * per character); reading a literal costs it a third of that (200 MB of history: 4.6 s → 1.5 s
 * of server CPU), and making it costs this process less than `tokenText` did.
 *
 * Only text whose tokens are ASCII (nearly all of it) is done here, where the server's rules are few:
 * - tokens are the runs of letters and digits, lower-cased, numbered from 1 in order;
 * - a run starting `<digits>e<digits>` (either case) and going on with a letter is two tokens:
 *   the parser reads that start as a number in scientific notation (`1e5abc` → `1e5`, `abc`);
 * - a token of 2048 characters or more is skipped, without taking a position;
 * - a lexeme keeps at most 255 positions, and positions stop at 16383.
 * Any other text is left to `to_tsvector` (`tokens`). Whether a server agrees is checked once per
 * store against `TSVECTOR_PROBE`: one that folds case differently (a Turkish locale) or parses
 * differently is sent token text only.
 */
import { tokenText } from '../../views-common/search-tokens.js';

/** PostgreSQL's limits: MAXSTRLEN - 1, MAXNUMPOS - 1, MAXENTRYPOS - 1. */
const MAX_TOKEN_CHARS = 2047;
const MAX_POSITIONS = 255;
const MAX_POSITION = 16383;

// eslint-disable-next-line no-control-regex -- ASCII is exactly what this handles
const ASCII = /^[\u0000-\u007f]*$/;
const SEPARATORS = /[^a-z0-9]+/;
/** A number in scientific notation at the start of a (lower-cased) run that goes on after it. */
const SCIENTIFIC_PREFIX = /^[0-9]+e[0-9]+(?=[a-z])/;

/** What the server makes the tsvector from: a literal, or token text for `to_tsvector`. */
export type VectorSource = { literal: string; tokens?: undefined } | { tokens: string; literal?: undefined };

export function vectorSource(text: string): VectorSource {
  if (ASCII.test(text)) return { literal: literalOf(text) };
  const tokens = tokenText(text);
  return ASCII.test(tokens) ? { literal: literalOf(tokens) } : { tokens };
}

interface Lexeme {
  /** `'lexeme':p1,p2,…` so far. */
  text: string;
  count: number;
  last: number;
}

/** The literal of ASCII text; lexemes in order of first occurrence (the server sorts them). */
function literalOf(ascii: string): string {
  const lexemes = new Map<string, Lexeme>();
  let position = 0;
  const add = (token: string) => {
    if (token.length > MAX_TOKEN_CHARS) return;
    position = Math.min(position + 1, MAX_POSITION);
    const lexeme = lexemes.get(token);
    if (lexeme === undefined)
      lexemes.set(token, { text: `'${token}':${position}`, count: 1, last: position });
    else if (lexeme.count < MAX_POSITIONS && lexeme.last !== position) {
      lexeme.text += `,${position}`;
      lexeme.count++;
      lexeme.last = position;
    }
  };
  // Lower-casing ASCII text whole is lower-casing each token.
  for (const run of ascii.toLowerCase().split(SEPARATORS)) {
    if (run === '') continue;
    const first = run.charCodeAt(0);
    const number = first >= 48 && first <= 57 ? SCIENTIFIC_PREFIX.exec(run) : null;
    if (number) {
      add(number[0]);
      add(run.slice(number[0].length));
    } else add(run);
  }
  let out = '';
  for (const lexeme of lexemes.values()) out += out === '' ? lexeme.text : ` ${lexeme.text}`;
  return out;
}

/**
 * Search text touching every rule above, for checking a server: `to_tsvector` of its token text
 * must equal its literal, or the server is sent token text only.
 */
export const TSVECTOR_PROBE = [
  'The QUICK brown Fox jumps over the lazy dog; the end.',
  'abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789',
  '1e5abc abc1e5 1E5 12e 1e 3d 1e10x 12E3B 1e5e7 0x1F 007 a1b2 99999999999999999999',
  'x'.repeat(2048),
  'Café “naïve” — über/again the fox',
].join('\n');
