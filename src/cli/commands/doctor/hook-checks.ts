/**
 * Doctor's checks of the Claude Code hooks: registered in settings.json (every event, once, with
 * a command whose files exist), recording into the dirs this CLI uses (the CT_HOME / XDG_* their
 * command carries), what their last calls did (live/hook.log) and what waits in their spool.
 * The log and the spool are read where the hooks write them, which is this CLI's data dir only
 * when the two agree.
 */
import { join } from 'node:path';
import { type Env, envValue, resolvePaths } from '../../../config/paths.js';
import { HOOK_EVENTS, readRegistration, type Registration } from '../../../live/claude-settings.js';
import { readHookLog, type HookLogLine } from '../../../live/hook-log.js';
import { livePaths } from '../../../live/live-paths.js';
import { readSettingsFile } from '../../../live/settings-file.js';
import { spoolStatus, type SpoolStatus } from '../../../live/spool.js';
import { formatBytes, plural } from '../shared/format.js';
import { commandWords, missingPaths } from '../hooks/status.js';
import { check, type CheckResult } from './check.js';

/** The variables a hook command may set in front of itself that move its dirs. */
const DIR_VARS = ['CT_HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME'];

/** `CT_HOME=/x XDG_DATA_HOME=/y node bin hook` → `{CT_HOME: '/x', XDG_DATA_HOME: '/y'}`. */
export function commandAssignments(command: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const w of commandWords(command)) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(w);
    if (!m) break;
    out[m[1]!] = m[2]!;
  }
  return out;
}

/**
 * The environment a hook command runs with as far as its dirs go. Claude Code runs it in its own
 * environment: HOME and a login-wide XDG_* are taken to be this shell's, a CT_HOME (usually set
 * per shell) not; what the command sets in front of itself wins.
 */
export function hookEnv(command: string | null, env: Env): Env {
  const base: Env = { HOME: env.HOME };
  for (const k of ['XDG_CONFIG_HOME', 'XDG_DATA_HOME']) if (envValue(env, k)) base[k] = env[k];
  if (command === null) return { ...base, CT_HOME: env.CT_HOME };
  return { ...base, ...commandAssignments(command) };
}

export interface HookFacts {
  settingsFile: string;
  registration: Registration | null;
  error?: string;
  /** Each distinct command registered, with the absolute paths in it that do not exist. */
  commands: Array<{ command: string; missing: string[] }>;
}

export async function gatherHooks(settingsFile: string): Promise<HookFacts> {
  try {
    const registration = readRegistration((await readSettingsFile(settingsFile)).settings);
    const commands = [...new Set(Object.values(registration.ours).flat())].map((command) => ({
      command,
      missing: missingPaths(command),
    }));
    return { settingsFile, registration, commands };
  } catch (err) {
    return { settingsFile, registration: null, error: (err as Error).message, commands: [] };
  }
}

const INSTALL = 'transcripts hooks install';

export function assessHooks(f: HookFacts): CheckResult {
  const c = check('hooks', 'live', 'hooks');
  if (!f.registration)
    return c.fail(
      `cannot read ${f.settingsFile}: ${f.error}`,
      `fix ${f.settingsFile} by hand (a JSON object)`,
    );
  const r = f.registration;
  const all = HOOK_EVENTS.length;
  const n = all - r.missing.length;
  const broken = f.commands.filter((x) => x.missing.length);
  if (broken.length)
    return c.fail(
      `the hook command runs ${broken.flatMap((b) => b.missing).join(', ')}, which does not exist: ` +
        'every call fails and records nothing',
      INSTALL,
    );
  if (n === 0)
    return c.warn(
      `not registered in ${f.settingsFile}: no hook events, and sessions are recorded only where the server watches ~/.claude/projects`,
      INSTALL,
    );
  if (r.missing.length)
    return c.warn(
      `${n} of ${all} events registered in ${f.settingsFile}; missing ${r.missing.join(', ')}`,
      INSTALL,
    );
  if (r.duplicated.length)
    return c.warn(
      `registered more than once for ${r.duplicated.join(', ')} in ${f.settingsFile}: each call is recorded twice`,
      INSTALL,
    );
  if (f.commands.length > 1)
    return c.warn(`the events run ${f.commands.length} different commands (${f.settingsFile})`, INSTALL);
  return c.ok(`all ${all} events registered in ${f.settingsFile}`);
}

/** Whether the hooks write where this CLI reads: the data dir their command leads to. */
export function assessHookDirs(f: HookFacts, env: Env): CheckResult {
  const c = check('hook-dirs', 'live', 'hook dirs');
  const command = f.commands[0]?.command;
  if (!command) return c.skip('no hooks registered');
  const theirs = resolvePaths(hookEnv(command, env));
  const ours = resolvePaths(env);
  const set = Object.entries(commandAssignments(command))
    .filter(([k]) => DIR_VARS.includes(k))
    .map(([k, v]) => `${k}=${v}`);
  const how = set.length ? `their command sets ${set.join(' ')}` : 'their command sets no CT_HOME';
  if (theirs.dataDir === ours.dataDir && theirs.configDir === ours.configDir)
    return c.ok(`the hooks use this CLI's dirs (${ours.dataDir})`);
  const ctHome = envValue(env, 'CT_HOME');
  return c.warn(
    `the hooks record into ${theirs.dataDir} and find the API through ${theirs.instanceEnvFile} (${how}); ` +
      `this CLI uses ${ours.dataDir}`,
    `${ctHome ? `CT_HOME=${ctHome} ` : ''}${INSTALL} (from the shell whose CT_HOME is the instance's)`,
  );
}

export interface HookRunFacts {
  log: string;
  lines: HookLogLine[];
  spoolDir: string;
  spool: SpoolStatus;
}

/** The hook log and spool where the hooks write them (this CLI's data dir when no hooks). */
export async function gatherHookRuns(f: HookFacts, env: Env): Promise<HookRunFacts> {
  const paths = livePaths(resolvePaths(hookEnv(f.commands[0]?.command ?? null, env)).dataDir);
  return {
    log: paths.hookLog,
    lines: readHookLog(paths.hookLog, 200),
    spoolDir: paths.spoolDir,
    spool: await spoolStatus(paths.spoolDir),
  };
}

const REACHED = new Set(['sent', 'replayed']);

/** `apiAnswers`: whether the API the hooks use answers now; `startFix`: how to start it. */
export function assessHookCalls(f: HookRunFacts, apiAnswers: boolean, startFix: string): CheckResult {
  const c = check('hook-calls', 'live', 'hook calls');
  const calls = f.lines.filter((l) => l.outcome !== 'skipped');
  if (calls.length === 0) return c.ok(`none logged yet in ${f.log}`);
  const last = calls.at(-1)!;
  const reached = calls.filter((l) => REACHED.has(l.outcome)).length;
  const rejected = calls.filter((l) => l.outcome === 'rejected');
  const lastCall = `the last call (${last.at}, ${last.event ?? 'no event'})`;
  const why = last.error ? `: ${last.error}` : '';
  if (last.outcome === 'spooled' || last.outcome === 'failed') {
    if (!apiAnswers)
      return c.warn(
        `${lastCall} was ${last.outcome}${why}; ${reached} of the last ${calls.length} reached the API`,
        startFix,
      );
    if (last.outcome === 'spooled')
      return c.ok(`${lastCall} was spooled${why}; the API answers now, so it is replayed`);
    return c.warn(`${lastCall} failed${why}`, `transcripts hooks status (the log is ${f.log})`);
  }
  if (rejected.length)
    return c.warn(
      `${rejected.length} of the last ${calls.length} calls were refused by the API (last: ${rejected.at(-1)!.error ?? 'no reason'})`,
      `transcripts hooks status; the records are kept in ${join(f.spoolDir, 'rejected.ndjson')}`,
    );
  return c.ok(
    `${reached} of the last ${calls.length} calls reached the API; ${lastCall} was ${last.outcome}`,
  );
}

export function assessSpool(f: HookRunFacts, apiAnswers: boolean, startFix: string): CheckResult {
  const c = check('spool', 'live', 'spool');
  const s = f.spool;
  if (s.records > 0)
    return c.warn(
      `${plural(s.records, 'hook record')} (${formatBytes(s.bytes)}) wait in ${f.spoolDir} for the API`,
      apiAnswers
        ? 'they go with the next hook call, or within a minute from a server on this data dir (`transcripts hooks status` lists them)'
        : startFix,
    );
  if (s.overflow)
    return c.warn(
      `the spool filled up: ${plural(s.overflow.dropped, 'event')} of ${plural(s.overflow.sessions, 'session')} were dropped and counted (their transcripts still ship)`,
      apiAnswers ? 'the next replay records the counts (`transcripts hooks status` shows them)' : startFix,
    );
  if (s.rejected)
    return c.warn(
      `${plural(s.rejected, 'record')} the API refused for good are kept in ${join(f.spoolDir, 'rejected.ndjson')}`,
      `read it (\`transcripts hooks status\`), then delete ${join(f.spoolDir, 'rejected.ndjson')}`,
    );
  return c.ok(`empty (${f.spoolDir})`);
}
