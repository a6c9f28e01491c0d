/** `transcripts hooks uninstall`: remove our entries from ~/.claude/settings.json, nothing else. */
import { defineCommand } from '../../command.js';
import { dryRunOption, settingsFileOf, settingsOption } from './shared.js';

export interface HooksUninstallOptions {
  /** Default: ~/.claude/settings.json of ctx.env's HOME. */
  settings?: string;
  dryRun: boolean;
}

export const hooksUninstallCommand = defineCommand<HooksUninstallOptions>({
  name: 'hooks uninstall',
  summary: 'Remove `transcripts hook` from ~/.claude/settings.json (a backup first)',
  description:
    'Removes every hook entry that runs `transcripts hook`, and the API token `hooks install` stored; other ' +
    "tools' hooks stay. Copies the file to settings.json.transcripts-backup-<time> before changing it. " +
    'Spooled events stay in the data dir until a server replays them.',
  examples: ['transcripts hooks uninstall --dry-run', 'transcripts hooks uninstall'],
  options: [dryRunOption, settingsOption],
  parse: (raw) => ({ settings: settingsFileOf(raw), dryRun: raw.dryRun === true }),
  async run(options, ctx) {
    // Loaded here, not at the top: `--help` imports every command's module, and needs no live/.
    const { runHooksUninstall } = await import('./uninstall/run.js');
    return runHooksUninstall(options, ctx);
  },
});
