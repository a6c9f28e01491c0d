/**
 * Transcript text made safe to print on a terminal. A transcript holds whatever passed through a
 * session — Bash output full of colour codes, pasted terminal output, and possibly hostile
 * sequences (an OSC 52 clipboard write, an OSC 8 link, a title change, cursor movement, a `\r`
 * that overwrites the line, BEL, NUL). Printed as is, that text drives the reader's terminal.
 *
 * Three steps, in this order:
 * 1. Escape sequences (CSI, SGR colours among them; OSC ended by BEL or ST; DCS, APC and the other
 *    ESC sequences) are removed. `strip-ansi` recognises them: its pattern follows ECMA-48 and
 *    what terminals accept, which a hand-written regex would only approximate.
 * 2. Every control character still there is shown instead of acting: C0 as its Control Picture
 *    (NUL → ␀, BEL → ␇, ESC → ␛, U+2400 + code), DEL → ␡, C1 (U+0080–U+009F, which have no
 *    pictures) → U+FFFD. A run of `\r` followed by `\n` is one newline, and a lone `\r` is a newline
 *    too: in captured output it redraws a progress line in place, and as a newline each state stays
 *    readable where a picture would glue them into one long line. Only `\n` and `\t` are kept.
 * 3. Characters that change what is seen without being seen (core/hidden-characters.ts) are
 *    marked: a bidirectional control as its name (`‹RLO›`), which would otherwise reorder the
 *    rest of the line in a terminal that does bidi, and a run of tag characters as the ASCII it
 *    hides (`‹hidden: …›`), which a model read and the terminal would not show.
 *
 * Widths are counted after these steps, so they are the widths shown (a picture takes one column,
 * as the tables measure it). Nothing else is touched: CJK, emoji (subdivision flags among them),
 * combining marks, right-to-left text.
 *
 * For the human output only, applied to the transcript's text before the CLI adds its own colours
 * (search's highlight, doctor's status), which must keep working. `--json`, `--markdown` and
 * `--raw` are data formats: they stay byte for byte what the API returns.
 */
import stripAnsi from 'strip-ansi';
import { hiddenPieces } from '../../../core/hidden-characters.js';

/** C0 controls except tab and line feed, DEL and C1: what would act on a terminal. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

function picture(c: string): string {
  const code = c.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  return code === 0x7f ? '\u2421' : '\ufffd';
}

/**
 * Multi-line text (the transcript reader's entries and turns) safe for a terminal: escape
 * sequences removed, `\r\n` and lone `\r` as newlines, other controls pictured; `\n` and `\t` kept.
 *
 * @example terminalText('\x1b[31mred\x1b[0m\x07\r\ndone') // 'red␇\ndone'
 */
export function terminalText(s: string): string {
  const shown = stripAnsi(s)
    .replace(/\r+\n?/g, '\n')
    .replace(CONTROL, picture);
  return hiddenPieces(shown)
    .map((p) => (p.kind === 'text' ? p.text : p.kind === 'bidi' ? `‹${p.name}›` : `‹hidden: ${p.hidden}›`))
    .join('');
}

/**
 * One line of it (a table cell, a search hit's heading): as `terminalText`, then each `\n` and
 * `\t` a space. Runs of spaces are left as they are: callers that collapse them do so themselves.
 *
 * @example terminalLine('\x1b]0;owned\x07a\nb') // 'a b'
 */
export function terminalLine(s: string): string {
  return terminalText(s).replace(/[\n\t]/g, ' ');
}
