/** What `transcripts backfill` does (its spec, ../backfill.ts, imports this when it runs). */
import { existsSync } from 'node:fs';
import { httpSink } from '../../../client/http-sink.js';
import { resolvePaths } from '../../../config/paths.js';
import { ingestTree, type IngestTreeResult } from '../../../ingest/ingest-tree.js';
import { defaultRoots } from '../../../ingest/providers/index.js';
import { readSecretPatterns } from '../../../secrets/patterns.js';
import type { CommandContext } from '../../command.js';
import { formatMb } from '../../io.js';
import type { BackfillOptions } from '../backfill.js';

/** Sessions parsed at once by a backfill. */
const BACKFILL_SESSIONS = 4;

export async function runBackfill(options: BackfillOptions, ctx: CommandContext): Promise<number> {
  const candidates = options.dir ? [options.dir] : defaultRoots(ctx.env);
  const roots = candidates.filter((r) => existsSync(r));
  if (roots.length === 0) {
    ctx.io.err(
      `nothing to backfill: ${candidates.join(', ')} ${candidates.length === 1 ? 'does' : 'do'} not exist (pass --dir DIR)`,
    );
    return 1;
  }
  const { client } = ctx.client(options.webapi);
  await client.health(); // fail early, with the URL and how it was chosen, when nothing answers
  const progress = ctx.io.progress('backfill');
  const results: IngestTreeResult[] = [];
  const secretPatterns = readSecretPatterns(resolvePaths(ctx.env).configFile);
  try {
    for (const root of roots)
      results.push(
        await ingestTree({
          root,
          sink: httpSink(client),
          // Over HTTP a commit takes longer (serialised, sent, parsed again by the server), so more
          // sessions in flight keep both processes busy (1 GB: 3 → 36.2 s, 4 → 35.1 s, 2 → 39.9 s).
          concurrency: BACKFILL_SESSIONS,
          hostname: options.host,
          source: 'backfill',
          provenance: 'backfilled',
          dryRun: options.dryRun,
          signal: ctx.signal,
          // The patterns of this machine's config.json: the transcripts are read here.
          secretPatterns,
          onProgress: (p) => progress.update(p),
        }),
      );
  } finally {
    progress.stop();
  }
  const result = sumResults(results);
  if (options.dryRun) {
    ctx.io.out(
      `dry run: ${result.files} files, ${result.changedFiles} with new data in ${result.sessions} sessions, ` +
        `${formatMb(result.bytesPending)} MB to read; nothing written`,
    );
  } else {
    ctx.io.out(
      `backfill: ${result.files} files (${result.changedFiles} with new data), ${result.sessions} sessions, ` +
        `${formatMb(result.bytesRead)} MB read, ${result.docsWritten} documents written, ${result.docsUnchanged} unchanged`,
    );
  }
  if (result.kept.length > 0) {
    ctx.io.err(`${result.kept.length} file(s) not read, their stored history kept:`);
    for (const k of result.kept) ctx.io.err(`  ${k.file}: ${k.reason}`);
  }
  if (result.skipped.length > 0) {
    ctx.io.err(`${result.skipped.length} path(s) could not be read, nothing of them stored:`);
    for (const k of result.skipped) ctx.io.err(`  ${k.path}: ${k.reason}`);
  }
  if (result.failed.length > 0) {
    ctx.io.err(`${result.failed.length} file(s) failed:`);
    for (const f of result.failed) ctx.io.err(`  ${f.file}: ${f.error}`);
  }
  return result.failed.length > 0 || result.skipped.length > 0 ? 1 : 0;
}

/** The results of several trees as one. */
function sumResults(results: IngestTreeResult[]): IngestTreeResult {
  const sum = (
    key:
      | 'files'
      | 'changedFiles'
      | 'sessions'
      | 'bytesRead'
      | 'bytesPending'
      | 'entries'
      | 'docsWritten'
      | 'docsUnchanged'
      | 'forgotten',
  ) => results.reduce((n, r) => n + r[key], 0);
  return {
    files: sum('files'),
    changedFiles: sum('changedFiles'),
    sessions: sum('sessions'),
    bytesRead: sum('bytesRead'),
    bytesPending: sum('bytesPending'),
    entries: sum('entries'),
    docsWritten: sum('docsWritten'),
    docsUnchanged: sum('docsUnchanged'),
    forgotten: sum('forgotten'),
    failed: results.flatMap((r) => r.failed),
    kept: results.flatMap((r) => r.kept),
    skipped: results.flatMap((r) => r.skipped),
  };
}
