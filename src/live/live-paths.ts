/**
 * Where live recording keeps its files, under the data dir: `live/hook.log` (one line per hook
 * call), `live/spool/` (the outbox and its replay files) and `live/locks/` (who is ingesting
 * which session right now). The hook, `serve` and `backfill` all find the same files this way.
 */
import { join } from 'node:path';

export interface LivePaths {
  dir: string;
  spoolDir: string;
  locksDir: string;
  hookLog: string;
  /** Held while a session's transcript is ingested (hook, watcher, import, backfill). */
  sessionLock(sessionId: string): string;
  /** Held while the spool is replayed. */
  spoolLock: string;
}

export function livePaths(dataDir: string): LivePaths {
  const dir = join(dataDir, 'live');
  const locksDir = join(dir, 'locks');
  return {
    dir,
    spoolDir: join(dir, 'spool'),
    locksDir,
    hookLog: join(dir, 'hook.log'),
    sessionLock: (sessionId) => join(locksDir, `session-${sessionId}.lock`),
    spoolLock: join(locksDir, 'spool.lock'),
  };
}
