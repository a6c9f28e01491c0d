/**
 * The command that picks a session up again in Claude Code: `cd <cwd> && claude --resume <id>`.
 * Shared by `transcripts show` and the session page, so both print the same text.
 */

/** Characters a POSIX shell reads literally outside quotes (no globbing, no expansion). */
const PLAIN = /^[A-Za-z0-9_/.,:@%+=-]+$/;

/** `value` as one POSIX shell word: unchanged when plain, else single-quoted (`'` as `'\''`). */
export function shellQuote(value: string): string {
  if (PLAIN.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** `cd <cwd> && claude --resume <id>`; without a known directory, the resume alone. */
export function resumeCommand(session: { id: string; cwd: string | null }): string {
  const resume = `claude --resume ${shellQuote(session.id)}`;
  return session.cwd ? `cd ${shellQuote(session.cwd)} && ${resume}` : resume;
}
