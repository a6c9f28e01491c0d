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

type SessionFileRef = { path: string; objectName: string };

/**
 * A session's mark is read, changed and written back; changes to one session run one at a time,
 * or the watcher reporting several files of a session deleted at once would keep only some.
 */
const marking = new Map<string, Promise<unknown>>();
function oneAtATime<T>(sessionId: string, change: () => Promise<T>): Promise<T> {
  const run = (marking.get(sessionId) ?? Promise.resolve()).then(change, change);
  const settled = run.catch(() => undefined);
  marking.set(sessionId, settled);
  void settled.then(() => {
    if (marking.get(sessionId) === settled) marking.delete(sessionId);
  });
  return run;
}

/**
 * Records that `path` is gone, if it is a file we hold for `sessionId` (its ingest cursor names
 * that very path). Returns whether the session is (now) marked. When the cursor reads that
 * transcript from another path now (its folder was moved), an old mark of `path` is cleared.
 */
export function noteRemoved(
  state: LocalState,
  file: { sessionId: string } & SessionFileRef,
  now: string,
  exists: (path: string) => boolean = existsSync,
): Promise<boolean> {
  return oneAtATime(file.sessionId, async () => {
    const cursor = await state.getLocal<SessionCursor>(cursorId(file.sessionId));
    const readFrom = cursor?.files?.[file.objectName]?.path;
    const id = sourceDeletionId(file.sessionId);
    if (readFrom !== file.path) {
      if (readFrom !== undefined && exists(readFrom))
        await restore(state, id, [{ path: readFrom, objectName: file.objectName }]);
      return false;
    }
    const mark = await state.getLocal<SourceDeletion>(id);
    const next = withMissingFile(mark, { path: file.path, objectName: file.objectName }, now);
    if (next !== mark) await state.putLocal(id, next);
    return true;
  });
}

/** Clears `files` from a session's mark: they were just read (from where they are now). */
export function noteRestored(state: LocalState, sessionId: string, files: SessionFileRef[]): Promise<void> {
  return oneAtATime(sessionId, () => restore(state, sourceDeletionId(sessionId), files));
}

async function restore(state: LocalState, id: string, files: SessionFileRef[]): Promise<void> {
  let mark = await state.getLocal<SourceDeletion>(id);
  if (!mark) return;
  for (const f of files) if (mark) mark = withFileRestored(mark, f);
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
    if (
      await noteRemoved(state, { sessionId: entry.sessionId, path, objectName: kind.objectName }, now, exists)
    )
      marked.add(entry.sessionId);
  }
  return [...marked];
}
