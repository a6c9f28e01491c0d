/**
 * Terminal control sequences in transcript text. Tool output often carries ANSI colour codes
 * (`ESC[0;36m`, `ESC[1m`, `ESC[0m`) and, more rarely, OSC titles, links or cursor moves; the ESC
 * itself is invisible, so left in they read as stray `[0;36m`. The reader shows the text without
 * them. `strip-ansi` recognises the sequences, as it does for the search index and the CLI.
 */
/** The text without terminal control sequences (the same string when it has none). */
export { default as stripAnsi } from 'strip-ansi';
