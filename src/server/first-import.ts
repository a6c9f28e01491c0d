/**
 * The first-start import: a newcomer who runs `transcripts serve` sees their own sessions without
 * another step. Runs `ingestTree` over `~/.claude/projects` in the background, in process, with
 * progress for the log and /api/health. It runs when the store has no sessions and no import has
 * finished before, or when a previous one was interrupted (the ingest is incremental, so resuming
 * costs little); a marker in instance-local state remembers the outcome.
 */
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import type { ImportStatus } from '../api/schemas/health.js';
import { ingestTree } from '../ingest/ingest-tree.js';
import { storeSink } from '../ingest/sink.js';
import type { Store } from '../store/contract.js';

export const FIRST_IMPORT_MARKER = '_local/server:first-import';

interface Marker {
  state: 'started' | 'done';
  at: string;
  root: string;
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
  root: string;
  enabled: boolean;
  log: (line: string) => void;
  /** Minimum ms between progress lines. */
  logEveryMs?: number;
  /** Wraps each session's ingest (the live session lock: hooks may be recording one of them). */
  runSession?: <T>(sessionId: string, ingest: () => Promise<T>) => Promise<T>;
}): FirstImport {
  const { store, root, log } = options;
  const status: ImportStatus = {
    state: 'idle',
    root,
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
    if (!existsSync(root)) return skip(`${root} does not exist`);
    const marker = await store.docs.getLocal<Marker>(FIRST_IMPORT_MARKER);
    if (marker?.state === 'done') return skip(`already imported on ${marker.at}`);
    if (!marker && (await store.stats()).sessions > 0) return skip('the store already holds sessions');

    status.state = 'running';
    status.startedAt = new Date().toISOString();
    await store.docs.putLocal(FIRST_IMPORT_MARKER, {
      state: 'started',
      at: status.startedAt,
      root,
    } satisfies Marker);
    log(
      `import: ${marker ? 'resuming' : 'first start —'} importing ${root} in the background (progress: /api/health)`,
    );
    let lastLog = 0;
    try {
      const result = await ingestTree({
        root,
        sink: storeSink(store),
        hostname: hostname(),
        source: 'backfill',
        provenance: 'backfilled',
        signal: controller.signal,
        runSession: options.runSession,
        onProgress: (p) => {
          Object.assign(status, {
            filesTotal: p.filesTotal,
            filesDone: p.filesDone,
            bytesTotal: p.bytesTotal,
            bytesDone: p.bytesDone,
            currentFile: p.currentFile,
          });
          const now = Date.now();
          if (now - lastLog >= (options.logEveryMs ?? 2000) || p.filesDone === p.filesTotal) {
            lastLog = now;
            log(`import: ${p.filesDone}/${p.filesTotal} files, ${mb(p.bytesDone)}/${mb(p.bytesTotal)} MB`);
          }
        },
      });
      status.state = 'done';
      status.finishedAt = new Date().toISOString();
      status.currentFile = undefined;
      status.sessions = result.sessions;
      status.failedFiles = result.failed.length;
      await store.docs.putLocal(FIRST_IMPORT_MARKER, {
        state: 'done',
        at: status.finishedAt,
        root,
      } satisfies Marker);
      log(
        `import: done — ${result.files} files, ${result.sessions} sessions, ${mb(result.bytesRead)} MB` +
          (result.failed.length ? `, ${result.failed.length} failed:` : ''),
      );
      for (const f of result.failed) log(`import:   ${f.file}: ${f.error}`);
      for (const k of result.kept) log(`import:   ${k.file} not read, stored history kept: ${k.reason}`);
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
