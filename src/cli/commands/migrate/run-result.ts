/** Printing a migration run (up or down) — shared by both commands so they read the same. */
import type { MigrateResultBody } from '../../../client/api-client.js';
import type { CommandContext } from '../../command.js';
import { outputWidth, plural } from '../shared/format.js';
import { formatTable } from '../shared/table.js';

type Step = MigrateResultBody['steps'][number];

/**
 * A step's STATUS cell: a step done is `applied` going up and `reverted` going down (the API
 * says `applied` for both, with the `direction`); a dry run's steps are `planned`, and steps a
 * failure stopped before are `not run`.
 */
export function stepStatus(s: Step, dryRun: boolean): string {
  if (s.status === 'applied') return s.direction === 'down' ? 'reverted' : 'applied';
  if (s.status === 'planned' && !dryRun) return 'not run';
  return s.status;
}

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
      { header: 'STATUS', value: (s) => stepStatus(s, r.dryRun) },
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
