/** What `transcripts hooks status` does (its spec, ../status.ts, imports this when it runs). */
import { resolvePaths } from '../../../../config/paths.js';
import { HOOK_EVENTS, readRegistration, type Registration } from '../../../../live/claude-settings.js';
import { readHookLog, type HookLogLine } from '../../../../live/hook-log.js';
import { livePaths } from '../../../../live/live-paths.js';
import { claudeSettingsFile, readSettingsFile } from '../../../../live/settings-file.js';
import { spoolStatus, type SpoolStatus } from '../../../../live/spool.js';
import type { CommandContext } from '../../../command.js';
import { type HooksStatusOptions, missingPaths } from '../status.js';

const REACHED = new Set(['sent', 'replayed']);

export interface HooksStatus {
  settings: string;
  registration: Registration | null;
  settingsError?: string;
  brokenCommands: Array<{ command: string; missing: string[] }>;
  calls: {
    total: number;
    reached: number;
    last: HookLogLine | null;
    lastReached: HookLogLine | null;
    lastMissed: HookLogLine | null;
  };
  recent: HookLogLine[];
  spool: SpoolStatus;
}

export async function runHooksStatus(options: HooksStatusOptions, ctx: CommandContext): Promise<number> {
  const file = options.settings ?? claudeSettingsFile(ctx.env);
  const paths = livePaths(resolvePaths(ctx.env).dataDir);
  let registration: Registration | null = null;
  let settingsError: string | undefined;
  try {
    registration = readRegistration((await readSettingsFile(file)).settings);
  } catch (err) {
    settingsError = (err as Error).message;
  }
  const commands = new Set(Object.values(registration?.ours ?? {}).flat());
  const brokenCommands = [...commands]
    .map((command) => ({ command, missing: missingPaths(command) }))
    .filter((c) => c.missing.length > 0);
  const recent = readHookLog(paths.hookLog, 200);
  const reached = recent.filter((l) => REACHED.has(l.outcome));
  const missed = recent.filter((l) => !REACHED.has(l.outcome) && l.outcome !== 'skipped');
  const status: HooksStatus = {
    settings: file,
    registration,
    ...(settingsError ? { settingsError } : {}),
    brokenCommands,
    calls: {
      total: recent.length,
      reached: reached.length,
      last: recent.at(-1) ?? null,
      lastReached: reached.at(-1) ?? null,
      lastMissed: missed.at(-1) ?? null,
    },
    recent: recent.slice(-10),
    spool: await spoolStatus(paths.spoolDir),
  };
  if (options.json) {
    ctx.io.out(JSON.stringify(status, null, 2));
    return 0;
  }

  const out = (s: string) => ctx.io.out(s);
  out(`settings: ${file}`);
  if (settingsError) out(`  cannot read it: ${settingsError}`);
  else if (registration) {
    const n = HOOK_EVENTS.length - registration.missing.length;
    out(
      `  registered: ${n}/${HOOK_EVENTS.length} events${n === 0 ? ' (run `transcripts hooks install`)' : ''}`,
    );
    if (registration.missing.length && n > 0)
      out(`  missing: ${registration.missing.join(', ')} (run \`transcripts hooks install\`)`);
    if (registration.duplicated.length)
      out(`  registered twice (each call recorded twice): ${registration.duplicated.join(', ')}`);
    for (const c of commands) out(`  command: ${c}`);
    for (const b of brokenCommands)
      out(`  BROKEN: ${b.missing.join(', ')} no longer exist(s); run \`transcripts hooks install\` again`);
    out(`  other tools' hooks: ${registration.others} (left alone)`);
  }
  const { calls } = status;
  if (calls.total === 0) out(`calls: none logged yet (${paths.hookLog})`);
  else {
    out(`calls: ${calls.reached} of the last ${calls.total} reached the API`);
    if (calls.lastReached)
      out(
        `  last reached: ${calls.lastReached.at} (${calls.lastReached.event}, ${calls.lastReached.ms} ms) → ${calls.lastReached.api ?? ''}`,
      );
    if (calls.lastMissed)
      out(
        `  last missed:  ${calls.lastMissed.at} (${calls.lastMissed.event}, ${calls.lastMissed.outcome}): ${calls.lastMissed.error ?? calls.lastMissed.problems?.join('; ') ?? ''}`,
      );
  }
  const sp = status.spool;
  out(
    sp.records === 0 && !sp.overflow
      ? 'spool: empty'
      : `spool: ${sp.records} record(s) waiting (${sp.bytes} bytes) — replayed by the next hook call that reaches the API, or by the server`,
  );
  if (sp.overflow)
    out(
      `  full: ${sp.overflow.dropped} event(s) of ${sp.overflow.sessions} session(s) dropped and counted (transcripts are still shipped)`,
    );
  if (sp.rejected)
    out(`  rejected for good: ${sp.rejected} record(s), kept in ${paths.spoolDir}/rejected.ndjson`);
  return 0;
}
