/** What `transcripts hooks uninstall` does (its spec, ../uninstall.ts, imports this when it runs). */
import { withHooksRemoved } from '../../../../live/claude-settings.js';
import { removeTokenForHook } from '../../../../live/installer.js';
import { applySettingsPlan, claudeSettingsFile, planSettingsChange } from '../../../../live/settings-file.js';
import { unifiedDiff } from '../../../../live/text-diff.js';
import type { CommandContext } from '../../../command.js';
import type { HooksUninstallOptions } from '../uninstall.js';

export async function runHooksUninstall(
  options: HooksUninstallOptions,
  ctx: CommandContext,
): Promise<number> {
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
}
