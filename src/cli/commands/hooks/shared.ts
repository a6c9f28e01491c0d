/** What the `hooks` subcommands share: the settings file option and our default hook command. */
import { join } from 'node:path';
import { type Env, packageRoot } from '../../../config/paths.js';
import { hookCommand } from '../../../live/claude-settings.js';
import { carriedEnv, hookCommandFor } from '../../../live/installer.js';
import type { OptionSpec } from '../../command.js';

export const settingsOption: OptionSpec = {
  flags: '--settings <file>',
  description: "Claude Code's settings file (default ~/.claude/settings.json)",
};

export const dryRunOption: OptionSpec = { flags: '--dry-run', description: 'show the change, write nothing' };

/** The `--settings` value, or undefined (the caller then uses `claudeSettingsFile(ctx.env)`). */
export function settingsFileOf(raw: Record<string, unknown>): string | undefined {
  return typeof raw.settings === 'string' && raw.settings.trim() ? raw.settings.trim() : undefined;
}

/** `<node> <package>/bin/transcripts.js hook`, with absolute paths (hooks run with the user's PATH, or none). */
export function bareHookCommand(): string {
  return hookCommand(process.execPath, join(packageRoot(), 'bin', 'transcripts.js'));
}

/**
 * The command `hooks install` registers: the bare one, run with the CT_HOME / XDG_* dirs of this
 * shell (`CT_HOME=/x <node> <bin> hook`) when it has any, so the hook records into the instance
 * this CLI uses, whatever environment Claude Code runs it in. (`install` does the same with
 * what it gives the service.)
 */
export function defaultHookCommand(env: Env, apiUrl?: string): string {
  return hookCommandFor(bareHookCommand(), { ...carriedEnv(env), ...(apiUrl ? { CT_API_URL: apiUrl } : {}) });
}
