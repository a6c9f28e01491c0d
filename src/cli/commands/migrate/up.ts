/** `transcripts migrate up [--to N] [--dry-run]`: apply pending migrations (POST /api/migrate/up). */
import { defineCommand } from '../../command.js';
import { withElapsed } from '../shared/elapsed.js';
import { jsonOption, parseCount, webapiOf, webapiOption } from '../shared/options.js';
import { printMigrateResult } from './run-result.js';

export interface MigrateUpOptions {
  to?: number;
  dryRun: boolean;
  json: boolean;
  webapi?: string;
}

export const migrateUpCommand = defineCommand<MigrateUpOptions>({
  name: 'migrate up',
  summary: 'Apply pending migrations (all, or up to --to N)',
  description:
    'Applies pending migrations in order, writing the schema marker after each. The API also applies them at ' +
    'start; this is for an instance that was migrated down, or to stop at a version. Exits 1 when a step fails.',
  examples: ['transcripts migrate up', 'transcripts migrate up --to 8 --dry-run'],
  options: [
    { flags: '--to <n>', description: 'stop at schema version n (default: the latest)', apiParams: ['to'] },
    { flags: '--dry-run', description: 'report what would run; change nothing' },
    jsonOption,
    webapiOption,
  ],
  parse: (raw) => ({
    to: parseCount(raw.to, '--to'),
    dryRun: raw.dryRun === true,
    json: raw.json === true,
    webapi: webapiOf(raw),
  }),
  async run(options, ctx) {
    const { client } = ctx.client(options.webapi);
    const body: { to?: number; dryRun?: boolean } = { dryRun: options.dryRun };
    if (options.to !== undefined) body.to = options.to;
    const result = await withElapsed(ctx.io, 'migrating up', client.migrateUp(body), options.json);
    return printMigrateResult(ctx, 'up', result, options.json);
  },
});
