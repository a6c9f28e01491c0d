/**
 * `transcripts export <dir>`: write a bundle of the history (or a selection of it) read through
 * the API — the first half of copying history to another instance.
 */
import { resolve } from 'node:path';
import { defineCommand } from '../command.js';
import { UsageError } from '../errors.js';
import { parseIsoOption, webapiOf, webapiOption } from './shared/options.js';

export interface ExportOptions {
  dir: string;
  since?: string;
  sessions: string[];
  blobs: boolean;
  webapi?: string;
}

export const exportCommand = defineCommand<ExportOptions>({
  name: 'export',
  summary: 'Write a bundle of your history into a new directory',
  description:
    'Writes docs.ndjson (every session document, revision markers removed), blobs/<sessionId>/… (the ' +
    'transcripts byte for byte) and, last, manifest.json (format, schema version, source, selection, counts ' +
    'and the sha256 of every file). Sessions are taken whole. The directory must be new or empty. Reads ' +
    'through the API found by --webapi, WEBAPI_HOST/WEBAPI_PORT, the installed instance or ' +
    'http://127.0.0.1:7650. Restore it with `transcripts import`.',
  examples: [
    'transcripts export ~/bundles/all',
    'transcripts export /tmp/recent --since 2025-07-01',
    'transcripts export --session 5c0375b4 --session 1af7fc5e /tmp/two',
    'transcripts export /tmp/docs-only --no-blobs --webapi http://nas.local:7650',
  ],
  args: [{ name: '<dir>', description: 'directory to create (or an empty one)' }],
  options: [
    { flags: '--since <iso>', description: 'only sessions active at or after this ISO 8601 date or time' },
    {
      flags: '--session <id...>',
      description: 'only this session (id or unique prefix); repeatable',
      apiParams: ['session'],
    },
    { flags: '--no-blobs', description: 'leave the transcript objects out (documents only)' },
    webapiOption,
  ],
  parse(raw, args) {
    const dir = args[0];
    if (!dir || !dir.trim()) throw new UsageError('export needs a target directory');
    const sessions = Array.isArray(raw.session) ? raw.session.map((s) => String(s).trim()) : [];
    if (sessions.some((s) => !s)) throw new UsageError('--session must not be empty');
    return {
      dir: resolve(dir),
      since: parseIsoOption(raw.since, '--since'),
      sessions: [...new Set(sessions)],
      blobs: raw.blobs !== false,
      webapi: webapiOf(raw),
    };
  },
  async run(options, ctx) {
    // Loaded here, not at the top: `--help` imports every command's module, and needs none of
    // the bundle code (zod's schemas with it).
    const { runExport } = await import('./export/run.js');
    return runExport(options, ctx);
  },
});
