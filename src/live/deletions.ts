/**
 * Deletion detection (see core/source-deletion.ts): a transcript this instance ingested that is no
 * longer in the projects directory marks its session "kept after deletion". Two ways to notice:
 * the watcher's `unlink` events, and a scan of the tree index (every file an import or the
 * watcher ingested) at start and now and then — for deletions that happened while the server was
 * down or the watcher missed. A file that comes back clears its part of the mark.
 */
import { existsSync } from 'node:fs';
import {
  sourceDeletionId,
  withFileRestored,
  withMissingFile,
  type SourceDeletion,
} from '../core/source-deletion.js';
import { cursorId, type SessionCursor } from '../ingest/ingest-session.js';
import type { TreeIndex } from '../ingest/ingest-tree.js';
import { classifyTranscriptPath } from '../ingest/transcript-path.js';

/** The slice of the document store this needs (instance-local state only). */
export interface LocalState {
  getLocal<T>(id: string): Promise<T | null>;
  putLocal(id: string, value: unknown): Promise<void>;
  deleteLocal(id: string): Promise<void>;
}

/**
 * Records that `path` is gone, if it is a file we hold for `sessionId` (its ingest cursor names
 * that very path). Returns whether the session is (now) marked.
 */
export async function noteRemoved(
  state: LocalState,
  file: { sessionId: string; path: string; objectName: string },
  now: string,
): Promise<boolean> {
  const cursor = await state.getLocal<SessionCursor>(cursorId(file.sessionId));
  if (cursor?.files?.[file.objectName]?.path !== file.path) return false;
  const id = sourceDeletionId(file.sessionId);
  const mark = await state.getLocal<SourceDeletion>(id);
  const next = withMissingFile(mark, { path: file.path, objectName: file.objectName }, now);
  if (next !== mark) await state.putLocal(id, next);
  return true;
}

/** Clears `paths` from a session's mark (they exist again). */
export async function noteRestored(state: LocalState, sessionId: string, paths: string[]): Promise<void> {
  const id = sourceDeletionId(sessionId);
  let mark = await state.getLocal<SourceDeletion>(id);
  if (!mark) return;
  for (const p of paths) if (mark) mark = withFileRestored(mark, p);
  if (!mark) await state.deleteLocal(id);
  else await state.putLocal(id, mark);
}

/** Marks every session whose indexed files are missing. Returns the sessions marked by this scan. */
export async function scanForDeletions(
  state: LocalState,
  index: TreeIndex | null,
  now: string,
  exists: (path: string) => boolean = existsSync,
): Promise<string[]> {
  const marked = new Set<string>();
  for (const [path, entry] of Object.entries(index?.files ?? {})) {
    if (exists(path)) continue;
    const kind = classifyTranscriptPath(path);
    if (!kind) continue;
    if (await noteRemoved(state, { sessionId: entry.sessionId, path, objectName: kind.objectName }, now))
      marked.add(entry.sessionId);
  }
  return [...marked];
}
