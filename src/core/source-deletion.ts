/**
 * "Kept after deletion": Claude Code deletes transcripts after `cleanupPeriodDays` (30 by
 * default); when one this instance holds disappears from the projects directory, the session is
 * kept and marked. The mark is instance-local state (`_local/…`: it describes this machine's
 * projects directory, so it is neither exported nor a document), written by the server's watcher
 * and read by the API.
 */

export const sourceDeletionId = (sessionId: string) => `_local/live:deleted:${sessionId}`;

export interface SourceDeletion {
  v: 1;
  /** When the first missing file was noticed. */
  detectedAt: string;
  /** The files that are gone (source paths), with their object names in the store. */
  files: Array<{ path: string; objectName: string }>;
}

/** The mark after `path` was found missing (unchanged when it already lists it). */
export function withMissingFile(
  mark: SourceDeletion | null,
  file: { path: string; objectName: string },
  now: string,
): SourceDeletion {
  if (mark?.files.some((f) => f.path === file.path)) return mark;
  return { v: 1, detectedAt: mark?.detectedAt ?? now, files: [...(mark?.files ?? []), file] };
}

/**
 * The mark after a file of the session was read again: `path` came back, or the transcript it
 * held is read from another path now (a project folder moved or renamed), so nothing of
 * `objectName` is missing either. Null when no file is missing any more.
 */
export function withFileRestored(
  mark: SourceDeletion,
  file: { path: string; objectName: string },
): SourceDeletion | null {
  const files = mark.files.filter((f) => f.path !== file.path && f.objectName !== file.objectName);
  return files.length ? { ...mark, files } : null;
}
