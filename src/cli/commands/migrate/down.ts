/** `transcripts migrate down [--steps N] [--dry-run]`: revert migrations (POST /api/migrate/down). */
import { defineCommand } from '../../command.js';
import { withElapsed } from '../shared/elapsed.js';
import { jsonOption, parseCount, webapiOf, webapiOption } from '../shared/options.js';
import { printMigrateResult } from './run-result.js';

export interface MigrateDownOptions {
  steps?: number;
  dryRun: boolean;
  json: boolean;
  webapi?: string;
}

export const migrateDownCommand = defineCommand<MigrateDownOptions>({
  name: 'migrate down',
  summary: 'Revert the latest migration (or --steps N of them)',
  description:
    'Reverts migrations newest first. All shipped migrations only build views or reshape their tables, so ' +
    'reverting removes views (and what needs them answers 503 until `migrate up`) or puts their tables back ' +
    "in an older version's shape (which this version's writes need brought up again); documents are " +
    'untouched. Note that the API applies pending migrations again when it restarts.',
  examples: ['transcripts migrate down', 'transcripts migrate down --steps 3 --dry-run'],
  options: [
    { flags: '--steps <n>', description: 'how many migrations to revert (default 1)', apiParams: ['steps'] },
    { flags: '--dry-run', description: 'report what would run; change nothing' },
    jsonOption,
    webapiOption,
  ],
  parse: (raw) => ({
    steps: parseCount(raw.steps, '--steps'),
    dryRun: raw.dryRun === true,
    json: raw.json === true,
    webapi: webapiOf(raw),
  }),
  async run(options, ctx) {
    const { client } = ctx.client(options.webapi);
    const body: { steps?: number; dryRun?: boolean } = { dryRun: options.dryRun };
    if (options.steps !== undefined) body.steps = options.steps;
    const result = await withElapsed(ctx.io, 'migrating down', client.migrateDown(body), options.json);
    return printMigrateResult(ctx, 'down', result, options.json);
  },
});
