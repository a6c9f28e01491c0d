/**
 * Watches a tree of session files (chokidar; any agent's, as `providers/` classify them) and hands changed files to
 * `ingest`, grouped by session, within about a second: the first change of a session arms a
 * short timer and every change until it fires joins the same run (a burst of appends is one
 * ingest); a session is never ingested twice at once, and changes that arrive during its run
 * give it one more run afterwards. Removed files are reported, for deletion detection.
 */
import { watch, type FSWatcher } from 'chokidar';
import { realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SessionFile } from '../ingest/ingest-session.js';
import { scanTree, sessionIdOf, type SkippedPath } from '../ingest/scan-tree.js';
import { classifyTranscriptPath } from '../ingest/transcript-path.js';
import { isSkippedFolder, type AgentId } from '../ingest/providers/index.js';

export interface WatcherOptions {
  root: string;
  /** Ingests these files of a session (new or grown). Errors are logged, never thrown. */
  ingest(sessionId: string, files: SessionFile[]): Promise<void>;
  /**
   * A file of a store holding many sessions (OpenCode's) changed: the store is read again. Stores
   * are queued like sessions, by their path. Without it, stores are not watched.
   */
  ingestStore?(store: string, agent: AgentId, changed: string[]): Promise<void>;
  /** A transcript file disappeared; its session, when known. */
  removed(path: string, sessionId: string | null, objectName: string): Promise<void>;
  /**
   * The session a file whose path does not name one was read into before (the tree index): it
   * stays there, rather than being asked of its content again.
   */
  knownSession?(path: string): Promise<string | undefined>;
  log(line: string): void;
  /** From the first change of a session to its ingest (default 150 ms). */
  delayMs?: number;
  /** Changes are held (not ingested) until this settles, e.g. a catch-up import. */
  holdUntil?: Promise<unknown>;
  /** From a folder appearing to walking it again for files the watch missed (default 1 s). */
  rewalkDelayMs?: number;
}

export interface TranscriptWatcher {
  /** Settles once the initial directory walk is done and changes are being seen. */
  ready: Promise<void>;
  /** Settles when nothing is pending or running (tests wait on it). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export function watchTranscripts(options: WatcherOptions): TranscriptWatcher {
  const delay = options.delayMs ?? 150;
  const pending = new Map<string, Map<string, SessionFile>>();
  const timers = new Map<string, NodeJS.Timeout>();
  const queue: string[] = [];
  const running = new Set<string>();
  /** Queue keys that are stores (`store:<path>`), with the agent whose store it is. */
  const stores = new Map<string, { store: string; agent: AgentId }>();
  let idleWaiters: Array<() => void> = [];
  let closed = false;
  let draining = false;
  let held = options.holdUntil !== undefined;
  const appeared = new Set<string>();
  let rewalkTimer: NodeJS.Timeout | undefined;
  let rewalking = 0;
  void options.holdUntil?.finally(() => {
    held = false;
    void drain();
  });

  const isIdle = () =>
    pending.size === 0 &&
    queue.length === 0 &&
    running.size === 0 &&
    timers.size === 0 &&
    rewalkTimer === undefined &&
    rewalking === 0;
  const settle = () => {
    if (!isIdle()) return;
    const w = idleWaiters;
    idleWaiters = [];
    for (const f of w) f();
  };

  function enqueue(sessionId: string) {
    timers.delete(sessionId);
    if (!queue.includes(sessionId)) queue.push(sessionId);
    void drain();
  }

  async function drain() {
    if (draining || held || closed) return;
    draining = true;
    try {
      for (let sessionId = queue.shift(); sessionId !== undefined; sessionId = queue.shift()) {
        const files = pending.get(sessionId);
        pending.delete(sessionId);
        if (!files || files.size === 0) continue;
        running.add(sessionId);
        try {
          const store = stores.get(sessionId);
          if (store) await options.ingestStore?.(store.store, store.agent, [...files.keys()]);
          else await options.ingest(sessionId, [...files.values()]);
        } catch (err) {
          options.log(`watch: ingest of session ${sessionId} failed: ${(err as Error).message}`);
        } finally {
          running.delete(sessionId);
        }
        if (closed) break;
      }
    } finally {
      draining = false;
      settle();
    }
  }

  async function changed(path: string) {
    const kind = classifyTranscriptPath(path);
    if (!kind || closed) return;
    if (kind.store !== undefined && !options.ingestStore) return;
    if (kind.store !== undefined) stores.set(`store:${kind.store}`, { store: kind.store, agent: kind.agent });
    const sessionId =
      (kind.store !== undefined ? `store:${kind.store}` : null) ??
      kind.sessionId ??
      (await options.knownSession?.(path).catch(() => undefined)) ??
      (await sessionIdOf(path, kind).catch(() => null));
    if (!sessionId) return; // an agent file that names no session yet: its next change will
    let files = pending.get(sessionId);
    if (!files) pending.set(sessionId, (files = new Map()));
    files.set(path, { path, objectName: kind.objectName, agent: kind.agent });
    if (!timers.has(sessionId) && !queue.includes(sessionId))
      timers.set(
        sessionId,
        setTimeout(() => enqueue(sessionId), delay),
      );
  }

  async function gone(path: string) {
    const kind = classifyTranscriptPath(path);
    // A store's file is one document of many: what was stored of its session is kept.
    if (!kind || closed || kind.store !== undefined) return;
    try {
      const sessionId = kind.sessionId ?? (await options.knownSession?.(path)) ?? null;
      await options.removed(path, sessionId, kind.objectName);
    } catch (err) {
      options.log(`watch: ${path} was removed, and recording that failed: ${(err as Error).message}`);
    }
  }

  // chokidar reads a new folder before it starts watching it, so what is made in between is
  // never reported (chokidar#1422): a file — a moved or copied-in project folder, a new project's
  // first transcript — or a folder, whose later files would all go unseen (a session's
  // `subagents/`). A folder that appears is walked once more when the burst has settled: folders
  // the watch lacks are added to it, and every transcript found is handed on (one the ingest
  // has already read costs it a stat).
  function folderAppeared(dir: string) {
    if (closed) return;
    appeared.add(dir);
    rewalkTimer ??= setTimeout(() => void rewalk(), options.rewalkDelayMs ?? 1_000);
  }

  async function rewalk() {
    const dirs = [...appeared];
    appeared.clear();
    rewalking++;
    rewalkTimer = undefined;
    try {
      const folders: string[] = [];
      const files: string[] = [];
      const skipped: SkippedPath[] = [];
      for (const top of outermost(dirs))
        for (const f of await scanTree(top, folders, skipped)) files.push(f.path);
      for (const k of skipped)
        options.log(`watch: cannot read ${k.path} (${k.reason}); nothing of it is recorded`);
      if (closed) return;
      const watched = new Set(Object.keys(watcher.getWatched()));
      const unwatched = folders.filter((f) => !watched.has(f));
      if (unwatched.length) watcher.add(unwatched);
      for (const file of files) if (!seenElsewhere(dirname(file))) await changed(file);
    } catch (err) {
      options.log(`watch: reading new folders failed: ${(err as Error).message}`);
    } finally {
      rewalking--;
      settle();
    }
  }

  /** The folders not inside another of them (a folder inside one that appeared is walked with it). */
  function outermost(dirs: string[]): string[] {
    const all = new Set(dirs);
    return dirs.filter((d) => {
      for (let up = dirname(d); up !== dirname(up); up = dirname(up)) if (all.has(up)) return false;
      return true;
    });
  }

  // Links are followed, as backfill's scan follows them (ingest/scan-tree.ts), and a folder
  // reached by a second path (a link back up the tree) is watched once, under its first path.
  const folders = new Map<string, string>();
  const seenElsewhere = (path: string): boolean => {
    let real;
    try {
      real = realpathSync(path);
    } catch {
      return false;
    }
    const first = folders.get(real);
    if (first === undefined) folders.set(real, path);
    return first !== undefined && first !== path;
  };
  const watcher: FSWatcher = watch(options.root, {
    ignoreInitial: true,
    followSymlinks: true,
    depth: 8,
    // Only session files; directories must pass so new project folders are watched too.
    ignored: (path, stats) =>
      stats?.isFile() === true
        ? classifyTranscriptPath(path) === null
        : stats?.isDirectory() === true && (isSkippedFolder(path) || seenElsewhere(path)),
  });
  watcher.on('add', (p) => void changed(p));
  watcher.on('change', (p) => void changed(p));
  watcher.on('unlink', (p) => void gone(p));
  watcher.on('addDir', (p) => folderAppeared(p));
  watcher.on('error', (err) => options.log(`watch: ${(err as Error).message ?? String(err)}`));
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));

  return {
    ready,
    idle: () =>
      new Promise<void>((resolve) => {
        if (isIdle()) resolve();
        else idleWaiters.push(resolve);
      }),
    async close() {
      closed = true;
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      clearTimeout(rewalkTimer);
      rewalkTimer = undefined;
      appeared.clear();
      pending.clear();
      queue.length = 0;
      await watcher.close();
      settle();
    },
  };
}
