/**
 * Objects as plain files under `<root>/<sessionId>/<name>`. A whole-object put streams into a
 * temp file under `<uploads>` (same directory tree, so the same filesystem), fsyncs and renames
 * it over the target: readers see the old object or the new one, never half of either. An offset
 * put appends in place (a growing transcript) and is undone back to the offset on failure.
 */
import { randomBytes } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import {
  chmod,
  copyFile,
  mkdir,
  open,
  readdir,
  rename,
  rm,
  rmdir,
  stat,
  unlink,
  type FileHandle,
} from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { Readable } from 'node:stream';
import { objectKeyProblem, sessionIdProblem } from '../../core/object-key.js';
import {
  StoreInputError,
  type FileRange,
  type ObjectInfo,
  type ObjectStore,
  type PutObjectOptions,
  type PutObjectResult,
} from '../contract.js';
import { checkFileRange, fileRangeBytes, shortFileError } from '../objects-common/file-range.js';
import { checkPage } from '../objects-common/list-page.js';
import { markLocalFile } from '../objects-common/local-file.js';
import { checkSha256, type Body } from '../objects-common/object-body.js';
import {
  asInputError,
  entriesIfDir,
  filesUnder,
  openIfFile,
  statIfFile,
  syncDir,
  writeStream,
} from './object-files.js';

/** Bytes per read when an object is streamed out: a quarter as many pieces as the 64 KiB default. */
const READ_CHUNK = 256 * 1024;

/** Sessions listed at once by `listPage`. */
const LIST_BATCH = 16;

/** Temp files older than this at open belong to a process that died mid-put. */
const STALE_UPLOAD_MS = 60 * 60 * 1000;

export interface DirObjectStoreOptions {
  /** Where objects live: `<root>/<sessionId>/<name>`. */
  root: string;
  /** Temp files of in-flight puts; must be on the same filesystem as `root`. */
  uploads: string;
}

export class DirObjectStore implements ObjectStore {
  readonly #root: string;
  readonly #uploads: string;

  private constructor(options: DirObjectStoreOptions) {
    this.#root = options.root;
    this.#uploads = options.uploads;
  }

  /** Creates the directories and clears temp files left by a crashed process. */
  static async open(options: DirObjectStoreOptions): Promise<DirObjectStore> {
    await mkdir(options.root, { recursive: true });
    await mkdir(options.uploads, { recursive: true });
    const now = Date.now();
    for (const name of await readdir(options.uploads)) {
      const file = join(options.uploads, name);
      const info = await stat(file).catch(() => null);
      if (info && now - info.mtimeMs > STALE_UPLOAD_MS) await rm(file, { force: true });
    }
    return new DirObjectStore(options);
  }

  async put(key: string, body: Body, options: PutObjectOptions = {}): Promise<PutObjectResult> {
    const path = this.#path(key);
    const expected = checkSha256(options.sha256);
    const offset = options.offset ?? 0;
    if (!Number.isInteger(offset) || offset < 0)
      throw new StoreInputError('offset must be a non-negative integer');
    return offset === 0
      ? this.#replace(key, path, body, expected)
      : this.#append(key, path, offset, body, expected);
  }

  async putFile(
    key: string,
    source: FileRange,
    options: { offset?: number } = {},
  ): Promise<{ key: string; size: number }> {
    checkFileRange(source);
    const offset = options.offset ?? 0;
    // A whole transcript (a first ingest) is copied by the kernel; an append streams its tail.
    if (offset === 0 && source.start === 0 && source.end > 0) {
      const path = this.#path(key);
      return this.#copy(key, path, source);
    }
    const { size } = await this.put(key, fileRangeBytes(source), { offset });
    return { key, size };
  }

  async get(key: string, range: { start?: number; end?: number } = {}): Promise<Readable | null> {
    const path = this.#path(key);
    const start = range.start ?? 0;
    if (!Number.isInteger(start) || start < 0)
      throw new StoreInputError('range start must be a non-negative integer');
    if (range.end !== undefined && (!Number.isInteger(range.end) || range.end < start)) {
      throw new StoreInputError('range end must be an integer not below start');
    }
    // Opening first pins the inode: a concurrent replace renames a new file in, and this reader
    // keeps streaming the complete old one.
    const fh = await openIfFile(path);
    if (!fh) return null;
    const size = (await fh.stat()).size;
    const end = Math.min(range.end ?? size, size);
    if (end <= start) {
      await fh.close();
      return Readable.from([]);
    }
    const stream = fh.createReadStream({ start, end: end - 1, autoClose: true, highWaterMark: READ_CHUNK });
    return markLocalFile(stream, { handle: fh, start, end });
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    const info = await statIfFile(this.#path(key));
    return info ? { key, size: info.size, mtime: info.mtime.toISOString() } : null;
  }

  async list(sessionId: string): Promise<ObjectInfo[]> {
    const problem = sessionIdProblem(sessionId);
    if (problem) throw new StoreInputError(problem);
    const dir = join(this.#root, sessionId);
    const out = (await filesUnder(dir)).map(({ path, info }) => ({
      key: `${sessionId}/${path
        .slice(dir.length + 1)
        .split(sep)
        .join('/')}`,
      size: info.size,
      mtime: info.mtime.toISOString(),
    }));
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async listPage(options: { after?: string; limit: number }): Promise<ObjectInfo[]> {
    const { after, limit } = checkPage(options);
    // Keys sort as strings, and `<session>/` is each one's start: a session whose id continues
    // with a character below '/' (such as '-') sorts before the shorter id it extends.
    const sessions = (await entriesIfDir(this.#root))
      .filter((e) => e.isDirectory() && sessionIdProblem(e.name) === null)
      .map((e) => `${e.name}/`)
      .sort()
      .filter((prefix) => after === undefined || prefix > after || after.startsWith(prefix));
    const out: ObjectInfo[] = [];
    // A few sessions listed at once: each is a directory walk and a stat per file.
    for (let i = 0; i < sessions.length && out.length < limit; i += LIST_BATCH) {
      const listed = await Promise.all(
        sessions.slice(i, i + LIST_BATCH).map((p) => this.list(p.slice(0, -1))),
      );
      for (const o of listed.flat()) {
        if (after !== undefined && o.key <= after) continue;
        out.push(o);
        if (out.length === limit) break;
      }
    }
    return out;
  }

  async delete(key: string): Promise<boolean> {
    const path = this.#path(key);
    if (!(await statIfFile(path))) return false;
    try {
      await unlink(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
    await this.#removeEmptyDirs(dirname(path));
    return true;
  }

  /** Object count and bytes, for `Store.stats()`. */
  async totals(): Promise<{ objects: number; objectBytes: number }> {
    const files = await filesUnder(this.#root);
    return { objects: files.length, objectBytes: files.reduce((n, f) => n + f.info.size, 0) };
  }

  #path(key: string): string {
    const problem = objectKeyProblem(key);
    if (problem) throw new StoreInputError(problem);
    return join(this.#root, ...key.split('/'));
  }

  #tempPath(): string {
    return join(this.#uploads, `${Date.now()}-${randomBytes(8).toString('hex')}.part`);
  }

  /** Moves a complete, fsynced temp file over the object, durably. */
  async #commitTemp(key: string, path: string, temp: string): Promise<void> {
    try {
      await mkdir(dirname(path), { recursive: true });
      await rename(temp, path);
    } catch (err) {
      await rm(temp, { force: true });
      throw asInputError(err, key);
    }
    await syncDir(dirname(path));
  }

  /**
   * A whole-object put by copy_file_range (a reflink where the filesystem has them): no byte
   * passes through this process. The file may have grown since its size was taken, so the copy
   * is cut back to the range's end.
   */
  async #copy(key: string, path: string, source: FileRange): Promise<{ key: string; size: number }> {
    const temp = this.#tempPath();
    // Created here first: the copy takes its source's mode, and an object gets the usual one.
    const created = await open(temp, 'wx');
    let mode: number;
    try {
      mode = (await created.stat()).mode & 0o7777;
    } finally {
      await created.close();
    }
    try {
      await copyFile(source.path, temp, fsConstants.COPYFILE_FICLONE);
      await chmod(temp, mode);
      const fh = await open(temp, 'r+');
      try {
        const size = (await fh.stat()).size;
        if (size < source.end) throw shortFileError(source, size);
        if (size > source.end) await fh.truncate(source.end);
        await fh.sync();
      } finally {
        await fh.close();
      }
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
    await this.#commitTemp(key, path, temp);
    return { key, size: source.end };
  }

  async #replace(key: string, path: string, body: Body, expected: string | null): Promise<PutObjectResult> {
    const temp = this.#tempPath();
    const fh = await open(temp, 'wx');
    let written: { size: number; sha256: string };
    try {
      written = await writeStream(fh, body, 0);
      if (expected && written.sha256 !== expected) {
        throw new StoreInputError(
          `sha256 mismatch for ${key}: expected ${expected}, received ${written.sha256}`,
        );
      }
      await fh.sync();
      await fh.close();
    } catch (err) {
      await fh.close().catch(() => undefined);
      await rm(temp, { force: true });
      throw err;
    }
    await this.#commitTemp(key, path, temp);
    return { key, size: written.size, sha256: written.sha256 };
  }

  async #append(
    key: string,
    path: string,
    offset: number,
    body: Body,
    expected: string | null,
  ): Promise<PutObjectResult> {
    let fh: FileHandle;
    try {
      fh = await open(path, fsConstants.O_RDWR);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new StoreInputError(
          `cannot write ${key} at offset ${offset}: the object does not exist (0 bytes)`,
        );
      }
      throw asInputError(err, key);
    }
    try {
      const size = (await fh.stat()).size;
      if (size < offset) {
        throw new StoreInputError(
          `cannot write ${key} at offset ${offset}: the object holds only ${size} bytes`,
        );
      }
      let written: { size: number; sha256: string };
      try {
        written = await writeStream(fh, body, offset);
        if (expected && written.sha256 !== expected) {
          throw new StoreInputError(
            `sha256 mismatch for ${key}: expected ${expected}, received ${written.sha256}`,
          );
        }
      } catch (err) {
        // Undo what this call appended; the first `offset` bytes were never touched.
        await fh.truncate(offset);
        await fh.sync();
        throw err;
      }
      await fh.truncate(offset + written.size);
      await fh.sync();
      return { key, size: offset + written.size, sha256: written.sha256 };
    } finally {
      await fh.close();
    }
  }

  /** Removes now-empty directories up to (and including) the session directory. */
  async #removeEmptyDirs(dir: string): Promise<void> {
    while (dir.startsWith(this.#root + sep)) {
      try {
        await rmdir(dir);
      } catch {
        return; // not empty (or already gone): stop climbing
      }
      dir = dirname(dir);
    }
  }
}
