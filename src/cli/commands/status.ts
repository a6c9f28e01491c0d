/**
 * `transcripts status`: which instance this CLI talks to and how it was found, and what that
 * instance says about itself (version, store, schema, sessions, search, first-start import).
 */
import { describeApiUrl } from '../../config/api-url.js';
import { defineCommand } from '../command.js';
import { formatBytes, plural } from './shared/format.js';
import { jsonOption, webapiOf, webapiOption } from './shared/options.js';
import { terminalLine } from './shared/terminal-text.js';

export interface StatusOptions {
  json: boolean;
  webapi?: string;
}

export const statusCommand = defineCommand<StatusOptions>({
  name: 'status',
  summary: 'Show which instance was found, its version, schema and session count',
  description:
    'Finds the API by --webapi, then WEBAPI_HOST/WEBAPI_PORT, then the installed instance (instance.env), then ' +
    'http://127.0.0.1:7650, and asks it for its health. Exits 1 when nothing answers there.',
  examples: ['transcripts status', 'transcripts status --json', 'WEBAPI_PORT=7700 transcripts status'],
  options: [jsonOption, webapiOption],
  parse: (raw) => ({ json: raw.json === true, webapi: webapiOf(raw) }),
  async run(options, ctx) {
    const { client, resolution } = ctx.client(options.webapi);
    const health = await client.health();
    const migrate = await client.migrateStatus();
    if (options.json) {
      ctx.io.out(JSON.stringify({ instance: resolution, health, migrate }, null, 2));
      return 0;
    }
    const c = health.counts;
    const pending = migrate.pending.map((p) => `${p.version} ${p.name}`);
    const rows: Array<[string, string]> = [
      ['instance', describeApiUrl(resolution)],
      ['version', `transcripts ${health.version} (${health.status})`],
      [
        'store',
        `${health.store.engine}, ${health.store.state}${health.store.error ? `: ${health.store.error}` : ''}`,
      ],
      [
        'schema',
        `version ${migrate.currentVersion} of ${migrate.latestVersion}` +
          (pending.length
            ? `; ${plural(pending.length, 'pending migration')}: ${pending.join(', ')}`
            : '; no pending migrations'),
      ],
      [
        'sessions',
        c
          ? `${c.sessions} (${plural(c.documents, 'document')}, ${plural(c.objects, 'object')}, ${formatBytes(c.objectBytes)})`
          : 'unknown (the store could not be read)',
      ],
      [
        'search',
        !health.search.enabled
          ? 'off (the full-text migration is pending)'
          : health.search.stale
            ? 'enabled, behind (the server catches up by itself; `transcripts reindex` does it now)'
            : 'enabled',
      ],
      ['import', importLine(health.import)],
    ];
    // What the server says of itself (an error, a path) is its text: shown, never acted on.
    for (const [k, v] of rows) ctx.io.out(`${k.padEnd(9)} ${terminalLine(v)}`);
    return 0;
  },
});

function importLine(i: {
  state: string;
  reason?: string;
  filesDone: number;
  filesTotal: number;
  sessions?: number;
  root?: string;
}): string {
  switch (i.state) {
    case 'running':
      return `first-start import running: ${i.filesDone}/${i.filesTotal} files${i.root ? ` (reading ${i.root})` : ''}`;
    case 'done':
      return `first-start import done${i.sessions !== undefined ? ` (${plural(i.sessions, 'session')})` : ''}`;
    case 'failed':
      return `first-start import failed${i.reason ? `: ${i.reason}` : ''}`;
    case 'skipped':
      return `first-start import skipped${i.reason ? `: ${i.reason}` : ''}`;
    default:
      return i.state;
  }
}
