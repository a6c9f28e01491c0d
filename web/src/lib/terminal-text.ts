/**
 * Terminal control sequences in transcript text. Tool output often carries ANSI colour codes
 * (`ESC[0;36m`, `ESC[1m`, `ESC[0m`) and, more rarely, OSC titles or cursor moves; the ESC itself
 * is invisible, so left in they read as stray `[0;36m`. The reader shows the text without them.
 */

// CSI (ESC [ params intermediates final), OSC (ESC ] … BEL or ESC \), and two-byte escapes; also
// the 8-bit CSI (U+009B).
const ANSI =
  // eslint-disable-next-line no-control-regex
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;

/** The text without terminal control sequences (the same string when it has none). */
export function stripAnsi(text: string): string {
  return text.includes('\u001b') || text.includes('\u009b') ? text.replace(ANSI, '') : text;
}
