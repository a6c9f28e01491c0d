/**
 * The per-session ingest lock as a wrapper, for whole-tree ingests (first import, catch-up,
 * `backfill`): each session's ingest waits for a hook or the watcher that holds the same session.
 */
import { acquireLock } from './file-lock.js';
import type { LivePaths } from './live-paths.js';

/** How long a tree ingest waits for another ingester of one session before failing that session. */
const SESSION_WAIT_MS = 60_000;

export function sessionLockRunner(paths: LivePaths, waitMs = SESSION_WAIT_MS) {
  return async <T>(sessionId: string, ingest: () => Promise<T>): Promise<T> => {
    const lock = await acquireLock(paths.sessionLock(sessionId), { waitMs });
    if (!lock) throw new Error(`session ${sessionId} stayed locked by another ingester for ${waitMs} ms`);
    try {
      return await ingest();
    } finally {
      await lock.release();
    }
  };
}
