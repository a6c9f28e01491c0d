/**
 * Characters in transcript text that change what a reader sees without being seen themselves.
 * A session reads web pages, files and tool output written by anyone, so its transcript may hold:
 *
 * - **Bidirectional controls** (embeddings, overrides, isolates: U+202A–U+202E, U+2066–U+2069).
 *   Shown as they are, they reorder the text after them ("Trojan Source"): `rm -rf ~/x` can read
 *   as something else, in the browser and in a terminal that does bidi.
 * - **Tag characters** (U+E0001, U+E0020–U+E007F): invisible copies of ASCII. A model reads them;
 *   a person reviewing the session does not — the way instructions are smuggled into a prompt.
 *   The one legitimate use, the subdivision flags (🏴 followed by tags and a cancel tag, as in
 *   England's flag), is left as it is.
 *
 * The readers (CLI and web UI) show each such character, or run of tag characters, as a visible
 * marker instead; the stored transcript is not touched. Pure and small, so both readers share it.
 */

export type TextPiece =
  /** Text shown as it is. */
  | { kind: 'text'; text: string }
  /** One bidirectional control; `name` is its usual abbreviation (RLO, LRI, PDF, …). */
  | { kind: 'bidi'; char: string; name: string; codePoint: string }
  /** A run of tag characters; `hidden` is the ASCII they spell (may be empty). */
  | { kind: 'tags'; chars: string; hidden: string };

const BIDI_NAMES: Record<string, string> = {
  '\u202a': 'LRE',
  '\u202b': 'RLE',
  '\u202c': 'PDF',
  '\u202d': 'LRO',
  '\u202e': 'RLO',
  '\u2066': 'LRI',
  '\u2067': 'RLI',
  '\u2068': 'FSI',
  '\u2069': 'PDI',
};

/**
 * A subdivision flag (kept), or a run of tag characters, or one bidirectional control. The flag
 * comes first so that its tags are not taken for hidden text.
 */
const HIDDEN =
  /\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}|[\u{E0001}\u{E0020}-\u{E007F}]+|[\u202A-\u202E\u2066-\u2069]/gu;
/** Any character `HIDDEN` may take (a flag's tags among them). */
const ANY_HIDDEN = /[\u{E0001}\u{E0020}-\u{E007F}\u202A-\u202E\u2066-\u2069]/u;

/** The ASCII a run of tag characters spells: U+E0020–U+E007E are ASCII 0x20–0x7E; the rest none. */
function tagText(chars: string): string {
  let out = '';
  for (const c of chars) {
    const code = c.codePointAt(0)! - 0xe0000;
    if (code >= 0x20 && code <= 0x7e) out += String.fromCharCode(code);
  }
  return out;
}

/** Whether `text` holds anything `hiddenPieces` marks (a tool call flags it while folded). */
export function holdsHidden(text: string): boolean {
  return ANY_HIDDEN.test(text) && hiddenPieces(text).some((p) => p.kind !== 'text');
}

/**
 * `text` cut into what is shown as it is and what is marked. Joined back, the pieces' `text`,
 * `char` and `chars` give `text` again.
 *
 * @example hiddenPieces('a\u202eb') // [{kind:'text',text:'a'}, {kind:'bidi',char:'\u202e',name:'RLO',codePoint:'U+202E'}, {kind:'text',text:'b'}]
 */
export function hiddenPieces(text: string): TextPiece[] {
  // Most text holds none: one cheap test, and the text as one piece.
  if (!ANY_HIDDEN.test(text)) return [{ kind: 'text', text }];
  const pieces: TextPiece[] = [];
  let plain = '';
  let last = 0;
  for (const m of text.matchAll(HIDDEN)) {
    const found = m[0];
    plain += text.slice(last, m.index);
    last = m.index + found.length;
    if (found.startsWith('\u{1F3F4}')) {
      plain += found;
      continue;
    }
    if (plain !== '') pieces.push({ kind: 'text', text: plain });
    plain = '';
    const name = BIDI_NAMES[found];
    if (name !== undefined) {
      const codePoint = `U+${found.codePointAt(0)!.toString(16).toUpperCase()}`;
      pieces.push({ kind: 'bidi', char: found, name, codePoint });
    } else {
      pieces.push({ kind: 'tags', chars: found, hidden: tagText(found) });
    }
  }
  plain += text.slice(last);
  if (plain !== '') pieces.push({ kind: 'text', text: plain });
  return pieces;
}
