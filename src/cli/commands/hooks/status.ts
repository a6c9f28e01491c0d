/**
 * `transcripts hooks status`: are our hooks registered (every event, once, with a command that
 * still exists), and did the last calls reach the API — from the hook's own log — plus what waits
 * in the spool.
 */
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { resolvePaths } from '../../../config/paths.js';
import { HOOK_EVENTS, readRegistration, type Registration } from '../../../live/claude-settings.js';
import { readHookLog, type HookLogLine } from '../../../live/hook-log.js';
import { livePaths } from '../../../live/live-paths.js';
import { claudeSettingsFile, readSettingsFile } from '../../../live/settings-file.js';
import { spoolStatus, type SpoolStatus } from '../../../live/spool.js';
import { defineCommand } from '../../command.js';
import { jsonOption } from '../shared/options.js';
import { settingsFileOf, settingsOption } from './shared.js';

export interface HooksStatusOptions {
  settings?: string;
  json: boolean;
}

/**
 * A hook command's words as a POSIX shell splits them: single quotes, double quotes (with their
 * backslash escapes), backslashes, and quoted pieces joined to the rest of a word
 * (`CT_HOME='/my dir'` is one word, `CT_HOME=/my dir`).
 */
export function commandWords(command: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const ch = command[i]!;
    if (/\s/.test(ch)) {
      if (word !== null) words.push(word);
      word = null;
      continue;
    }
    word ??= '';
    if (ch === "'") {
      const end = command.indexOf("'", i + 1);
      word += command.slice(i + 1, end < 0 ? undefined : end);
      i = end < 0 ? command.length : end;
    } else if (ch === '"') {
      for (i++; i < command.length && command[i] !== '"'; i++)
        word += command[i] === '\\' && /["\\$`]/.test(command[i + 1] ?? '') ? command[++i] : command[i];
    } else if (ch === '\\' && i + 1 < command.length) word += command[++i];
    else word += ch;
  }
  if (word !== null) words.push(word);
  return words;
}

/** Absolute paths in a command (quoted or bare) that do not exist: a moved node or package. */
export function missingPaths(command: string): string[] {
  return commandWords(command).filter((w) => isAbsolute(w) && !existsSync(w));
}

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

export const hooksStatusCommand = defineCommand<HooksStatusOptions>({
  name: 'hooks status',
  summary: 'Show whether the hooks are registered and whether their last calls reached the API',
  description:
    'Reads ~/.claude/settings.json (are all events registered, once, with a command that exists?), the ' +
    "hook's log in the data dir (live/hook.log: the last calls, and whether they reached the API or were " +
    'spooled) and the spool (what waits for the API).',
  examples: ['transcripts hooks status', 'transcripts hooks status --json'],
  options: [settingsOption, jsonOption],
  parse: (raw) => ({ settings: settingsFileOf(raw), json: raw.json === true }),
  async run(options, ctx) {
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
  },
});
