/**
 * Ingests a whole tree of session files (backfill, first-start import; any agent's: the
 * providers say what each file is). Incremental: a
 * tree index (`_local/ingest-tree:<host>:<root>`) remembers each file's size and mtime, so an
 * unchanged tree costs one directory walk and one read of that index. The index is only a
 * shortcut: the per-session cursors remain the truth, so losing it costs time, never data.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { scanTree, sessionIdOf, type ScannedFile, type SkippedPath } from './scan-tree.js';
import type { SecretPattern } from '../secrets/scan.js';
import { ingestSession, type SessionFile } from './ingest-session.js';
import { ingestStore } from './ingest-store.js';
import type { IngestSink } from './sink.js';
import { Slots } from './slots.js';

export interface IngestProgress {
  filesTotal: number;
  filesDone: number;
  bytesTotal: number;
  bytesDone: number;
  currentFile?: string;
}

export interface IngestTreeOptions {
  root: string;
  sink: IngestSink;
  hostname: string;
  source: string;
  provenance: 'live' | 'backfilled';
  /** Scan and report what would be ingested, write nothing. */
  dryRun?: boolean;
  onProgress?: (progress: IngestProgress) => void;
  signal?: AbortSignal;
  /**
   * Sessions parsed at once (default 3); as many more may be waiting on their last commit, and
   * twice as many again writing their raw bytes before they parse.
   */
  concurrency?: number;
  /**
   * Runs one session's ingest; live recording passes one that holds the session's lock, so a
   * hook or the watcher never ingests the same session at the same time. Default: runs it.
   */
  runSession?: <T>(sessionId: string, ingest: () => Promise<T>) => Promise<T>;
  /** config.json's `secrets.patterns`, counted beside secretlint's rules. */
  secretPatterns?: readonly SecretPattern[];
  /** False leaves secrets uncounted (the bench's ingest without the count). */
  countSecrets?: boolean;
}

export interface IngestTreeResult {
  /** Transcript files found. */
  files: number;
  /** Files that had new bytes (or would have, on a dry run). */
  changedFiles: number;
  sessions: number;
  bytesRead: number;
  /** Bytes a dry run would read. */
  bytesPending: number;
  entries: number;
  docsWritten: number;
  docsUnchanged: number;
  failed: Array<{ file: string; error: string }>;
  /** Files not read because they no longer continue what was stored, which is kept (ingest-session.ts). */
  kept: Array<{ file: string; reason: string }>;
  /** Folders and files the walk could not read (permissions, a looping link): nothing of them is stored. */
  skipped: SkippedPath[];
  /** Sessions not read because they are forgotten. */
  forgotten: number;
}

export interface TreeIndex {
  v: 1;
  files: Record<string, { size: number; mtimeMs: number; sessionId: string }>;
  /**
   * Files of stores holding many sessions (OpenCode's), by path: a store is read again when one
   * changed. Kept apart from `files`, whose deletion means a session's transcript is gone.
   */
  stores?: Record<string, { size: number; mtimeMs: number }>;
}

export const treeIndexId = (hostname: string, root: string) =>
  `_local/ingest-tree:${createHash('sha1')
    .update(`${hostname}\0${path.resolve(root)}`)
    .digest('hex')
    .slice(0, 16)}`;

export async function ingestTree(options: IngestTreeOptions): Promise<IngestTreeResult> {
  const { sink } = options;
  const skipped: SkippedPath[] = [];
  const scanned = await scanTree(options.root, undefined, skipped);
  const indexId = treeIndexId(options.hostname, options.root);
  const index: TreeIndex = (await sink.getLocal<TreeIndex>(indexId)) ?? { v: 1, files: {} };

  const result: IngestTreeResult = {
    files: scanned.length,
    changedFiles: 0,
    sessions: 0,
    bytesRead: 0,
    bytesPending: 0,
    entries: 0,
    docsWritten: 0,
    docsUnchanged: 0,
    failed: [],
    kept: [],
    skipped,
    forgotten: 0,
  };

  // Files whose size or mtime differ from the index, grouped by session; stores with such a file.
  const bySession = new Map<string, ScannedFile[]>();
  const stores = new Map<string, { files: ScannedFile[]; changed: string[]; known: boolean }>();
  for (const file of scanned) {
    if (file.store !== undefined) {
      const store = stores.get(file.store) ?? { files: [], changed: [], known: false };
      stores.set(file.store, store);
      store.files.push(file);
      const seen = index.stores?.[file.path];
      store.known ||= seen !== undefined;
      if (seen?.size === file.size && seen.mtimeMs === file.mtimeMs) continue;
      store.changed.push(file.path);
      result.changedFiles++;
      result.bytesPending += Math.max(0, file.size - (seen?.size ?? 0));
      continue;
    }
    const known = index.files[file.path];
    if (known && known.size === file.size && known.mtimeMs === file.mtimeMs) continue;
    // The index keeps the session a file was read into, so a store keeps its sessions as they are.
    let sessionId = file.sessionId ?? known?.sessionId ?? null;
    if (!sessionId) {
      try {
        sessionId = await sessionIdOf(file.path, file);
      } catch (err) {
        result.failed.push({ file: file.path, error: message(err) });
        continue;
      }
      if (!sessionId) {
        const error =
          file.kind === 'subagent'
            ? 'subagent file names no parent sessionId'
            : 'the file names no session id';
        result.failed.push({ file: file.path, error });
        continue;
      }
    }
    file.sessionId = sessionId;
    const group = bySession.get(sessionId) ?? [];
    // Two files that are one session's same transcript (copies renamed apart, or a Claude Code
    // and a Codex fixture both called small.jsonl with no id inside): the first is read — unless
    // the agent ranks one above the other (Gemini CLI's `.jsonl` continues its `.json`).
    const first = group.find((f) => f.objectName === file.objectName);
    if (first && (first.rank ?? 0) === (file.rank ?? 0)) {
      result.failed.push({
        file: file.path,
        error: `not read: it would be ${file.objectName} of session ${sessionId}, which is read from ${first.path}`,
      });
      continue;
    }
    if (first && (first.rank ?? 0) > (file.rank ?? 0)) continue;
    if (first) {
      group.splice(group.indexOf(first), 1);
      result.changedFiles--;
      result.bytesPending -= Math.max(0, first.size - (index.files[first.path]?.size ?? 0));
    }
    group.push(file);
    bySession.set(sessionId, group);
    result.changedFiles++;
    result.bytesPending += Math.max(0, file.size - (known?.size ?? 0));
  }
  for (const [path, store] of stores) if (store.changed.length === 0) stores.delete(path);
  result.sessions = bySession.size;
  if (options.dryRun) return result;

  const progress: IngestProgress = {
    filesTotal: result.changedFiles,
    filesDone: 0,
    bytesTotal: result.bytesPending,
    bytesDone: 0,
  };
  options.onProgress?.({ ...progress });

  let sinceIndexWrite = 0;
  // Sessions are independent, so several run at once; within a session everything stays ordered.
  // Each sets its raw bytes writing, then waits for room to hold its entries (`holding`), then for
  // a parsing slot. Three parse rather than two: with two, both were often waiting on commits at
  // once (1 GB ingest: 25.5 s → 23.5 s). Twice as many may hold entries: a session waiting on its
  // last commit has given its parsing slot to the next one, so the main thread keeps parsing
  // while the store writes.
  const parsers = Math.max(1, options.concurrency ?? 3);
  const parsing = new Slots(parsers);
  const holding = new Slots(parsers * 2);

  const ingestOne = async (sessionId: string, files: ScannedFile[]) => {
    let held = false;
    let parsingHeld = false;
    const ready = async () => {
      await holding.take();
      held = true;
      await parsing.take();
      parsingHeld = true;
    };
    const parsed = () => {
      if (!parsingHeld) return;
      parsingHeld = false;
      parsing.give();
    };
    progress.currentFile = files[0]!.path;
    const sessionFiles: SessionFile[] = files.map((f) => ({
      path: f.path,
      objectName: f.objectName,
      agent: f.agent,
    }));
    try {
      const run = options.runSession ?? ((_id, ingest) => ingest());
      const r = await run(sessionId, () =>
        ingestSession({
          sessionId,
          files: sessionFiles,
          sink,
          hostname: options.hostname,
          source: options.source,
          provenance: options.provenance,
          signal: options.signal,
          secretPatterns: options.secretPatterns,
          countSecrets: options.countSecrets,
          ready,
          onParsed: parsed,
          onBytes: (n) => {
            progress.bytesDone += n;
          },
        }),
      );
      result.bytesRead += r.bytesRead;
      result.entries += r.entries;
      result.docsWritten += r.docsWritten;
      result.docsUnchanged += r.docsUnchanged;
      for (const c of r.conflicts) result.failed.push({ file: files[0]!.path, error: `conflict: ${c}` });
      for (const k of r.kept) result.kept.push({ file: k.path, reason: k.reason });
      // A forgotten session's files stay out of the index: asked again each run (one lookup), they
      // are read again once the session is unforgotten.
      if (r.forgotten) result.forgotten++;
      else for (const f of files) index.files[f.path] = { size: f.size, mtimeMs: f.mtimeMs, sessionId };
    } catch (err) {
      if (options.signal?.aborted) throw err;
      for (const f of files) result.failed.push({ file: f.path, error: message(err) });
    } finally {
      parsed();
      if (held) holding.give();
    }
    progress.filesDone += files.length;
    options.onProgress?.({ ...progress });
    // Save the shortcut now and then, so a long first import that is interrupted resumes fast.
    if (++sinceIndexWrite >= 200) {
      sinceIndexWrite = 0;
      await sink.commit([], [{ id: indexId, value: index }]);
    }
  };

  // Sessions under way, most of them only writing their bytes while they wait for room: twice
  // as many as may hold entries. An object's copy and fsyncs took some 45 ms, longer than parsing
  // most sessions, so commits waited on them (1 GB ingest, alternated runs: 34.1–35.1 s →
  // 28.4–32.4 s, peak RSS 269–271 MB → 267–283 MB).
  const queue = [...bySession];
  await Promise.all(
    Array.from({ length: parsers * 4 }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        options.signal?.throwIfAborted();
        await ingestOne(next[0], next[1]);
      }
    }),
  );
  // Stores after the sessions of files, one at a time (each reads every session it holds).
  for (const [store, { files, changed, known }] of stores) {
    options.signal?.throwIfAborted();
    try {
      // A store read before: only the sessions of its changed files (a first read: all of them).
      const r = await ingestStore({
        ...options,
        store,
        agent: files[0]!.agent,
        changed: known ? changed : undefined,
      });
      result.sessions += r.sessions;
      result.bytesRead += r.bytesRead;
      result.entries += r.entries;
      result.docsWritten += r.docsWritten;
      result.docsUnchanged += r.docsUnchanged;
      result.forgotten += r.forgotten;
      result.failed.push(...r.failed);
      // Remembered even when a session failed: a file fixed later changes, and is read again.
      index.stores ??= {};
      for (const f of files) index.stores[f.path] = { size: f.size, mtimeMs: f.mtimeMs };
    } catch (err) {
      if (options.signal?.aborted) throw err;
      result.failed.push({ file: store, error: message(err) });
    }
    progress.filesDone += changed.length;
    options.onProgress?.({ ...progress });
  }
  // An unchanged tree leaves the index as it was: nothing to write.
  if (bySession.size > 0 || stores.size > 0) await sink.commit([], [{ id: indexId, value: index }]);
  return result;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
