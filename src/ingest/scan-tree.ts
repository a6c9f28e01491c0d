/**
 * Finds the session files of a tree (`~/.claude/projects`, `~/.codex/sessions`,
 * `~/.gemini/tmp`, or any folder given to backfill) and says what each one is: the agents say
 * (`providers/`).
 */
import { constants } from 'node:fs';
import { access, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { classifyPath, identifyFile, isSkippedFolder } from './providers/index.js';
import type { TranscriptPath } from './transcript-path.js';

export interface ScannedFile extends TranscriptPath {
  /** Absolute path. */
  path: string;
  size: number;
  mtimeMs: number;
}

/** A folder or transcript file the walk could not read, and why (`EACCES: permission denied`). */
export interface SkippedPath {
  path: string;
  reason: string;
}

/** An fs error in words that name no path (the path is said beside it). */
function reasonOf(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  switch (e.code) {
    case 'EACCES':
    case 'EPERM':
      return `${e.code}: permission denied`;
    case 'ELOOP':
      return 'ELOOP: a symbolic link that leads back to itself';
    default:
      return e.code
        ? `${e.code}: ${e.message.split(',')[0]!.replace(/^\w+: /, '')}`
        : String(e.message ?? err);
  }
}

/** Gone between listing and reading: not a problem to report (the tree changes as it is read). */
const vanished = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Walks `root` and classifies every `.jsonl` file. Symbolic links are followed, as the other
 * tools reading this tree do (a project folder moved to another disk and linked back is still
 * history); files keep the path they have under `root`, and a folder reached twice (a link back
 * up the tree) is walked once. Dangling links, FIFOs and the like are passed over.
 *
 * What it cannot read — a folder it may not list, a transcript it may not open, a link that loops —
 * goes into `skipped`, by name, so callers can say so (issue 42: an unreadable project folder was
 * skipped in silence and backfill exited 0).
 */
export async function scanTree(
  root: string,
  folders?: string[],
  skipped?: SkippedPath[],
): Promise<ScannedFile[]> {
  const out: ScannedFile[] = [];
  await walk(path.resolve(root), out, new Set(), folders, skipped);
  out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return out;
}

/** `folders`, when given, receives every folder walked (the root included). */
async function walk(
  dir: string,
  out: ScannedFile[],
  walked: Set<string>,
  folders?: string[],
  skipped?: SkippedPath[],
): Promise<void> {
  let entries;
  try {
    const real = await realpath(dir);
    if (walked.has(real)) return;
    walked.add(real);
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (!vanished(err)) skipped?.push({ path: dir, reason: reasonOf(err) });
    return;
  }
  folders?.push(dir);
  // In name order, so a folder reached twice is always walked by the same path.
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    // A link counts as what it points at; a dangling one as nothing, a looping one as unreadable.
    const kind = entry.isSymbolicLink()
      ? await stat(full).catch((err: unknown) => {
          if (!vanished(err)) skipped?.push({ path: full, reason: reasonOf(err) });
          return null;
        })
      : entry;
    if (kind?.isDirectory()) {
      if (isSkippedFolder(full)) continue;
      await walk(full, out, walked, folders, skipped);
    } else if (kind?.isFile()) {
      const file = await classify(full);
      if (!file) continue;
      try {
        await access(full, constants.R_OK);
        out.push(file);
      } catch (err) {
        if (!vanished(err)) skipped?.push({ path: full, reason: reasonOf(err) });
      }
    }
  }
}

async function classify(full: string): Promise<ScannedFile | null> {
  const kind = classifyPath(full);
  if (!kind) return null;
  let st;
  try {
    st = await stat(full);
  } catch {
    return null;
  }
  return { ...kind, path: full, size: st.size, mtimeMs: Math.trunc(st.mtimeMs) };
}

/**
 * The session a file belongs to: its path's answer, else its content's (each agent reads its own:
 * `providers/<agent>/`). Sets `kind.agent` when the content says another agent wrote it (a Codex
 * rollout renamed into a Claude Code tree). Null only for a file whose content names no session.
 */
export async function sessionIdOf(file: string, kind: TranscriptPath): Promise<string | null> {
  if (kind.sessionId !== null) return kind.sessionId;
  const found = await identifyFile(file, kind);
  if (found) kind.agent = found.agent;
  return found?.sessionId ?? null;
}
