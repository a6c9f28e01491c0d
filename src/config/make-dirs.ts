/**
 * Creating a directory from a path the user gave or configured (export's target, the folder of
 * a settings file, CT_HOME's config and data dirs, the hook's spool and log), and its missing
 * parents, one level at a time, failing with a message that names the path and why. Node's own
 * `mkdir(…, {recursive: true})` spins forever where a parent exists but refuses new entries with
 * ENOENT — any path under /proc on Linux — so a mistyped path hung instead of failing; here
 * every level is tried once.
 *
 * The work is synchronous (a few stat and mkdir calls of microseconds each), so the hook's log and
 * instance.env, written synchronously, use the very same code as the async callers.
 */
import { mkdirSync, rmdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/** The directory could not be created: `message` names it and says why. */
export class MakeDirError extends Error {
  override name = 'MakeDirError';
}

const code = (err: unknown) => (err as NodeJS.ErrnoException).code;

function why(err: unknown, path: string): string {
  switch (code(err)) {
    case 'EACCES':
    case 'EPERM':
      return `permission denied in ${dirname(path)}`;
    case 'EROFS':
      return `${dirname(path)} is on a read-only file system`;
    case 'ENOSPC':
      return 'no space left on the device';
    case 'ENOENT':
      // The parent is there (it was just checked or made), yet the file system will not add to it.
      return `${dirname(path)} does not take new directories (ENOENT)`;
    default:
      return (err as Error).message;
  }
}

/** Whether `path` is a directory; an error message when something else stands there. */
function directoryAt(path: string): boolean | string {
  try {
    return statSync(path).isDirectory() || `${path} exists and is not a directory`;
  } catch (err) {
    if (code(err) === 'ENOENT' || code(err) === 'ENOTDIR') return false;
    return `${path}: ${why(err, path)}`;
  }
}

/**
 * Makes `dir` and whichever of its parents are missing; returns the directories it made,
 * outermost first (for `removeMadeDirs` when nothing ends up in them). Throws MakeDirError.
 */
export function makeDirsSync(dir: string): string[] {
  const missing: string[] = [];
  for (let at = dir; ;) {
    const found = directoryAt(at);
    if (typeof found === 'string') throw new MakeDirError(`cannot create ${dir}: ${found}`);
    if (found) break;
    missing.unshift(at);
    const up = dirname(at);
    if (up === at) throw new MakeDirError(`cannot create ${dir}: ${at} does not exist`);
    at = up;
  }
  const made: string[] = [];
  for (const d of missing) {
    try {
      mkdirSync(d);
      made.push(d);
    } catch (err) {
      // Made meanwhile by someone else: fine if it is a directory. A broken symbolic link is there
      // too (EEXIST) but leads nowhere.
      const found = code(err) === 'EEXIST' ? directoryAt(d) : undefined;
      if (found === true) continue;
      removeMadeDirsSync(made);
      const reason =
        found === false
          ? `${d} is a symbolic link to nothing`
          : typeof found === 'string'
            ? found
            : d === dir
              ? why(err, d)
              : `${d}: ${why(err, d)}`;
      throw new MakeDirError(`cannot create ${dir}: ${reason}`);
    }
  }
  return made;
}

/** `makeDirsSync` for async callers: rejects with MakeDirError. */
export async function makeDirs(dir: string): Promise<string[]> {
  return makeDirsSync(dir);
}

function removeMadeDirsSync(made: readonly string[]): void {
  for (const d of [...made].reverse()) {
    try {
      rmdirSync(d);
    } catch {
      return; // not empty, or gone: leave it and what holds it
    }
  }
}

/** Removes directories `makeDirs` made, innermost first, as long as they are still empty. */
export async function removeMadeDirs(made: readonly string[]): Promise<void> {
  removeMadeDirsSync(made);
}
