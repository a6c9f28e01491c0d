/**
 * `transcripts export <dir>`: write a bundle of the history (or a selection of it) read through
 * the API — the first half of copying history to another instance.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MANIFEST_FILE } from '../../bundle/format.js';
import { describeApiUrl } from '../../config/api-url.js';
import { defineCommand } from '../command.js';
import { UsageError } from '../errors.js';
import { formatBytes, plural } from './shared/format.js';
import { parseIsoOption, webapiOf, webapiOption } from './shared/options.js';
import { SessionRefError } from './shared/session-ref.js';
import { BundleError } from './shared/bundle-error.js';
import { writeBundle } from './shared/write-bundle.js';

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
    const { client, resolution } = ctx.client(options.webapi);
    try {
      const m = await writeBundle({
        client,
        sourceUrl: resolution.url,
        dir: options.dir,
        since: options.since,
        sessions: options.sessions,
        blobs: options.blobs,
        io: ctx.io,
        signal: ctx.signal,
      });
      const types = Object.entries(m.counts.documentsByType)
        .sort()
        .map(([t, n]) => `${n} ${t}`)
        .join(', ');
      ctx.io.out(
        `exported ${plural(m.counts.sessions, 'session')} from ${describeApiUrl(resolution)} into ${options.dir}: ` +
          `${plural(m.counts.documents, 'document')}${types ? ` (${types})` : ''}, ` +
          (options.blobs
            ? `${plural(m.counts.objects, 'object')} (${formatBytes(m.counts.objectBytes)})`
            : 'no objects (--no-blobs)') +
          `; schema version ${m.schemaVersion}`,
      );
      if (m.counts.sessions === 0) ctx.io.err('note: no session matched the selection; the bundle is empty');
      for (const miss of m.missingObjects)
        ctx.io.err(
          `note: session ${miss.sessionId} has no stored ${miss.names.join(', ')} on the source; exported without it (listed in the manifest)`,
        );
      return 0;
    } catch (err) {
      if (err instanceof BundleError || err instanceof SessionRefError) {
        ctx.io.err(`export refused: ${err.message}`);
        return 1;
      }
      // Whatever was written stays without a manifest, which import recognises as unfinished.
      if (
        existsSync(options.dir) &&
        !existsSync(join(options.dir, MANIFEST_FILE)) &&
        readdirSync(options.dir).length > 0
      )
        ctx.io.err(
          `note: ${options.dir} holds an unfinished bundle (no ${MANIFEST_FILE}); remove it before exporting again`,
        );
      throw err;
    }
  },
});
