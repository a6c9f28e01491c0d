/**
 * The first-start import: a newcomer who runs `transcripts serve` sees their own sessions without
 * another step. Runs `ingestTree` over each transcript tree that exists (`~/.claude/projects`,
 * then Codex's `~/.codex/sessions`) in the background, in process, with progress for the log and
 * /api/health. It runs when the store has no sessions and no import has finished before, or when
 * a previous one was interrupted (the ingest is incremental, so resuming costs little); a marker
 * in instance-local state remembers the outcome.
 */
import type { SecretPattern } from '../secrets/scan.js';
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import type { ImportStatus } from '../api/schemas/health.js';
import { ingestTree, type IngestTreeResult } from '../ingest/ingest-tree.js';
import { storeSink } from '../ingest/sink.js';
import type { Store } from '../store/contract.js';

export const FIRST_IMPORT_MARKER = '_local/server:first-import';

interface Marker {
  state: 'started' | 'done';
  at: string;
  roots: string[];
}

export interface FirstImport {
  status(): ImportStatus;
  /** Settles when the import ends (or at once when it was skipped). Never rejects. */
  done: Promise<void>;
  abort(): void;
}

const MB = 1024 * 1024;
const mb = (n: number) => (n / MB).toFixed(1);

export function startFirstImport(options: {
  store: Store;
  /** The trees to import, in order; those that do not exist are passed over. */
  roots: string[];
  enabled: boolean;
  log: (line: string) => void;
  /** Minimum ms between progress lines. */
  logEveryMs?: number;
  /** Wraps each session's ingest (the live session lock: hooks may be recording one of them). */
  runSession?: <T>(sessionId: string, ingest: () => Promise<T>) => Promise<T>;
  /** config.json's `secrets.patterns`, counted beside secretlint's rules. */
  secretPatterns?: readonly SecretPattern[];
}): FirstImport {
  const { store, log } = options;
  const status: ImportStatus = {
    state: 'idle',
    roots: options.roots,
    filesTotal: 0,
    filesDone: 0,
    bytesTotal: 0,
    bytesDone: 0,
  };
  const controller = new AbortController();
  const skip = (reason: string) => {
    status.state = 'skipped';
    status.reason = reason;
  };

  async function run(): Promise<void> {
    if (!options.enabled) return skip('turned off (--no-import)');
    const roots = options.roots.filter((r) => existsSync(r));
    if (roots.length === 0)
      return skip(`${options.roots.join(' and ')} ${options.roots.length === 1 ? 'does' : 'do'} not exist`);
    const marker = await store.docs.getLocal<Marker>(FIRST_IMPORT_MARKER);
    if (marker?.state === 'done') return skip(`already imported on ${marker.at}`);
    if (!marker && (await store.stats()).sessions > 0) return skip('the store already holds sessions');

    status.state = 'running';
    status.roots = roots;
    status.startedAt = new Date().toISOString();
    await store.docs.putLocal(FIRST_IMPORT_MARKER, {
      state: 'started',
      at: status.startedAt,
      roots,
    } satisfies Marker);
    log(
      `import: ${marker ? 'resuming' : 'first start —'} importing ${roots.join(' and ')} in the background (progress: /api/health)`,
    );
    let lastLog = 0;
    // Each tree's counts add to those of the trees before it (a tree's totals are known once it
    // has been scanned, so the totals grow when the next one starts).
    const before = { filesTotal: 0, filesDone: 0, bytesTotal: 0, bytesDone: 0 };
    const totals = { files: 0, sessions: 0, bytesRead: 0 };
    const failed: IngestTreeResult['failed'] = [];
    const kept: IngestTreeResult['kept'] = [];
    const skipped: IngestTreeResult['skipped'] = [];
    try {
      for (const root of roots) {
        status.root = root;
        const result = await ingestTree({
          root,
          sink: storeSink(store),
          hostname: hostname(),
          source: 'backfill',
          provenance: 'backfilled',
          signal: controller.signal,
          runSession: options.runSession,
          secretPatterns: options.secretPatterns,
          onProgress: (p) => {
            Object.assign(status, {
              filesTotal: before.filesTotal + p.filesTotal,
              filesDone: before.filesDone + p.filesDone,
              bytesTotal: before.bytesTotal + p.bytesTotal,
              bytesDone: before.bytesDone + p.bytesDone,
              currentFile: p.currentFile,
            });
            const now = Date.now();
            if (now - lastLog >= (options.logEveryMs ?? 2000) || p.filesDone === p.filesTotal) {
              lastLog = now;
              log(
                `import: ${status.filesDone}/${status.filesTotal} files, ${mb(status.bytesDone)}/${mb(status.bytesTotal)} MB`,
              );
            }
          },
        });
        Object.assign(before, {
          filesTotal: status.filesTotal,
          filesDone: status.filesDone,
          bytesTotal: status.bytesTotal,
          bytesDone: status.bytesDone,
        });
        totals.files += result.files;
        totals.sessions += result.sessions;
        totals.bytesRead += result.bytesRead;
        failed.push(...result.failed);
        kept.push(...result.kept);
        skipped.push(...result.skipped);
      }
      const finishedAt = new Date().toISOString();
      await store.docs.putLocal(FIRST_IMPORT_MARKER, {
        state: 'done',
        at: finishedAt,
        roots,
      } satisfies Marker);
      log(
        `import: done — ${totals.files} files, ${totals.sessions} sessions, ${mb(totals.bytesRead)} MB` +
          (failed.length ? `, ${failed.length} failed:` : ''),
      );
      for (const f of failed) log(`import:   ${f.file}: ${f.error}`);
      for (const k of kept) log(`import:   ${k.file} not read, stored history kept: ${k.reason}`);
      if (skipped.length) log(`import: ${skipped.length} path(s) could not be read, nothing of them stored:`);
      for (const k of skipped) log(`import:   ${k.path}: ${k.reason}`);
      // Said done only now, so that whoever waits on /api/health also finds the log written.
      Object.assign(status, {
        state: 'done',
        finishedAt,
        currentFile: undefined,
        sessions: totals.sessions,
        failedFiles: failed.length,
      });
    } catch (err) {
      status.state = 'failed';
      status.finishedAt = new Date().toISOString();
      status.reason = controller.signal.aborted
        ? 'interrupted by shutdown (resumes at next start)'
        : String((err as Error).message ?? err);
      log(`import: ${status.reason}`);
    }
  }

  const done = run().catch((err: unknown) => {
    status.state = 'failed';
    status.reason = err instanceof Error ? err.message : String(err);
    log(`import: failed: ${status.reason}`);
  });
  return { status: () => ({ ...status }), done, abort: () => controller.abort() };
}
