/**
 * `transcripts backfill`: ingest every agent's session folders (or one tree, --dir) through the
 * HTTP API — the same pipeline as the server's own import, written through `/api/ingest/*`, so it
 * works against a remote instance. Incremental: a second run over unchanged files writes nothing.
 */
import { existsSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { defineCommand } from '../command.js';
import { UsageError } from '../errors.js';

export interface BackfillOptions {
  dir?: string;
  host: string;
  dryRun: boolean;
  webapi?: string;
}

export const backfillCommand = defineCommand<BackfillOptions>({
  name: 'backfill',
  summary: 'Import the sessions of Claude Code, Codex CLI, Gemini CLI and OpenCode through the API',
  description:
    // The agents are ingest/providers/'s PROVIDERS, written out (backfill.test.ts checks).
    "Scans DIR, or else each agent's session folder that exists (OpenCode, Gemini CLI, Codex CLI, Claude Code: " +
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
    // Loaded here, not at the top: `--help` imports every command's module, and needs no ingest/.
    const { runBackfill } = await import('./backfill/run.js');
    return runBackfill(options, ctx);
  },
});
