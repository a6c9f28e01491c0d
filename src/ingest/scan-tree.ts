/**
 * Finds the transcript files of a `~/.claude/projects`-style tree (or `~/.codex/sessions`) and
 * says what each one is (transcript-path.ts).
 */
import { open, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { classifyTranscriptPath, type TranscriptPath } from './transcript-path.js';

export interface ScannedFile extends TranscriptPath {
  /** Absolute path. */
  path: string;
  size: number;
  mtimeMs: number;
}

/**
 * Walks `root` and classifies every `.jsonl` file. Symbolic links are followed, as the other
 * tools reading this tree do (a project folder moved to another disk and linked back is still
 * history); files keep the path they have under `root`, and a folder reached twice (a link back
 * up the tree) is walked once. Dangling links, FIFOs and the like are passed over.
 */
export async function scanTree(root: string): Promise<ScannedFile[]> {
  const out: ScannedFile[] = [];
  await walk(path.resolve(root), out, new Set());
  out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return out;
}

async function walk(dir: string, out: ScannedFile[], walked: Set<string>): Promise<void> {
  let entries;
  try {
    const real = await realpath(dir);
    if (walked.has(real)) return;
    walked.add(real);
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return; // vanished or unreadable: the caller reports files, not folders
  }
  // In name order, so a folder reached twice is always walked by the same path.
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    // A link counts as what it points at; a dangling one as nothing.
    const kind = entry.isSymbolicLink() ? await stat(full).catch(() => null) : entry;
    if (kind?.isDirectory()) {
      await walk(full, out, walked);
    } else if (kind?.isFile() && entry.name.endsWith('.jsonl')) {
      const file = await classify(full);
      if (file) out.push(file);
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

/**
 * The parent session of an older subagent file: the first `sessionId` found in its first lines
 * (reads at most 256 KiB). Null when none is found.
 */
export async function readParentSessionId(file: string): Promise<string | null> {
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(256 * 1024);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    const text = buf.subarray(0, bytesRead).toString('utf8');
    for (const line of text.split('\n')) {
      try {
        const rec = JSON.parse(line) as unknown;
        if (
          rec &&
          typeof rec === 'object' &&
          typeof (rec as { sessionId?: unknown }).sessionId === 'string'
        ) {
          const id = (rec as { sessionId: string }).sessionId;
          if (id) return id;
        }
      } catch {
        // a partial or malformed line: keep looking
      }
    }
    return null;
  } finally {
    await fh.close();
  }
}
