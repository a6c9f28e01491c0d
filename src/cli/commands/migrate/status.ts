/** `transcripts migrate status`: the target's schema version and every migration's state. */
import type { MigrateStatusBody } from '../../../client/api-client.js';
import { defineCommand } from '../../command.js';
import { formatTable } from '../shared/table.js';
import { jsonOption, webapiOf, webapiOption } from '../shared/options.js';
import { outputWidth, guardClosedPipe } from '../shared/format.js';

export interface MigrateStatusOptions {
  json: boolean;
  webapi?: string;
}

interface Row {
  version: number;
  name: string;
  state: 'applied' | 'pending';
  at: string | null;
  transformsDocs?: boolean;
}

/** One row per migration, applied first, in version order. */
export function migrationRows(s: MigrateStatusBody): Row[] {
  return [
    ...s.applied.map((m) => ({ version: m.version, name: m.name, state: 'applied' as const, at: m.at })),
    ...s.pending.map((m) => ({
      version: m.version,
      name: m.name,
      state: 'pending' as const,
      at: null,
      transformsDocs: m.transformsDocs,
    })),
  ].sort((a, b) => a.version - b.version);
}

export function migrateHeadline(s: MigrateStatusBody): string {
  const pending = s.pending.length;
  return (
    `schema version ${s.currentVersion} of ${s.latestVersion}` +
    (pending ? `, ${pending} pending` : ', up to date')
  );
}

export const migrateStatusCommand = defineCommand<MigrateStatusOptions>({
  name: 'migrate status',
  summary: 'Show the schema version and pending migrations',
  description:
    'Asks the API (GET /api/migrate/status) for the current schema version and the state of every migration.',
  examples: ['transcripts migrate status', 'transcripts migrate status --json'],
  options: [jsonOption, webapiOption],
  parse: (raw) => ({ json: raw.json === true, webapi: webapiOf(raw) }),
  async run(options, ctx) {
    guardClosedPipe(ctx.io); // `| head` ends the output quietly
    const { client } = ctx.client(options.webapi);
    const s = await client.migrateStatus();
    if (options.json) {
      ctx.io.out(JSON.stringify(s, null, 2));
      return 0;
    }
    ctx.io.out(migrateHeadline(s));
    const lines = formatTable(
      [
        { header: 'VERSION', value: (r: Row) => String(r.version), align: 'right' },
        {
          header: 'NAME',
          value: (r) => r.name + (r.transformsDocs ? ' (rewrites documents)' : ''),
          flex: true,
        },
        { header: 'STATE', value: (r) => r.state },
        { header: 'APPLIED AT', value: (r) => r.at ?? '—' },
      ],
      migrationRows(s),
      outputWidth(ctx.io, ctx.env),
    );
    for (const l of lines) ctx.io.out(l);
    return 0;
  },
});
