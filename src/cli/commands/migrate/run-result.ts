/** Printing a migration run (up or down) — shared by both commands so they read the same. */
import type { MigrateResultBody } from '../../../client/api-client.js';
import type { CommandContext } from '../../command.js';
import { outputWidth, plural } from '../shared/format.js';
import { formatTable } from '../shared/table.js';

type Step = MigrateResultBody['steps'][number];

/** Prints the run; returns the exit code (1 when a step failed). */
export function printMigrateResult(
  ctx: CommandContext,
  verb: 'up' | 'down',
  r: MigrateResultBody,
  json: boolean,
): number {
  if (json) {
    ctx.io.out(JSON.stringify(r, null, 2));
    return r.error ? 1 : 0;
  }
  if (r.steps.length === 0) {
    ctx.io.out(`migrate ${verb}: nothing to do; schema version ${r.from}`);
    return 0;
  }
  const head = r.dryRun
    ? `dry run: migrate ${verb} would ${verb === 'up' ? 'apply' : 'revert'} ${plural(r.steps.length, 'migration')}, version ${r.from} → ${r.to}; nothing changed`
    : `migrate ${verb}: version ${r.from} → ${r.to}`;
  ctx.io.out(head);
  const lines = formatTable(
    [
      { header: 'VERSION', value: (s: Step) => String(s.version), align: 'right' },
      { header: 'NAME', value: (s) => s.name, flex: true },
      { header: 'STATUS', value: (s) => (s.status === 'planned' && !r.dryRun ? 'not run' : s.status) },
    ],
    r.steps,
    outputWidth(ctx.io, ctx.env),
  );
  for (const l of lines) ctx.io.out(l);
  if (r.error) {
    ctx.io.err(`error: ${r.error}`);
    return 1;
  }
  return 0;
}
