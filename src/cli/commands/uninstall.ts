/**
 * `transcripts uninstall`: undo `install` — the service, instance.env, the hooks. The recorded
 * history stays unless --purge, which asks first (or takes --yes when not on a terminal).
 */
import { defineCommand } from '../command.js';
import { settingsFileOf, settingsOption } from './hooks/shared.js';

export interface UninstallCommandOptions {
  purge: boolean;
  yes: boolean;
  keepHooks: boolean;
  stop: boolean;
  dryRun: boolean;
  settings?: string;
}

export const uninstallCommand = defineCommand<UninstallCommandOptions>({
  name: 'uninstall',
  summary: 'Remove the user service, instance.env and the hooks (keeps your history unless --purge)',
  description:
    'Stops and removes what `transcripts install` set up, and removes our hooks from ~/.claude/settings.json ' +
    "(other tools' hooks stay). The data dir — every recorded session — is kept unless --purge, which asks " +
    'for confirmation (type "purge"), or takes --yes when not run on a terminal.',
  examples: ['transcripts uninstall --dry-run', 'transcripts uninstall', 'transcripts uninstall --purge'],
  options: [
    { flags: '--purge', description: 'also delete the data dir (all recorded history) and the config dir' },
    { flags: '--yes', description: 'confirm --purge without asking' },
    { flags: '--keep-hooks', description: 'leave the hooks registered' },
    { flags: '--no-stop', description: 'remove the files, but do not call the service manager' },
    { flags: '--dry-run', description: 'show what would be removed, change nothing' },
    settingsOption,
  ],
  parse: (raw) => ({
    purge: raw.purge === true,
    yes: raw.yes === true,
    keepHooks: raw.keepHooks === true,
    stop: raw.stop !== false,
    dryRun: raw.dryRun === true,
    settings: settingsFileOf(raw),
  }),
  async run(options, ctx) {
    // Loaded here, not at the top: `--help` imports every command's module, and needs no live/.
    const { runUninstall } = await import('./uninstall/run.js');
    return runUninstall(options, ctx);
  },
});
