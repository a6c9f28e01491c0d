/**
 * Ingests the transcript files of one session (main transcript and subagent files) into a sink
 * (what follows is for append-only files; a session of an agent that rewrites its files is read by
 * ingest-rewritten.ts):
 * the raw bytes as objects, projected entries as chunk documents, the summary and reconstructed
 * events. Incremental and crash-safe:
 *
 * - A per-session cursor (`_local/ingest:<sessionId>`) records, per file, the bytes consumed,
 *   the entries seen and the open (not yet full) last chunk, plus the summary accumulator's state.
 * - A re-run reads only bytes after the cursor; an append extends the open chunk (same id, so it
 *   is replaced, never duplicated) and adds new ones.
 * - Objects are written before documents; documents and the cursor are committed together in one
 *   transaction. A process killed at any point leaves either the old cursor (and the re-run
 *   rewrites the same bytes and documents) or the new one.
 * - Transcripts only grow. A file now shorter than what was stored (truncated, or an older copy
 *   put back), or whose bytes before the cursor are no longer those read (another file under the
 *   same name), is not read: what was stored is kept, as for a deleted file, and the file is
 *   reported in `kept`. Continuing it would splice two files into one transcript; starting over
 *   would throw away history. A file put back whole (and grown) is continued.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { parseTimestamp } from '../core/active-time.js';
import { docIds, MAIN_TRANSCRIPT } from '../core/doc-ids.js';
import type { ChunkDoc, EventDoc, ProjectedEntry } from '../core/documents.js';
import { sessionIdProblem } from '../core/object-key.js';
import {
  createAccumulator,
  type AccumulatorInit,
  type AccumulatorState,
} from '../core/transcript/session-accumulator.js';
import { projectLine } from '../core/transcript/project-entry.js';
import { splitLines } from '../core/transcript/split-lines.js';
import { countEntrySecrets, entryNeedsScan } from '../secrets/entry-secrets.js';
import type { SecretPattern } from '../secrets/scan.js';
import type { DocInput, WriteResult } from '../store/contract.js';
import { ingestRewritten } from './ingest-rewritten.js';
import { providerById, type AgentId } from './providers/index.js';
import type { IngestSink } from './sink.js';

/** A chunk closes at this many entries or raw bytes, whichever comes first. */
export const CHUNK_MAX_ENTRIES = 200;
export const CHUNK_MAX_BYTES = 2 * 1024 * 1024;
/**
 * A commit goes out after this many closed chunks or this many of their raw bytes, whichever
 * comes first: bounds memory on huge files (a batch is held as parsed entries, encoded bodies and
 * the writer's copy at once) and the work lost to a crash. The byte bound matters for
 * transcripts of megabyte lines, whose chunks close on bytes (2 MB) rather than on entries.
 */
const FLUSH_EVERY_CHUNKS = 8;
const FLUSH_EVERY_BYTES = 6 * 1024 * 1024;

export interface SessionFile {
  path: string;
  /** `transcript.jsonl` or `subagents/<file>.jsonl`. */
  objectName: string;
  /** The agent that wrote it (by its path, or its content: `providers/`); Claude Code when unsaid. */
  agent?: AgentId;
  /**
   * A store's session object (`storage: 'store'`: OpenCode), as its provider made it: read from
   * here, not from `path`, which names the store.
   */
  bytes?: Buffer;
}

export interface FileCursor {
  path: string;
  size: number;
  mtimeMs: number;
  /** Bytes consumed: the end of the last complete line. */
  offset: number;
  /** Entries seen so far: the index of the next entry. */
  entries: number;
  /** The last chunk when it is not full yet: an append extends it. */
  openChunk: { id: string; entries: number; bytes: number } | null;
  /**
   * SHA-1 of the bytes just before `offset` (up to TAIL_BYTES): a file continued must still hold
   * them. Absent in cursors written before it existed (the file is then trusted).
   */
  tail?: string;
  /** A rewritten file (ingest-rewritten.ts): SHA-1 of all of it as last read. */
  hash?: string;
}

export interface SessionCursor {
  v: 1;
  init: AccumulatorInit;
  state: AccumulatorState;
  files: Record<string, FileCursor>;
}

export interface IngestSessionOptions {
  sessionId: string;
  files: SessionFile[];
  sink: IngestSink;
  hostname: string;
  source: string;
  provenance: 'live' | 'backfilled';
  /** Called with bytes consumed as the session's files are read. */
  onBytes?: (bytes: number) => void;
  /**
   * Awaited before the first line is parsed, once the raw bytes are writing: the caller may hold
   * the session there until it has room for one more session's entries in memory.
   */
  ready?: () => Promise<void>;
  /** Called once every file is read, before the last commit: the parsing is over. */
  onParsed?: () => void;
  signal?: AbortSignal;
  /** config.json's `secrets.patterns`, counted beside secretlint's rules (secrets/entry-secrets.ts). */
  secretPatterns?: readonly SecretPattern[];
  /** False leaves secrets uncounted (the summary then says nothing of them): the bench's baseline. */
  countSecrets?: boolean;
}

export interface IngestSessionResult {
  sessionId: string;
  bytesRead: number;
  entries: number;
  docsWritten: number;
  docsUnchanged: number;
  /** Event documents that already existed with other content (kept, not overwritten). */
  conflicts: string[];
  /** Files not read because they no longer continue what was stored (which is kept). */
  kept: Array<{ path: string; objectName: string; reason: string }>;
  /** The session is forgotten (it has a tombstone): nothing was read or written. */
  forgotten?: boolean;
}

/** How much of a file before its cursor is fingerprinted (`FileCursor.tail`). */
const TAIL_BYTES = 4096;

/**
 * A final line without its newline that does not parse is waited for while it may still be
 * being written; once the file has not changed for this long, it never will be (a truncated file:
 * a crash, a full disk, a cut copy) and the line is taken as it is, a malformed entry, so that it
 * is shown and counted (DESIGN §3) instead of hidden for good. Claude Code writes a line in one
 * append, so a half-written line is seen only for moments.
 */
export const UNFINISHED_LINE_WAIT_MS = 5 * 60_000;

/** The fingerprint of `path`'s bytes before `end`; null when the file is shorter than that. */
async function tailOf(path: string, end: number): Promise<string | null> {
  const start = Math.max(0, end - TAIL_BYTES);
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(end - start);
    const { bytesRead } = await fh.read(buf, 0, buf.length, start);
    return bytesRead === buf.length ? createHash('sha1').update(buf).digest('hex') : null;
  } finally {
    await fh.close();
  }
}

export const cursorId = (sessionId: string) => `_local/ingest:${sessionId}`;

export class IngestError extends Error {
  override name = 'IngestError';
}

export async function ingestSession(options: IngestSessionOptions): Promise<IngestSessionResult> {
  const { sessionId, sink } = options;
  const problem = sessionIdProblem(sessionId);
  if (problem) throw new IngestError(problem);

  // A forgotten session is not read at all (the store refuses its writes anyway; see store/forget.ts).
  if (await sink.getDoc(`tombstone:${sessionId}`)) {
    return {
      sessionId,
      bytesRead: 0,
      entries: 0,
      docsWritten: 0,
      docsUnchanged: 0,
      conflicts: [],
      kept: [],
      forgotten: true,
    };
  }
  const stored = await sink.getLocal<SessionCursor>(cursorId(sessionId));
  // The agent is decided once, when the session is first read; cursors from before it was kept
  // learn it now (in place: no write for it alone).
  const agent = stored?.init.agent ?? options.files.find((f) => f.agent)?.agent ?? 'claude-code';
  if (stored?.v === 1) stored.init.agent ??= agent;
  const provider = providerById(agent as AgentId);
  if (provider.storage !== 'append-only')
    return ingestRewritten(options, provider, stored?.v === 1 ? stored : null);
  let cursor: SessionCursor = stored?.v === 1 ? stored : freshCursor(options, agent);

  // A session first ingested afterwards (backfill) that grows under a live recorder (hook,
  // watcher) is being recorded while it runs: from now on its provenance is live.
  if (options.provenance === 'live' && cursor.init.provenance !== 'live') {
    for (const file of options.files) {
      if ((await stat(file.path)).size > (cursor.files[file.objectName]?.offset ?? 0)) {
        cursor = { ...cursor, init: { ...cursor.init, provenance: 'live' } };
        break;
      }
    }
  }

  // Not counting secrets is remembered as not knowing them (secrets/entry-secrets.ts).
  if (options.countSecrets === false && cursor.state.secrets)
    cursor = { ...cursor, state: { ...cursor.state, secrets: undefined } };
  const acc = createAccumulator(cursor.init, cursor.state);
  const result: IngestSessionResult = {
    sessionId,
    bytesRead: 0,
    entries: 0,
    docsWritten: 0,
    docsUnchanged: 0,
    conflicts: [],
    kept: [],
  };
  const pendingDocs: DocInput[] = [];
  let closedSinceFlush = 0;
  let bytesSinceFlush = 0;

  const objectWrites: Array<Promise<unknown>> = [];
  const flush = async () => {
    await Promise.all(objectWrites);
    cursor = { ...cursor, state: acc.state() };
    const summary = acc.summary();
    await commitWithRevs(sink, [...pendingDocs, summary as DocInput], cursor, result);
    pendingDocs.length = 0;
    closedSinceFlush = 0;
    bytesSinceFlush = 0;
  };

  // Main transcript first, then subagents by name: a fixed order keeps re-runs deterministic.
  const files = [...options.files].sort((a, b) =>
    a.objectName === MAIN_TRANSCRIPT
      ? -1
      : b.objectName === MAIN_TRANSCRIPT
        ? 1
        : a.objectName < b.objectName
          ? -1
          : 1,
  );

  // First every changed file's raw bytes are set writing, then the files are parsed: a caller
  // that bounds how many sessions parse at once (`ready`) lets the writes of waiting sessions run
  // meanwhile, so a commit seldom waits on them.
  let unchanged = 0;
  const changed: Array<{
    file: SessionFile;
    size: number;
    mtimeMs: number;
    settled: boolean;
    fc: FileCursor;
  }> = [];
  for (const file of files) {
    options.signal?.throwIfAborted();
    const st = await stat(file.path);
    const size = st.size;
    const mtimeMs = Math.trunc(st.mtimeMs);
    const prev = cursor.files[file.objectName];
    const settled = Date.now() - mtimeMs > UNFINISHED_LINE_WAIT_MS;
    // Unchanged, unless an unfinished last line left aside has settled since.
    const unfinished = prev !== undefined && prev.offset < size && settled;
    if (prev && prev.size === size && prev.mtimeMs === mtimeMs && prev.path === file.path && !unfinished) {
      unchanged++;
      continue;
    }
    if (prev && prev.offset > 0) {
      const reason =
        size < prev.offset
          ? `it is ${size} bytes, shorter than the ${prev.offset} stored`
          : prev.tail !== undefined && (await tailOf(file.path, prev.offset)) !== prev.tail
            ? `its first ${prev.offset} bytes are no longer those stored`
            : null;
      if (reason) {
        unchanged++;
        // Another file naming the same session (a renamed copy, a second tree) says which one.
        const from = prev.path === file.path ? '' : `session ${sessionId} was read from ${prev.path}, and `;
        result.kept.push({ path: file.path, objectName: file.objectName, reason: from + reason });
        continue;
      }
    }

    const fc: FileCursor = prev
      ? { ...prev, path: file.path }
      : { path: file.path, size: 0, mtimeMs: 0, offset: 0, entries: 0, openChunk: null };

    // Raw bytes (everything up to the size we saw, partial last line included; an empty
    // transcript is still kept), written while the lines are parsed; every commit waits for it,
    // so no cursor ever points past stored bytes.
    const key = `${sessionId}/${file.objectName}`;
    if (size > fc.offset || !prev) {
      objectWrites.push(
        sink.putFile(key, { path: file.path, start: fc.offset, end: size }, { offset: fc.offset }),
      );
    }
    // Keep a failed write from going unobserved while parsing; flush() awaits and rethrows it.
    objectWrites.at(-1)?.catch(() => undefined);
    changed.push({ file, size, mtimeMs, settled, fc });
  }

  await options.ready?.();
  for (const { file, size, mtimeMs, settled, fc } of changed) {
    options.signal?.throwIfAborted();
    // Resume the open chunk, if any, with the entries it already holds.
    let chunk: OpenChunk | null = null;
    if (fc.openChunk) {
      const doc = await sink.getDoc(fc.openChunk.id);
      const entries = (doc?.entries as ProjectedEntry[] | undefined) ?? null;
      if (!doc || !entries || entries.length !== fc.openChunk.entries) {
        throw new IngestError(`open chunk ${fc.openChunk.id} is missing or does not match the ingest cursor`);
      }
      chunk = { entries: [...entries], bytes: fc.openChunk.bytes };
    }

    let consumed = fc.offset;
    if (size > fc.offset) {
      const stream = createReadStream(file.path, { start: fc.offset, end: size - 1, highWaterMark: 1 << 20 });
      for await (const line of splitLines(stream, fc.offset)) {
        const { entry, record } = projectLine(line.bytes, {
          index: fc.entries,
          byteStart: line.start,
          byteEnd: line.end,
        });
        // A last line without its newline that does not parse may still be being written: wait,
        // unless the file has settled (UNFINISHED_LINE_WAIT_MS).
        if (!line.terminated && entry.malformed && !settled) break;
        await markSecrets(entry, options);
        fc.entries++;
        result.entries++;
        const events = acc.add(entry, record, file.objectName);
        for (const ev of events) pendingDocs.push(ev as EventDoc as DocInput);
        chunk ??= { entries: [], bytes: 0 };
        chunk.entries.push(entry);
        chunk.bytes += line.end - line.start;
        options.onBytes?.(line.next - consumed);
        result.bytesRead += line.next - consumed;
        consumed = line.next;

        if (chunk.entries.length >= CHUNK_MAX_ENTRIES || chunk.bytes >= CHUNK_MAX_BYTES) {
          pendingDocs.push(chunkDoc(sessionId, file.objectName, chunk));
          closedSinceFlush++;
          bytesSinceFlush += chunk.bytes;
          chunk = null;
          if (closedSinceFlush >= FLUSH_EVERY_CHUNKS || bytesSinceFlush >= FLUSH_EVERY_BYTES) {
            fc.offset = consumed;
            fc.openChunk = null;
            fc.tail = (await tailOf(file.path, consumed)) ?? undefined;
            // Size and mtime stay at their old values until the file is fully read, so a crash
            // now makes the next run continue this file rather than skip it.
            cursor.files[file.objectName] = { ...fc };
            acc.setFile(file.objectName, size, fc.entries);
            await flush();
          }
        }
      }
    }

    if (chunk && chunk.entries.length > 0) {
      const doc = chunkDoc(sessionId, file.objectName, chunk);
      pendingDocs.push(doc);
      fc.openChunk = { id: doc._id, entries: chunk.entries.length, bytes: chunk.bytes };
    } else {
      fc.openChunk = null;
    }
    if (consumed !== fc.offset || fc.tail === undefined)
      fc.tail = (await tailOf(file.path, consumed)) ?? undefined;
    fc.offset = consumed;
    fc.size = size;
    fc.mtimeMs = mtimeMs;
    cursor.files[file.objectName] = fc;
    acc.setFile(file.objectName, size, fc.entries);
  }

  // Nothing new anywhere (a hook called between two appends): the stored state is already this.
  options.onParsed?.();
  if (unchanged === files.length && stored === cursor) return result;
  await flush();
  return result;
}

interface OpenChunk {
  entries: ProjectedEntry[];
  bytes: number;
}

function chunkDoc(sessionId: string, file: string, chunk: OpenChunk): ChunkDoc & DocInput {
  const first = chunk.entries[0]!;
  const last = chunk.entries[chunk.entries.length - 1]!;
  // The first time believed (active-time.ts): a line stamped in the year 275760 is kept, not dated by.
  const ts = chunk.entries.find((e) => parseTimestamp(e.timestamp) !== null)?.timestamp;
  return {
    _id: docIds.chunk(sessionId, file, first.byteStart),
    type: 'chunk',
    sessionId,
    timestamp: ts ? new Date(ts).toISOString() : '1970-01-01T00:00:00.000Z',
    file,
    byteStart: first.byteStart,
    byteEnd: last.byteEnd,
    firstIndex: first.index,
    entryCount: chunk.entries.length,
    entries: chunk.entries,
  };
}

export function freshCursor(options: IngestSessionOptions, agent: string): SessionCursor {
  const base: AccumulatorInit = {
    sessionId: options.sessionId,
    hostname: options.hostname,
    source: options.source,
    provenance: options.provenance,
    agent,
  };
  return { v: 1, init: base, state: createAccumulator(base).state(), files: {} };
}

/**
 * Commits documents with their current revisions, plus the cursor, in one transaction. A conflict
 * means another writer changed one of our documents between reading its revision and writing:
 * read the revision again and retry that document (a few times, then report it).
 */
export async function commitWithRevs(
  sink: IngestSink,
  docs: DocInput[],
  cursor: SessionCursor,
  result: IngestSessionResult,
): Promise<void> {
  let todo = docs;
  for (let attempt = 0; todo.length > 0; attempt++) {
    const revs = await sink.getRevs(todo.map((d) => d._id));
    const withRevs = todo.map((d) => {
      const { _rev: _old, ...rest } = d;
      const rev = revs.get(d._id);
      return (rev ? { ...rest, _rev: rev } : rest) as DocInput;
    });
    const results: WriteResult[] = await sink.commit(withRevs, [
      { id: cursorId(cursor.init.sessionId), value: cursor },
    ]);
    const retry: DocInput[] = [];
    results.forEach((r, i) => {
      if (r.status === 'written') result.docsWritten++;
      else if (r.status === 'unchanged') result.docsUnchanged++;
      else if (attempt < 3) retry.push(todo[i]!);
      else result.conflicts.push(`${r.id}: ${r.reason ?? 'conflict'}`);
    });
    todo = retry;
  }
}

/** Likely secrets, counted by rule on the entry: only the few entries past the pre-filter are scanned. */
export async function markSecrets(
  entry: ProjectedEntry,
  options: Pick<IngestSessionOptions, 'countSecrets' | 'secretPatterns'>,
): Promise<void> {
  if (options.countSecrets === false || !entryNeedsScan(entry, options.secretPatterns)) return;
  const secrets = await countEntrySecrets(entry, options.secretPatterns);
  if (secrets) entry.secrets = secrets;
}
