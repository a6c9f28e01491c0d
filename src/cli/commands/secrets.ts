/**
 * `transcripts secrets [filters]`: which sessions hold likely secrets, with the count by rule —
 * what a user checks before backing their history up or moving it to a team server. The counts
 * are those ingest stored in each session's summary (the session list carries them), so a large
 * history answers at once. A session ingested before secrets were counted has none stored: it is
 * scanned on the spot by the server with the rules and texts of a share (GET
 * /api/sessions/{id}/share?format=summary), and `--rescan` scans every session so — what `share`
 * would redact now, with config.json's patterns as they are now.
 */
import type { Session, SessionFilters } from '../../client/api-client.js';
import { defineCommand } from '../command.js';
import { guardClosedPipe, plural } from './shared/format.js';
import { filterOptions, jsonOption, parseFilters, webapiOf, webapiOption } from './shared/options.js';
import { formatTable } from './shared/table.js';
import { outputWidth } from './shared/format.js';

export interface SecretsOptions {
  filters: SessionFilters;
  all: boolean;
  rescan: boolean;
  json: boolean;
  webapi?: string;
}

interface SessionSecrets {
  id: string;
  title: string | null;
  project: string | null;
  total: number;
  redactions: Record<string, number>;
  /** `ingest`: the counts stored when the session was read; `scan`: scanned now. */
  counted: 'ingest' | 'scan';
}

export const secretsCommand = defineCommand<SecretsOptions>({
  name: 'secrets',
  summary: 'List the sessions that hold likely secrets, with counts by rule',
  description:
    'Lists the sessions the filters select that hold likely secrets (secretlint’s recommended preset and ' +
    'config.json’s secrets.patterns): id, count, counts by rule, project and title. Never prints a secret. ' +
    'The counts are those ingest stored; a session ingested before secrets were counted is scanned now, ' +
    'as share would redact it, and --rescan scans every session so (after changing secrets.patterns, say). ' +
    '--all lists sessions without findings too; --json prints [{id, title, project, total, redactions, counted}].',
  examples: ['transcripts secrets', 'transcripts secrets --project my-app --json'],
  options: [
    ...filterOptions,
    { flags: '--all', description: 'list the sessions without findings too' },
    {
      flags: '--rescan',
      description: 'scan every session now instead of reading the counts stored at ingest',
    },
    jsonOption,
    webapiOption,
  ],
  parse: (raw) => ({
    filters: parseFilters(raw),
    all: raw.all === true,
    rescan: raw.rescan === true,
    json: raw.json === true,
    webapi: webapiOf(raw),
  }),
  async run(options, ctx) {
    guardClosedPipe(ctx.io);
    const { client } = ctx.client(options.webapi);
    const sessions: Session[] = [];
    for (let offset = 0; ;) {
      const page = await client.listSessions({ ...options.filters, limit: 500, offset });
      sessions.push(...page.sessions);
      offset += page.sessions.length;
      if (page.sessions.length === 0 || offset >= page.total) break;
    }
    const progress = ctx.io.progress('secrets');
    const found: SessionSecrets[] = [];
    try {
      for (const [i, s] of sessions.entries()) {
        const stored = options.rescan ? null : s.secrets;
        const r =
          stored ??
          (await client.api.GET('/api/sessions/{id}/share', {
            params: { path: { id: s.id }, query: { format: 'summary' } },
          }));
        found.push({
          id: s.id,
          title: s.title,
          project: s.project,
          total: r.total,
          redactions: 'byRule' in r ? r.byRule : r.redactions,
          counted: stored ? 'ingest' : 'scan',
        });
        progress.update({ filesDone: i + 1, filesTotal: sessions.length, bytesDone: 0 });
      }
    } finally {
      progress.stop();
    }
    const shown = options.all ? found : found.filter((f) => f.total > 0);
    shown.sort((a, b) => b.total - a.total || a.id.localeCompare(b.id));
    if (options.json) {
      ctx.io.out(JSON.stringify(shown, null, 2));
      return 0;
    }
    const byRule = (r: Record<string, number>) =>
      Object.entries(r)
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .map(([k, n]) => `${k} ${n}`)
        .join(', ') || '—';
    if (shown.length)
      for (const l of formatTable<SessionSecrets>(
        [
          { header: 'ID', value: (s) => s.id.slice(0, 12) },
          { header: 'SECRETS', value: (s) => String(s.total), align: 'right' },
          { header: 'BY RULE', value: (s) => byRule(s.redactions), flex: true, min: 12 },
          { header: 'PROJECT', value: (s) => s.project ?? '—', flex: true, min: 10, drop: 2 },
          { header: 'TITLE', value: (s) => s.title ?? '—', flex: true, min: 12, drop: 1 },
        ],
        shown,
        outputWidth(ctx.io, ctx.env),
      ))
        ctx.io.out(l);
    const holding = found.filter((f) => f.total > 0).length;
    ctx.io.out(
      `${plural(holding, 'session')} of ${sessions.length} hold${holding === 1 ? 's' : ''} likely secrets ` +
        `(${plural(
          found.reduce((n, f) => n + f.total, 0),
          'finding',
        )})`,
    );
    return 0;
  },
});
