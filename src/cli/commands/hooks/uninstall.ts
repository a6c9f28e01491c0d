/** `transcripts hooks uninstall`: remove our entries from ~/.claude/settings.json, nothing else. */
import { withHooksRemoved } from '../../../live/claude-settings.js';
import { removeTokenForHook } from '../../../live/installer.js';
import { applySettingsPlan, claudeSettingsFile, planSettingsChange } from '../../../live/settings-file.js';
import { unifiedDiff } from '../../../live/text-diff.js';
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
    const file = options.settings ?? claudeSettingsFile(ctx.env);
    const plan = await planSettingsChange(file, withHooksRemoved);
    removeTokenForHook(ctx.env, options.dryRun, (l) => ctx.io.out(options.dryRun ? `dry run: ${l}` : l));
    if (!plan.changed) {
      ctx.io.out(`no transcripts hooks in ${file}: nothing to change`);
      return 0;
    }
    if (options.dryRun) {
      ctx.io.out(
        `dry run: would remove transcripts hooks from ${plan.events.length} event(s) in ${file}, after a backup:`,
      );
      ctx.io.out(unifiedDiff(plan.before ?? '', plan.after, [file, `${file} (after)`]));
      return 0;
    }
    const { backup } = await applySettingsPlan(plan);
    ctx.io.out(
      `removed transcripts hooks from ${plan.events.length} event(s) (${plan.events.join(', ')}) in ${file}`,
    );
    if (backup) ctx.io.out(`backup: ${backup}`);
    return 0;
  },
});
