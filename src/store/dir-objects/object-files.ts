/**
 * File-level helpers of the directory object store: streaming with a running sha256, opening
 * and stat-ing without racing a concurrent delete, and durable renames.
 */
import { createHash } from 'node:crypto';
import type { Dirent, Stats } from 'node:fs';
import { open, readdir, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { Body } from '../objects-common/object-body.js';
import { StoreInputError } from '../contract.js';

/** Directories read, and files stat-ed, at once by `filesUnder`. */
const WALK_CONCURRENCY = 64;

/**
 * Every file under `dir` (absent: none) with its stat, unordered. Directories and files are read
 * a batch at a time: Node's recursive readdir reads one directory after another, and the object
 * tree has one per session (1,662 objects: 350 ms walked that way, 70 ms this way).
 */
export async function filesUnder(dir: string): Promise<Array<{ path: string; info: Stats }>> {
  const paths: string[] = [];
  let dirs = [dir];
  while (dirs.length > 0) {
    const next: string[] = [];
    for (let i = 0; i < dirs.length; i += WALK_CONCURRENCY) {
      const listed = await Promise.all(dirs.slice(i, i + WALK_CONCURRENCY).map(entriesIfDir));
      listed.forEach((entries, j) => {
        const parent = dirs[i + j]!;
        for (const e of entries) {
          if (e.isDirectory()) next.push(join(parent, e.name));
          else if (e.isFile()) paths.push(join(parent, e.name));
        }
      });
    }
    dirs = next;
  }
  const out: Array<{ path: string; info: Stats }> = [];
  for (let i = 0; i < paths.length; i += WALK_CONCURRENCY) {
    const infos = await Promise.all(paths.slice(i, i + WALK_CONCURRENCY).map(statIfFile));
    infos.forEach((info, j) => {
      if (info) out.push({ path: paths[i + j]!, info }); // null: deleted meanwhile
    });
  }
  return out;
}

/** A directory's entries; none when it is gone (deleted meanwhile, or never created). */
export async function entriesIfDir(dir: string): Promise<Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw err;
  }
}

export async function writeStream(
  fh: FileHandle,
  body: Body,
  position: number,
): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of body as AsyncIterable<Uint8Array | string>) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    hash.update(bytes);
    let done = 0;
    while (done < bytes.byteLength) {
      const { bytesWritten } = await fh.write(bytes, done, bytes.byteLength - done, position + size + done);
      done += bytesWritten;
    }
    size += bytes.byteLength;
  }
  return { size, sha256: hash.digest('hex') };
}

export async function openIfFile(path: string): Promise<FileHandle | null> {
  let fh: FileHandle;
  try {
    fh = await open(path, 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return null;
    throw err;
  }
  if (!(await fh.stat()).isFile()) {
    await fh.close();
    return null;
  }
  return fh;
}

export async function statIfFile(path: string): Promise<Stats | null> {
  try {
    const info = await stat(path);
    return info.isFile() ? info : null;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw err;
  }
}

/** Makes a rename durable (POSIX); platforms that cannot fsync a directory skip it. */
export async function syncDir(dir: string): Promise<void> {
  let fh: FileHandle | undefined;
  try {
    fh = await open(dir, 'r');
    await fh.sync();
  } catch {
    // best effort: the data itself was fsynced before the rename
  } finally {
    await fh?.close();
  }
}

/** A key that collides with a directory (or a file used as one) is the caller's mistake. */
export function asInputError(err: unknown, key: string): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EISDIR' || code === 'ENOTDIR' || code === 'EEXIST' || code === 'ENOTEMPTY') {
    return new StoreInputError(`object key "${key}" collides with an existing object or directory`);
  }
  return err;
}
