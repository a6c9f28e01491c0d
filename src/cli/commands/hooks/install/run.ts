/** What `transcripts hooks install` does (its spec, ../install.ts, imports this when it runs). */
import { resolveApiUrl } from '../../../../config/api-url.js';
import { envValue } from '../../../../config/paths.js';
import { HOOK_EVENTS, withHooksInstalled } from '../../../../live/claude-settings.js';
import { storeTokenForHook } from '../../../../live/installer.js';
import { applySettingsPlan, claudeSettingsFile, planSettingsChange } from '../../../../live/settings-file.js';
import { unifiedDiff } from '../../../../live/text-diff.js';
import type { CommandContext } from '../../../command.js';
import { defaultHookCommand } from '../hook-command.js';
import type { HooksInstallOptions } from '../install.js';

export async function runHooksInstall(options: HooksInstallOptions, ctx: CommandContext): Promise<number> {
  const file = options.settings ?? claudeSettingsFile(ctx.env);
  // Where the hook will send: the API the CLI finds here. A URL given here (--webapi, CT_API_URL)
  // goes into the command, since Claude Code's environment need not hold it; host and port are
  // found again when the hook runs (instance.env follows the service).
  const api = resolveApiUrl({ flag: options.webapi, env: ctx.env });
  const given = api.source === 'flag' || envValue(ctx.env, 'CT_API_URL')?.trim();
  const command = options.command ?? defaultHookCommand(ctx.env, given ? api.url : undefined);
  const plan = await planSettingsChange(file, (s) => withHooksInstalled(s, command));
  const storeToken = () =>
    storeTokenForHook(ctx.env, api.url, options.dryRun, (l) =>
      ctx.io.out(options.dryRun ? `dry run: ${l}` : l),
    );
  if (!plan.changed) {
    ctx.io.out(`already registered for all ${HOOK_EVENTS.length} events in ${file}: nothing to change`);
    storeToken();
    return 0;
  }
  const what = `${plan.events.length} event(s) (${plan.events.join(', ')})`;
  if (options.dryRun) {
    ctx.io.out(
      `dry run: would register \`${command}\` for ${what} in ${file}${plan.before === null ? ' (a new file)' : ', after a backup'}:`,
    );
    ctx.io.out(unifiedDiff(plan.before ?? '', plan.after, [file, `${file} (after)`]));
    storeToken();
    return 0;
  }
  const { backup } = await applySettingsPlan(plan);
  ctx.io.out(`registered \`${command}\` for ${what} in ${file}`);
  if (backup) ctx.io.out(`backup: ${backup}`);
  storeToken();
  ctx.io.out(
    'new Claude Code sessions record live; `transcripts hooks status` shows whether calls reach the API',
  );
  return 0;
}
