/**
 * The rules of user data that need no schema library: document ids, the limits, and what a tag
 * or a note may be. Apart from annotations.ts (the zod schemas and edits) so the CLI checks a
 * `--tag` without loading zod (a third of `transcripts sessions`' start).
 */
export const annotationId = (sessionId: string) => `annotation:${sessionId}`;
export const tombstoneId = (sessionId: string) => `tombstone:${sessionId}`;

/** Short lowercase words joined by `-` or `/`: `bug`, `needs-review`, `area/api`. */
export const TAG_PATTERN = /^[a-z0-9]+(?:[-/][a-z0-9]+)*$/;
export const MAX_TAG_CHARS = 40;
export const MAX_TAGS = 32;
/** A session's note (Markdown): 16 KiB of UTF-8 is pages of text, and bounded. */
export const MAX_NOTE_BYTES = 16 * 1024;
export const MAX_BOOKMARKS = 1000;
export const MAX_BOOKMARK_NOTE_CHARS = 1000;

export const TAG_RULE =
  `a tag is a short lowercase word: a-z and 0-9, words joined by "-" or "/" (e.g. needs-review, area/api), ` +
  `at most ${MAX_TAG_CHARS} characters`;

/** Why `tag` is not a tag, or null. */
export function tagProblem(tag: unknown): string | null {
  if (typeof tag !== 'string') return 'a tag must be a string';
  if (tag.length > MAX_TAG_CHARS || !TAG_PATTERN.test(tag)) return `"${tag}" is not a valid tag: ${TAG_RULE}`;
  return null;
}

/** Why `note` cannot be a note, or null. */
export function noteProblem(note: string): string | null {
  const bytes = new TextEncoder().encode(note).length;
  return bytes > MAX_NOTE_BYTES ? `the note is ${bytes} bytes; at most ${MAX_NOTE_BYTES} are kept` : null;
}
