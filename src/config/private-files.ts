/**
 * The history is private (issue 42): the data directory is 0700 and everything in it 0600 —
 * database, WAL and SHM, objects, the hook's spool and log — whatever the umask of whoever runs
 * `transcripts`. With the usual umask 022 they were 0755/0644, so any user of a shared machine
 * could read every prompt and tool output.
 *
 * Two parts: the CLI runs with umask 077 (bin/transcripts.js, and `serve` itself), so whatever it
 * creates is private from the start — SQLite gives its WAL and SHM the database's mode, and the
 * bundles `export` writes are covered too; and `serve` repairs an existing data dir at start.
 * `doctor` and `install` report what is looser. Symbolic links are not followed (a link's target
 * is not ours to change) and their own mode means nothing on Linux.
 */
import { chmodSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Bits that let anyone but the owner in. */
const OTHERS = 0o077;
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** New files and directories of this process: owner only (group and others bits masked out). */
export function usePrivateUmask(): void {
  const before = process.umask(OTHERS);
  if ((before | OTHERS) !== OTHERS) process.umask(before | OTHERS);
}

export interface LooseMode {
  path: string;
  kind: 'dir' | 'file';
  /** Permission bits found, e.g. 0o644. */
  mode: number;
}

/** `0o644` → `0644`. */
export const octal = (mode: number) => `0${(mode & 0o777).toString(8).padStart(3, '0')}`;

/**
 * Everything under `dir` (and `dir` itself) that others can reach: a directory or a file with any
 * group/other bit. Paths it cannot read are skipped (a repair would fail on them too). Empty when
 * `dir` does not exist.
 */
export function looseModes(dir: string): LooseMode[] {
  const out: LooseMode[] = [];
  const visit = (path: string) => {
    let st;
    try {
      st = lstatSync(path);
    } catch {
      return;
    }
    if (st.isSymbolicLink()) return;
    const kind = st.isDirectory() ? 'dir' : 'file';
    if ((st.mode & OTHERS) !== 0) out.push({ path, kind, mode: st.mode & 0o777 });
    if (kind !== 'dir') return;
    let names: string[];
    try {
      names = readdirSync(path).sort(); // in name order, so reports read the same each time
    } catch {
      return;
    }
    for (const name of names) visit(join(path, name));
  };
  visit(dir);
  return out;
}

/**
 * Takes group and other bits off everything under `dir`; returns what it changed (with the mode it
 * had) and what it could not change (not ours, say), with why.
 */
export function makePrivate(dir: string): {
  changed: LooseMode[];
  failed: Array<LooseMode & { error: string }>;
} {
  const changed: LooseMode[] = [];
  const failed: Array<LooseMode & { error: string }> = [];
  for (const loose of looseModes(dir)) {
    try {
      chmodSync(loose.path, loose.mode & ~OTHERS);
      changed.push(loose);
    } catch (err) {
      failed.push({ ...loose, error: (err as NodeJS.ErrnoException).code ?? (err as Error).message });
    }
  }
  return { changed, failed };
}

/** A few of `items` in words, `a (0644), b (0755) and 3 more`. */
export function listModes(items: readonly LooseMode[], max = 3): string {
  const shown = items.slice(0, max).map((m) => `${m.path} (${octal(m.mode)})`);
  const more = items.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}
