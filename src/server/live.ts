/**
 * Live recording inside `serve`: replays the hook spool at start and periodically, watches each
 * agent's session tree (src/ingest/providers/) (after a catch-up import of what
 * changed while the server was down), and notices transcripts that disappeared. Everything writes into the store in process, holding the
 * same per-session locks the hooks take, so hooks and watcher never ingest one session at once.
 */
import type { SecretPattern } from '../secrets/scan.js';
import { existsSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { ingestSession, type SessionFile } from '../ingest/ingest-session.js';
import { ingestStore } from '../ingest/ingest-store.js';
import { ingestTree, treeIndexId, type TreeIndex } from '../ingest/ingest-tree.js';
import { storeSink } from '../ingest/sink.js';
import { noteRemoved, noteRestored, scanForDeletions } from '../live/deletions.js';
import { livePaths } from '../live/live-paths.js';
import { createSender } from '../live/sender.js';
import { sessionLockRunner } from '../live/session-lock.js';
import { replaySpool, type SpoolConfig } from '../live/spool.js';
import { watchTranscripts, type TranscriptWatcher } from '../live/watcher.js';
import type { Store } from '../store/contract.js';
import { FIRST_IMPORT_MARKER } from './first-import.js';

export interface LiveOptions {
  store: Store;
  dataDir: string;
  /** The agents' session trees (`~/.claude/projects`, `~/.codex/sessions`, `~/.gemini/tmp`: providers). */
  roots: string[];
  /** Watch `roots` (serve --no-watch turns it off). */
  watch: boolean;
  /** Spool replay period; 0 turns replay off (at start too). */
  replayEveryMs: number;
  spoolMaxBytes: number;
  /** Deletion scan period. */
  scanEveryMs?: number;
  /** Settles when the first-start import is over (the watcher starts after it). */
  importDone: Promise<void>;
  /** False with serve --no-import: the watcher then records changes only, no catch-up import. */
  importEnabled: boolean;
  log: (line: string) => void;
  now?: () => number;
  /** config.json's `secrets.patterns`, counted beside secretlint's rules. */
  secretPatterns?: readonly SecretPattern[];
}

export type TreeState = 'watching' | 'starting' | 'absent' | 'failed' | 'off';

/** Each transcript tree and where its watching stands (for /api/health). */
export interface WatchReport {
  enabled: boolean;
  trees: Array<{ path: string; state: TreeState; error?: string }>;
}

export interface Live {
  watchReport(): WatchReport;
  /** Settles when the watcher has nothing pending (tests). */
  idle(): Promise<void>;
  /** Runs a spool replay now (also what the timer does). */
  replay(): Promise<void>;
  close(): Promise<void>;
}

/** How often to look for a projects directory that does not exist yet. */
const ROOT_POLL_MS = 1_000;

export function startLive(options: LiveOptions): Live {
  const { store, log } = options;
  const now = options.now ?? Date.now;
  const host = hostname();
  const paths = livePaths(options.dataDir);
  const sink = storeSink(store);
  const runSession = sessionLockRunner(paths);
  const timers: NodeJS.Timeout[] = [];
  let closed = false;

  // --- spool replay -----------------------------------------------------------------------
  const sender = createSender({
    sink,
    writeDocs: (docs) => store.docs.commit(docs, []),
    hostname: host,
    paths,
    secretPatterns: options.secretPatterns,
  });
  const spool: SpoolConfig = {
    dir: paths.spoolDir,
    lockPath: paths.spoolLock,
    maxBytes: options.spoolMaxBytes,
    log: (m) => log(`spool: ${m}`),
  };
  let replaying: Promise<void> | null = null;
  const replay = () =>
    (replaying ??= (async () => {
      try {
        const r = await replaySpool(spool, sender, { lockWaitMs: 0, hostname: host });
        if (r.busy) return;
        if (r.records || r.overflowSessions || r.failed)
          log(
            `spool: replayed ${r.records} record(s), ${r.events} event(s), ${r.sessions} transcript(s)` +
              (r.rejected ? `, ${r.rejected} rejected (see ${paths.spoolDir}/rejected.ndjson)` : '') +
              (r.failed ? `; stopped: ${r.failed}` : ''),
          );
      } catch (err) {
        log(`spool: replay failed: ${(err as Error).message}`);
      } finally {
        replaying = null;
      }
    })());
  if (options.replayEveryMs > 0) {
    void replay();
    timers.push(setInterval(() => void replay(), options.replayEveryMs).unref());
  }

  // --- watchers: one per transcript tree ---------------------------------------------------
  const trees = options.watch ? options.roots.map((root) => watchTree(root)) : [];

  function watchTree(root: string) {
    const report: WatchReport['trees'][number] = { path: root, state: 'starting' };
    const indexId = treeIndexId(host, root);
    let index: TreeIndex | null = null;
    let indexDirty = false;
    let watcher: TranscriptWatcher | null = null;
    const saveIndex = async () => {
      if (!indexDirty || !index) return;
      indexDirty = false;
      await store.docs.putLocal(indexId, index);
    };

    async function ingestChanged(sessionId: string, files: SessionFile[]) {
      // Sizes before the ingest: the index may understate what was read, never overstate it.
      const present = files.flatMap((f) => {
        const st = statSync(f.path, { throwIfNoEntry: false });
        return st?.isFile() ? [{ f, st }] : [];
      });
      if (present.length === 0) return;
      const r = await runSession(sessionId, () =>
        ingestSession({
          sessionId,
          files: present.map((x) => x.f),
          sink,
          hostname: host,
          source: 'live',
          provenance: 'live',
          secretPatterns: options.secretPatterns,
        }),
      );
      for (const k of r.kept) log(`watch: ${k.path} not read, stored history kept: ${k.reason}`);
      // The tree index remembers what was ingested, for the next catch-up and for deletion scans.
      index ??= (await store.docs.getLocal<TreeIndex>(indexId)) ?? { v: 1, files: {} };
      if (r.forgotten) {
        // Never remembered as read: once unforgotten, the next catch-up or backfill reads it again.
        for (const { f } of present) delete index.files[f.path];
        indexDirty = true;
        return;
      }
      for (const { f, st } of present)
        index.files[f.path] = { size: st.size, mtimeMs: Math.trunc(st.mtimeMs), sessionId };
      indexDirty = true;
      await noteRestored(
        store.docs,
        sessionId,
        present.map((x) => x.f),
      );
    }

    async function scan() {
      const idx = index ?? (await store.docs.getLocal<TreeIndex>(indexId));
      const marked = await scanForDeletions(store.docs, idx, new Date(now()).toISOString());
      if (marked.length) log(`watch: ${marked.length} session(s) kept after their transcript was deleted`);
    }

    async function startWatching() {
      await options.importDone;
      if (closed) return;
      // Catch up on what changed while the server was down, or on a directory that appeared after
      // it started — unless the user never wanted the tree imported (--no-import before any
      // import): then only changes from now on are recorded.
      const marker = await store.docs.getLocal<{ state: string }>(FIRST_IMPORT_MARKER);
      const catchUp = marker?.state === 'done' || options.importEnabled;
      let caughtUp: () => void = () => undefined;
      const holdUntil = new Promise<void>((r) => (caughtUp = r));
      watcher = watchTranscripts({
        root,
        ingest: ingestChanged,
        // The next catch-up finds the store's files changed and compares each session's hash.
        ingestStore: async (path, agent, changed) => {
          const r = await ingestStore({
            store: path,
            agent,
            changed,
            sink,
            hostname: host,
            source: 'live',
            provenance: 'live',
            runSession,
            secretPatterns: options.secretPatterns,
          });
          for (const f of r.failed) log(`watch: ${f.file} not read, stored history kept: ${f.error}`);
        },
        knownSession: async (path) =>
          (index ?? (await store.docs.getLocal<TreeIndex>(indexId)))?.files[path]?.sessionId,
        removed: async (path, sessionId, objectName) => {
          if (
            sessionId &&
            (await noteRemoved(store.docs, { sessionId, path, objectName }, new Date(now()).toISOString()))
          )
            log(`watch: ${path} was deleted; session ${sessionId} is kept`);
        },
        log,
        holdUntil,
      });
      report.state = 'watching';
      await watcher.ready;
      try {
        if (catchUp) {
          const r = await ingestTree({
            root,
            sink,
            hostname: host,
            source: 'backfill',
            provenance: 'backfilled',
            runSession,
            secretPatterns: options.secretPatterns,
          });
          if (r.changedFiles)
            log(`watch: caught up on ${r.changedFiles} changed file(s) in ${r.sessions} session(s)`);
          for (const k of r.kept) log(`watch: ${k.file} not read, stored history kept: ${k.reason}`);
        }
        await scan();
      } catch (err) {
        log(`watch: catch-up failed: ${(err as Error).message}`);
      } finally {
        caughtUp();
      }
      log(`watch: recording changes in ${root}`);
      timers.push(setInterval(() => void saveIndex().catch(() => undefined), 5_000).unref());
      timers.push(
        setInterval(
          () => void scan().catch((err: Error) => log(`watch: deletion scan failed: ${err.message}`)),
          options.scanEveryMs ?? 10 * 60_000,
        ).unref(),
      );
    }

    let watching: Promise<void> = Promise.resolve();
    const begin = () => {
      report.state = 'starting';
      watching = startWatching().catch((err: Error) => {
        Object.assign(report, { state: 'failed', error: err.message });
        log(`watch: cannot watch ${root}: ${err.message}`);
      });
    };
    if (existsSync(root)) begin();
    else {
      report.state = 'absent';
      // A newcomer may install Claude Code (or Codex) after the server: start once the directory appears.
      const poll = setInterval(() => {
        if (closed || !existsSync(root)) return;
        clearInterval(poll);
        begin();
      }, ROOT_POLL_MS).unref();
      timers.push(poll);
    }

    return {
      report,
      idle: async () => {
        await watching;
        await watcher?.idle();
      },
      close: async () => {
        await watching;
        await watcher?.close();
        await saveIndex().catch(() => undefined);
      },
    };
  }

  return {
    watchReport: () => ({
      enabled: options.watch,
      trees: options.watch
        ? trees.map((t) => ({ ...t.report }))
        : options.roots.map((path) => ({ path, state: 'off' as const })),
    }),
    idle: async () => {
      await Promise.all(trees.map((t) => t.idle()));
      await replaying;
    },
    replay,
    async close() {
      closed = true;
      for (const t of timers) clearInterval(t);
      await Promise.all(trees.map((t) => t.close()));
      await replaying;
    },
  };
}
