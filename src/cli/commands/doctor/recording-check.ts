/**
 * Doctor's end-to-end check of recording: is the newest Claude Code transcript on this machine
 * stored, up to its last line? Whatever records it (the server's watcher, the hooks, a backfill),
 * a transcript that stopped being recorded shows here. Finding the newest file reads the projects
 * directory and the few most recently changed project folders, never the whole tree.
 */
import { open, readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Session } from '../../../client/api-client.js';
import { formatBytes } from '../shared/format.js';
import { check, type CheckResult } from './check.js';

/** Project folders looked into, most recently changed first (a new session file changes its folder). */
const FOLDERS = 5;
/** A file changed this recently may be mid-write, or just not picked up yet. */
const SETTLE_MS = 10_000;

export interface NewestTranscript {
  path: string;
  sessionId: string;
  mtimeMs: number;
  /** Bytes up to its last newline (a line still being written is not expected to be stored). */
  bytes: number;
}

export async function findNewestTranscript(projectsDir: string): Promise<NewestTranscript | null> {
  const folders = await readdir(projectsDir, { withFileTypes: true }).catch(() => []);
  const dated = await Promise.all(
    folders
      .filter((d) => d.isDirectory() || d.isSymbolicLink())
      .map(async (d) => ({
        path: join(projectsDir, d.name),
        st: await stat(join(projectsDir, d.name)).catch(() => null),
      })),
  );
  const recent = dated
    .filter((d) => d.st?.isDirectory())
    .sort((a, b) => b.st!.mtimeMs - a.st!.mtimeMs)
    .slice(0, FOLDERS);
  let newest: { path: string; mtimeMs: number; size: number } | null = null;
  for (const folder of recent) {
    for (const name of await readdir(folder.path).catch(() => [] as string[])) {
      if (!name.endsWith('.jsonl') || name.startsWith('agent-')) continue;
      const st = await stat(join(folder.path, name)).catch(() => null);
      if (st?.isFile() && (!newest || st.mtimeMs > newest.mtimeMs))
        newest = { path: join(folder.path, name), mtimeMs: st.mtimeMs, size: st.size };
    }
  }
  if (!newest) return null;
  return {
    path: newest.path,
    sessionId: basename(newest.path, '.jsonl'),
    mtimeMs: newest.mtimeMs,
    bytes: await completeBytes(newest.path, newest.size),
  };
}

/** The size up to the last newline, read from the file's last 64 KiB. */
async function completeBytes(path: string, size: number): Promise<number> {
  const tail = Math.min(size, 64 * 1024);
  const fh = await open(path, 'r').catch(() => null);
  if (!fh) return size;
  try {
    const buf = Buffer.alloc(tail);
    await fh.read(buf, 0, tail, size - tail);
    const nl = buf.lastIndexOf(0x0a);
    return nl < 0 ? size : size - tail + nl + 1;
  } finally {
    await fh.close();
  }
}

export interface RecordingFacts {
  projectsDir: string;
  newest: NewestTranscript | null;
  /** The stored session (undefined: not asked, the API does not answer; null: not stored). */
  stored: Session | null | undefined;
  now: number;
}

export function assessRecording(f: RecordingFacts): CheckResult {
  const c = check('recording', 'live', 'recording');
  if (!f.newest) return c.skip(`no transcripts in ${f.projectsDir}`);
  if (f.stored === undefined) return c.skip('not checked: the API does not answer');
  const n = f.newest;
  const when = new Date(n.mtimeMs).toISOString().slice(0, 19).replace('T', ' ');
  const what = `the newest transcript, ${n.path} (changed ${when} UTC)`;
  const have = f.stored?.files.find((x) => x.name === 'transcript.jsonl')?.bytes ?? 0;
  if (f.stored && have >= n.bytes) return c.ok(`${what}, is stored to its last line`);
  if (f.now - n.mtimeMs < SETTLE_MS)
    return c.ok(
      `${what} is being written; ${f.stored ? `${formatBytes(have)} stored so far` : 'not stored yet'}`,
    );
  return c.warn(
    f.stored
      ? `${what}, is stored only up to ${formatBytes(have)} of ${formatBytes(n.bytes)}: nothing recorded its last lines`
      : `${what}, is not stored: neither the server's watcher nor the hooks recorded it`,
    'transcripts backfill (stores it now; the hooks and service lines say why it was missed)',
  );
}
