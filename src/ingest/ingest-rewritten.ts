/**
 * Ingest of a session whose files are rewritten rather than only appended to (a provider with
 * `storage: 'rewritten'`: Gemini CLI). A byte offset means nothing in such a file, so:
 *
 * - each file's content hash is kept in the session cursor; a file whose hash is unchanged is not
 *   read again;
 * - when any file changed, the session is projected again from all its files as they are now (the
 *   files named, and those the cursor read before that still exist) with a fresh accumulator, and
 *   everything it produces replaces what was stored: the raw object (put whole), the chunks (their
 *   ids are the file and the chunk's ordinal, so a chunk is replaced, never duplicated; chunks a
 *   shorter file no longer fills are emptied), the summary. Three saves of a growing file thus
 *   leave exactly what one clean read of the last one leaves.
 * - a file caught half written (it does not parse, and it has changed in the last
 *   UNFINISHED_LINE_WAIT_MS) leaves the session as it was until the next change.
 * Events reconstructed from messages that a later save removed (a rewind) stay stored.
 *
 * A session of a store (`storage: 'store'`: OpenCode) is read the same way, from the objects the
 * provider made of it (`SessionFile.bytes`) rather than from files: an object that a later read no
 * longer lists (a child session deleted) stays stored, as a deleted file's does.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseTimestamp } from '../core/active-time.js';
import { docIds, MAIN_TRANSCRIPT } from '../core/doc-ids.js';
import type { ChunkDoc, EventDoc, ProjectedEntry } from '../core/documents.js';
import { emptyAccumulatorState } from '../core/transcript/accumulator-state.js';
import { createAccumulator } from '../core/transcript/session-accumulator.js';
import type { DocInput } from '../store/contract.js';
import {
  CHUNK_MAX_ENTRIES,
  commitWithRevs,
  freshCursor,
  markSecrets,
  UNFINISHED_LINE_WAIT_MS,
  type FileCursor,
  type IngestSessionOptions,
  type IngestSessionResult,
  type SessionCursor,
  type SessionFile,
} from './ingest-session.js';
import type { FileProjection, RewrittenProvider, StoreProvider } from './providers/provider.js';
import { classifyPath } from './providers/index.js';

interface ReadFile {
  file: SessionFile;
  bytes: Buffer;
  hash: string;
  size: number;
  mtimeMs: number;
  settled: boolean;
}

const sha1 = (bytes: Buffer) => createHash('sha1').update(bytes).digest('hex');

/** Reads a file whole; null when it is gone. */
async function readWhole(file: SessionFile): Promise<ReadFile | null> {
  // A store's object, made by its provider: as read just now, so settled.
  if (file.bytes)
    return {
      file,
      bytes: file.bytes,
      hash: sha1(file.bytes),
      size: file.bytes.length,
      mtimeMs: 0,
      settled: true,
    };
  try {
    const bytes = await readFile(file.path);
    const st = await stat(file.path);
    const mtimeMs = Math.trunc(st.mtimeMs);
    return {
      file,
      bytes,
      hash: sha1(bytes),
      size: bytes.length,
      mtimeMs,
      settled: Date.now() - mtimeMs > UNFINISHED_LINE_WAIT_MS,
    };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Writes `bytes` as object `key`, whole (from a copy: the file may be rewritten meanwhile). */
async function putWhole(options: IngestSessionOptions, key: string, bytes: Buffer): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'ct-rewritten-'));
  try {
    const copy = join(dir, 'file');
    await writeFile(copy, bytes);
    await options.sink.putFile(key, { path: copy, start: 0, end: bytes.length }, { offset: 0 });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function chunkDoc(
  sessionId: string,
  file: string,
  ordinal: number,
  entries: ProjectedEntry[],
): ChunkDoc & DocInput {
  const ts = entries.find((e) => parseTimestamp(e.timestamp) !== null)?.timestamp;
  return {
    // The ordinal, not a byte offset: the chunk that holds entries [200k, 200k + 200) keeps its id.
    _id: docIds.chunk(sessionId, file, ordinal),
    type: 'chunk',
    sessionId,
    timestamp: ts ? new Date(ts).toISOString() : '1970-01-01T00:00:00.000Z',
    file,
    byteStart: entries[0]?.byteStart ?? 0,
    byteEnd: entries.at(-1)?.byteEnd ?? 0,
    firstIndex: ordinal * CHUNK_MAX_ENTRIES,
    entryCount: entries.length,
    entries,
  };
}

export async function ingestRewritten(
  options: IngestSessionOptions,
  provider: RewrittenProvider | StoreProvider,
  stored: SessionCursor | null,
): Promise<IngestSessionResult> {
  const { sessionId, sink } = options;
  const result: IngestSessionResult = {
    sessionId,
    bytesRead: 0,
    entries: 0,
    docsWritten: 0,
    docsUnchanged: 0,
    conflicts: [],
    kept: [],
  };

  // The files named, and every other file of the session read before that is still there.
  const byObject = new Map<string, SessionFile>();
  // (A store's provider gives every object of the session each time.)
  if (provider.storage === 'rewritten')
    for (const [objectName, fc] of Object.entries(stored?.files ?? {}))
      byObject.set(objectName, { path: fc.path, objectName, agent: provider.id });
  const rank = (path: string) => classifyPath(path)?.rank ?? 0;
  for (const f of options.files) {
    // A lower-ranked copy touched again (Gemini's `.json` once its `.jsonl` took over) is not read.
    const known = byObject.get(f.objectName);
    if (known && known.path !== f.path && rank(known.path) > rank(f.path) && existsSync(known.path)) continue;
    byObject.set(f.objectName, f);
  }
  const read: ReadFile[] = [];
  for (const file of byObject.values()) {
    options.signal?.throwIfAborted();
    const r = await readWhole(file);
    if (r) read.push(r);
  }
  // Main first, then subagents by name, as the append-only path reads them.
  read.sort((a, b) =>
    a.file.objectName === MAIN_TRANSCRIPT
      ? -1
      : b.file.objectName === MAIN_TRANSCRIPT
        ? 1
        : a.file.objectName < b.file.objectName
          ? -1
          : 1,
  );
  const unchanged = (r: ReadFile) => {
    const prev = stored?.files[r.file.objectName];
    return prev?.hash === r.hash && prev.path === r.file.path;
  };
  if (read.every(unchanged)) {
    options.onParsed?.();
    return result;
  }

  await options.ready?.();
  const projected: Array<{ r: ReadFile; entries: NonNullable<FileProjection> }> = [];
  for (const r of read) {
    const entries = provider.projectFile(r.bytes, { path: r.file.path, settled: r.settled });
    if (entries === null) {
      // Half written: nothing changes until it is whole (or settles).
      options.onParsed?.();
      return result;
    }
    projected.push({ r, entries });
  }

  // Provenance as for appended files: a session that changes under a live recorder is live.
  const cursor: SessionCursor = freshCursor(options, provider.id);
  if (stored && !(options.provenance === 'live' && stored.init.provenance !== 'live'))
    cursor.init = { ...stored.init, agent: provider.id };
  // Re-projected whole, so counted whole; not counting leaves them unknown, as for appended files.
  const acc = createAccumulator(
    cursor.init,
    options.countSecrets === false ? { ...emptyAccumulatorState(), secrets: undefined } : undefined,
  );
  const docs: DocInput[] = [];
  for (const { r, entries } of projected) {
    const name = r.file.objectName;
    const kind = provider.sessionMeta ? classifyPath(r.file.path) : null;
    const meta = kind && provider.sessionMeta ? await provider.sessionMeta(r.file.path, kind) : {};
    for (const { entry, record } of entries) {
      await markSecrets(entry, options);
      for (const ev of acc.add(entry, record && { ...record, ...meta }, name))
        docs.push(ev as EventDoc as DocInput);
    }
    const previous = stored?.files[name]?.entries ?? 0;
    const chunks = Math.ceil(entries.length / CHUNK_MAX_ENTRIES);
    const stale = Math.ceil(previous / CHUNK_MAX_ENTRIES);
    for (let k = 0; k < Math.max(chunks, stale); k++) {
      const slice = entries.slice(k * CHUNK_MAX_ENTRIES, (k + 1) * CHUNK_MAX_ENTRIES).map((e) => e.entry);
      docs.push(chunkDoc(sessionId, name, k, slice));
    }
    acc.setFile(name, r.size, entries.length);
    const fc: FileCursor = {
      path: r.file.path,
      size: r.size,
      mtimeMs: r.mtimeMs,
      offset: r.size,
      entries: entries.length,
      openChunk: null,
      hash: r.hash,
    };
    cursor.files[name] = fc;
    result.entries += entries.length;
    result.bytesRead += r.size;
    options.onBytes?.(r.size);
    if (!unchanged(r) || !stored?.files[name]) await putWhole(options, `${sessionId}/${name}`, r.bytes);
  }
  options.onParsed?.();
  cursor.state = acc.state();
  await commitWithRevs(sink, [...docs, acc.summary() as DocInput], cursor, result);
  return result;
}
