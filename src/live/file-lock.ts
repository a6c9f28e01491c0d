/**
 * A lock file in the data dir, for work that must not run twice at once on this machine: the
 * ingest of one session's transcript (hooks run in parallel for parallel tool calls, and the
 * server's watcher reads the same files) and the spool replay. Every writer of a transcript's
 * bytes runs where the transcript is, so a local lock is enough even when the API is remote.
 *
 * Linking a written file into place creates the lock only if it is absent. The file names its holder (pid, host,
 * time); a holder that died (its pid is gone, on this host) or held it past `staleMs` is taken
 * over. Taking over re-reads the file first, so only the stale holder's file is removed — two
 * processes recovering the same stale lock in the same microsecond could still both win; the
 * work it guards is idempotent, so that costs a repeated write, not data.
 */
import { hostname } from 'node:os';
import { link, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { makeDirs } from '../config/make-dirs.js';

export interface LockOptions {
  /** How long to wait for a held lock (0: try once). */
  waitMs?: number;
  /** A lock older than this is considered abandoned (default 2 minutes). */
  staleMs?: number;
  /** Poll interval while waiting. */
  pollMs?: number;
}

export interface HeldLock {
  path: string;
  release(): Promise<void>;
}

const HOST = hostname();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the holder recorded in `text` is gone or too old. */
function isStale(text: string, staleMs: number, now: number): boolean {
  const [pid, host, at] = text.split('\n');
  const since = Number(at);
  if (!Number.isFinite(since) || now - since > staleMs) return true;
  return host === HOST && Number.isInteger(Number(pid)) && !alive(Number(pid));
}

/**
 * Creates the lock file holding `stamp`, or false when it exists. The stamp is written to a file
 * of its own first and linked into place, so the lock never exists empty: a lock created with
 * `open(…, 'wx')` and written after was, for a moment, an empty file, which another contender
 * read as a holder of no time and took over (seen: two holders at once in file-lock.test.ts).
 */
async function tryCreate(path: string, stamp: string): Promise<boolean> {
  const own = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  try {
    await writeFile(own, stamp, { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    await makeDirs(dirname(path));
    return tryCreate(path, stamp);
  }
  try {
    await link(own, path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    await unlink(own).catch(() => undefined);
  }
}

/** Acquires the lock at `path`, or returns null when it stayed held for `waitMs`. */
export async function acquireLock(path: string, options: LockOptions = {}): Promise<HeldLock | null> {
  const waitMs = options.waitMs ?? 0;
  const staleMs = options.staleMs ?? 120_000;
  const pollMs = options.pollMs ?? 15;
  const deadline = Date.now() + waitMs;
  const stamp = `${process.pid}\n${HOST}\n${Date.now()}\n${Math.random().toString(36).slice(2)}`;
  for (;;) {
    if (await tryCreate(path, stamp)) {
      return {
        path,
        async release() {
          // Only our own file: if it was taken over meanwhile, it is someone else's now.
          const now = await readFile(path, 'utf8').catch(() => null);
          if (now === stamp) await unlink(path).catch(() => undefined);
        },
      };
    }
    const held = await readFile(path, 'utf8').catch(() => null);
    if (held !== null && isStale(held, staleMs, Date.now())) {
      const again = await readFile(path, 'utf8').catch(() => null);
      if (again === held) await unlink(path).catch(() => undefined);
      continue;
    }
    if (held === null) continue; // released between our attempts
    if (Date.now() >= deadline) return null;
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/** Runs `fn` holding the lock; null (and `fn` not run) when it could not be had within `waitMs`. */
export async function withLock<T>(
  path: string,
  options: LockOptions,
  fn: () => Promise<T>,
): Promise<{ value: T } | null> {
  const lock = await acquireLock(path, options);
  if (!lock) return null;
  try {
    return { value: await fn() };
  } finally {
    await lock.release();
  }
}
