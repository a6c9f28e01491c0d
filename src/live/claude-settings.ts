/**
 * Our entries in Claude Code's `~/.claude/settings.json` (`hooks.<Event>[] = {matcher?, hooks:
 * [{type: "command", command, timeout}]}`), as pure functions over the parsed file: install (one
 * entry per event, idempotent), uninstall (ours only), and what is registered now. Other tools'
 * hooks — even ones sharing a matcher group with ours — are never touched. Our entries are the
 * ones whose command runs `transcripts hook` (by any path).
 */

/** The events we record (DESIGN §10); unknown ones would be recorded too if Claude Code sent them. */
export const HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'Notification',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'SessionEnd',
] as const;

/** Events whose groups take a tool-name matcher: ours matches every tool. */
const TOOL_EVENTS = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure']);
/** Seconds Claude Code gives our hook before killing it (it normally takes well under one). */
export const HOOK_TIMEOUT_S = 30;

export type Settings = Record<string, unknown>;

export class SettingsShapeError extends Error {
  override name = 'SettingsShapeError';
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** Whether a hook command is ours: it runs `transcripts hook` (`transcripts`, `…/transcripts.js`). */
export function isOurCommand(command: unknown): boolean {
  return typeof command === 'string' && /(^|[\s/'"])transcripts(\.js)?['"]?\s+hook(\s|$)/.test(command);
}

/** One argument for a POSIX shell (Claude Code runs hook commands through one). */
export function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_/.,:@%+=-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** The command we register: absolute node and script paths, so a PATH without them still works. */
export function hookCommand(nodePath: string, binPath: string): string {
  return `${shellQuote(nodePath)} ${shellQuote(binPath)} hook`;
}

function ourGroup(event: string, command: string): Record<string, unknown> {
  const hook = { type: 'command', command, timeout: HOOK_TIMEOUT_S };
  return TOOL_EVENTS.has(event) ? { matcher: '*', hooks: [hook] } : { hooks: [hook] };
}

function hooksOf(settings: Settings): Record<string, unknown> | undefined {
  const hooks = settings.hooks;
  if (hooks === undefined) return undefined;
  if (!isRecord(hooks)) throw new SettingsShapeError('"hooks" is not an object; fix it by hand first');
  return hooks;
}

function groupsOf(hooks: Record<string, unknown>, event: string): unknown[] {
  const groups = hooks[event];
  if (groups === undefined) return [];
  if (!Array.isArray(groups))
    throw new SettingsShapeError(`"hooks.${event}" is not an array; fix it by hand first`);
  return groups;
}

const entriesOf = (group: unknown): unknown[] =>
  isRecord(group) && Array.isArray(group.hooks) ? group.hooks : [];
const commandOf = (entry: unknown): unknown => (isRecord(entry) ? entry.command : undefined);

/** Removes our entries from one event's groups; drops groups that held only ours. */
function withoutOurs(groups: unknown[]): { groups: unknown[]; removed: number } {
  let removed = 0;
  const out: unknown[] = [];
  for (const group of groups) {
    const entries = entriesOf(group);
    const kept = entries.filter((e) => !isOurCommand(commandOf(e)));
    removed += entries.length - kept.length;
    if (kept.length === entries.length) out.push(group);
    else if (kept.length > 0) out.push({ ...(group as Record<string, unknown>), hooks: kept });
  }
  return { groups: out, removed };
}

export interface MergeResult {
  settings: Settings;
  changed: boolean;
  /** Events whose entry was added or replaced (install) or removed (uninstall). */
  events: string[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Settings with exactly one entry of ours per event in `events` (running `command`), and none
 * elsewhere. An event that already has exactly that entry is left as it is (so a second install
 * changes nothing, not even the order of the groups).
 */
export function withHooksInstalled(
  settings: Settings,
  command: string,
  events: readonly string[] = HOOK_EVENTS,
): MergeResult {
  const before = hooksOf(settings) ?? {};
  const hooks: Record<string, unknown> = { ...before };
  const touched: string[] = [];
  const wanted = new Set(events);
  for (const event of new Set([...Object.keys(before), ...events])) {
    const groups = groupsOf(hooks, event);
    const ours = groups.filter((g) => entriesOf(g).some((e) => isOurCommand(commandOf(e))));
    if (wanted.has(event) && ours.length === 1 && same(ours[0], ourGroup(event, command))) continue;
    const { groups: rest, removed } = withoutOurs(groups);
    if (!wanted.has(event) && removed === 0) continue;
    const next = wanted.has(event) ? [...rest, ourGroup(event, command)] : rest;
    if (next.length) hooks[event] = next;
    else delete hooks[event];
    touched.push(event);
  }
  if (touched.length === 0) return { settings, changed: false, events: [] };
  return { settings: { ...settings, hooks }, changed: true, events: touched };
}

/** Settings without any entry of ours; everything else as it was. */
export function withHooksRemoved(settings: Settings): MergeResult {
  const before = hooksOf(settings);
  if (!before) return { settings, changed: false, events: [] };
  const hooks: Record<string, unknown> = { ...before };
  const touched: string[] = [];
  for (const event of Object.keys(before)) {
    const { groups, removed } = withoutOurs(groupsOf(hooks, event));
    if (removed === 0) continue;
    if (groups.length) hooks[event] = groups;
    else delete hooks[event];
    touched.push(event);
  }
  if (touched.length === 0) return { settings, changed: false, events: [] };
  const next: Settings = { ...settings, hooks };
  if (Object.keys(hooks).length === 0) delete next.hooks;
  return { settings: next, changed: true, events: touched };
}

export interface Registration {
  /** Our command per event (an event registered twice lists it twice). */
  ours: Record<string, string[]>;
  /** Events we record that have no entry of ours. */
  missing: string[];
  /** Events with more than one entry of ours (each call would be recorded twice). */
  duplicated: string[];
  /** Other tools' hook entries, all events together. */
  others: number;
}

export function readRegistration(settings: Settings, events: readonly string[] = HOOK_EVENTS): Registration {
  const hooks = hooksOf(settings) ?? {};
  const ours: Record<string, string[]> = {};
  let others = 0;
  for (const event of Object.keys(hooks)) {
    for (const group of groupsOf(hooks, event)) {
      for (const entry of entriesOf(group)) {
        const command = commandOf(entry);
        if (isOurCommand(command)) (ours[event] ??= []).push(command as string);
        else others++;
      }
    }
  }
  return {
    ours,
    missing: events.filter((e) => !ours[e]),
    duplicated: Object.keys(ours).filter((e) => ours[e]!.length > 1),
    others,
  };
}

/** Parses settings.json text; an empty file is `{}`. Throws SettingsShapeError for anything else. */
export function parseSettings(text: string | null): Settings {
  if (text === null || text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new SettingsShapeError(`it is not valid JSON (${(err as Error).message}); fix it by hand first`);
  }
  if (!isRecord(parsed)) throw new SettingsShapeError('it is not a JSON object; fix it by hand first');
  return parsed;
}

/** Serialises settings the way the file was written (its indentation), with a final newline. */
export function formatSettings(settings: Settings, original: string | null): string {
  const indent = /\n([ \t]+)"/.exec(original ?? '')?.[1] ?? '  ';
  return `${JSON.stringify(settings, null, indent)}\n`;
}
