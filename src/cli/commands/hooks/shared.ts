/** The options the `hooks` subcommands (and `install`, `uninstall`, `doctor`) share. */
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
