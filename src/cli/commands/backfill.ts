/**
 * `transcripts backfill`: ingest every agent's session folders (or one tree, --dir) through the
 * HTTP API — the same pipeline as the server's own import, written through `/api/ingest/*`, so it
 * works against a remote instance. Incremental: a second run over unchanged files writes nothing.
 */
import { existsSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { httpSink } from '../../client/http-sink.js';
import { ingestTree, type IngestTreeResult } from '../../ingest/ingest-tree.js';
import { defaultRoots, PROVIDERS } from '../../ingest/providers/index.js';
import { resolvePaths } from '../../config/paths.js';
import { readSecretPatterns } from '../../secrets/patterns.js';
import { defineCommand } from '../command.js';
import { UsageError } from '../errors.js';
import { formatMb } from '../io.js';

export interface BackfillOptions {
  dir?: string;
  host: string;
  dryRun: boolean;
  webapi?: string;
}

/** Sessions parsed at once by a backfill. */
const BACKFILL_SESSIONS = 4;

export const backfillCommand = defineCommand<BackfillOptions>({
  name: 'backfill',
  summary: 'Import the sessions of Claude Code, Codex CLI, Gemini CLI and OpenCode through the API',
  description:
    `Scans DIR, or else each agent's session folder that exists (${PROVIDERS.map((p) => p.name).join(', ')}: ` +
    '~/.claude/projects, $CODEX_HOME/sessions, ~/.gemini/tmp, ~/.local/share/opencode), for session files and ingests new data ' +
    "only. Any agent's files are recognised under DIR. Symbolic links in DIR " +
    'are followed (a folder reached twice is read once). Writes through the API found by --webapi, ' +
    'WEBAPI_HOST/WEBAPI_PORT, the installed instance ' +
    '(instance.env) or http://127.0.0.1:7650, in that order. Exits 1 when any file failed or a folder or file could not be read (each is named).',
  examples: [
    'transcripts backfill',
    'transcripts backfill --dry-run',
    'transcripts backfill --dir /mnt/old-laptop/.claude/projects --host old-laptop',
    'transcripts backfill --dir ~/.codex/sessions',
    'transcripts backfill --webapi http://nas.local:7650',
  ],
  options: [
    { flags: '--dir <dir>', description: "tree to scan (default: every agent's session folder)" },
    { flags: '--host <name>', description: 'hostname to record on the sessions (default this machine)' },
    { flags: '--dry-run', description: 'report what would be ingested, write nothing' },
    { flags: '--webapi <url>', description: 'API to write to (default: see above)' },
  ],
  parse(raw) {
    const host = raw.host === undefined ? hostname() : String(raw.host).trim();
    if (!host) throw new UsageError('--host must not be empty');
    const dir = raw.dir === undefined ? undefined : resolve(String(raw.dir));
    if (dir !== undefined && (!existsSync(dir) || !statSync(dir).isDirectory()))
      throw new UsageError(`--dir ${String(raw.dir)}: no such directory`);
    return { dir, host, dryRun: raw.dryRun === true, webapi: raw.webapi as string | undefined };
  },
  async run(options, ctx) {
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
  },
});

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
