/**
 * Finds the transcript files of a `~/.claude/projects`-style tree (or `~/.codex/sessions`) and
 * says what each one is (transcript-path.ts).
 */
import { constants } from 'node:fs';
import { access, open, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { classifyTranscriptPath, isSessionUuid, stemOf, type TranscriptPath } from './transcript-path.js';

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
      await walk(full, out, walked, folders, skipped);
    } else if (kind?.isFile() && entry.name.endsWith('.jsonl')) {
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
  let st;
  try {
    st = await stat(full);
  } catch {
    return null;
  }
  const kind = classifyTranscriptPath(full);
  return kind && { ...kind, path: full, size: st.size, mtimeMs: Math.trunc(st.mtimeMs) };
}

/** How much of a file's head, and of its tail, is read to learn its session. */
const PEEK_BYTES = 256 * 1024;

/**
 * The session a transcript belongs to. Its path says, except (kind.sessionId null):
 * - for an older subagent file, whose first lines carry the parent's `sessionId`;
 * - for a main transcript not named by its id, whose own lines say: a Codex rollout's first
 *   `session_meta` id, else the uuid `sessionId` of the last line that has one (the session
 *   writing the file: lines copied from an earlier session come first), else the file's stem.
 * Null only for a subagent file whose lines name no session.
 */
export async function sessionIdOf(file: string, kind: TranscriptPath): Promise<string | null> {
  if (kind.sessionId !== null) return kind.sessionId;
  const { head, tail } = await peek(file);
  if (kind.kind === 'subagent') {
    for (const rec of head) {
      const id = rec.sessionId;
      if (typeof id === 'string' && id) return id;
    }
    return null;
  }
  for (const rec of head) {
    const meta =
      rec.type === 'session_meta' ? (rec.payload as Record<string, unknown> | undefined) : undefined;
    if (typeof meta?.id === 'string' && isSessionUuid(meta.id)) return meta.id.toLowerCase();
  }
  for (const recs of [tail, head]) {
    for (let i = recs.length - 1; i >= 0; i--) {
      const id = recs[i]!.sessionId;
      if (typeof id === 'string' && isSessionUuid(id)) return id.toLowerCase();
    }
  }
  return stemOf(file);
}

type Rec = Record<string, unknown>;

/** The records that parse in the file's first and last PEEK_BYTES (the same ones when it is small). */
async function peek(file: string): Promise<{ head: Rec[]; tail: Rec[] }> {
  const fh = await open(file, 'r');
  try {
    const { size } = await fh.stat();
    const read = async (start: number) => {
      const buf = Buffer.alloc(Math.min(PEEK_BYTES, size - start));
      const { bytesRead } = await fh.read(buf, 0, buf.length, start);
      return buf.subarray(0, bytesRead).toString('utf8').split('\n');
    };
    const headLines = await read(0);
    const head = records(headLines);
    if (size <= PEEK_BYTES) return { head, tail: head };
    // The tail starts inside a line: its first piece is not a record.
    return { head, tail: records((await read(size - PEEK_BYTES)).slice(1)) };
  } finally {
    await fh.close();
  }
}

function records(lines: string[]): Rec[] {
  const out: Rec[] = [];
  for (const line of lines) {
    try {
      const rec = JSON.parse(line) as unknown;
      if (rec && typeof rec === 'object' && !Array.isArray(rec)) out.push(rec as Rec);
    } catch {
      // a partial or malformed line: not evidence either way
    }
  }
  return out;
}
