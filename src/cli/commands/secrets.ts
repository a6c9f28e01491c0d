/**
 * `transcripts secrets [filters]`: which sessions hold likely secrets, with the count by rule —
 * what a user checks before backing their history up or moving it to a team server. Each session
 * is scanned by the server with the same rules and texts as a share (GET
 * /api/sessions/{id}/share?format=summary), so the counts are what `share` would redact.
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
  json: boolean;
  webapi?: string;
}

interface SessionSecrets {
  id: string;
  title: string | null;
  project: string | null;
  total: number;
  redactions: Record<string, number>;
}

export const secretsCommand = defineCommand<SecretsOptions>({
  name: 'secrets',
  summary: 'List the sessions that hold likely secrets, with counts by rule',
  description:
    'Scans every session the filters select with the rules share redacts by (secretlint’s recommended preset ' +
    'and config.json’s secrets.patterns) and lists those with findings: id, count, counts by rule, project and ' +
    'title. Never prints a secret. --all lists sessions without findings too; --json prints ' +
    '[{id, title, project, total, redactions}].',
  examples: ['transcripts secrets', 'transcripts secrets --project my-app --json'],
  options: [
    ...filterOptions,
    { flags: '--all', description: 'list the sessions without findings too' },
    jsonOption,
    webapiOption,
  ],
  parse: (raw) => ({
    filters: parseFilters(raw),
    all: raw.all === true,
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
        const r = await client.request<{ redactions: Record<string, number>; total: number }>(
          'GET',
          `/api/sessions/${encodeURIComponent(s.id)}/share`,
          { query: { format: 'summary' } },
        );
        found.push({
          id: s.id,
          title: s.title,
          project: s.project,
          total: r.total,
          redactions: r.redactions,
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
