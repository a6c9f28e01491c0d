/** `transcripts hooks install`: register `transcripts hook` for every event in ~/.claude/settings.json. */
import { resolveApiUrl } from '../../../config/api-url.js';
import { envValue } from '../../../config/paths.js';
import { HOOK_EVENTS, withHooksInstalled } from '../../../live/claude-settings.js';
import { storeTokenForHook } from '../../../live/installer.js';
import { applySettingsPlan, claudeSettingsFile, planSettingsChange } from '../../../live/settings-file.js';
import { unifiedDiff } from '../../../live/text-diff.js';
import { defineCommand } from '../../command.js';
import { UsageError } from '../../errors.js';
import { webapiOf } from '../shared/options.js';
import { defaultHookCommand, dryRunOption, settingsFileOf, settingsOption } from './shared.js';

export interface HooksInstallOptions {
  /** Default: ~/.claude/settings.json of ctx.env's HOME. */
  settings?: string;
  /** Default: defaultHookCommand(ctx.env). */
  command?: string;
  /** The API the hook sends to, as given; carried in the command as CT_API_URL. */
  webapi?: string;
  dryRun: boolean;
}

export const hooksInstallCommand = defineCommand<HooksInstallOptions>({
  name: 'hooks install',
  summary: 'Register `transcripts hook` in ~/.claude/settings.json (a backup first)',
  description:
    `Adds one entry per hook event (${HOOK_EVENTS.join(', ')}) to Claude Code's user settings, leaving ` +
    "other tools' hooks as they are. Copies the file to settings.json.transcripts-backup-<time> before " +
    'changing it; running it again changes nothing. Claude Code reads hooks when a session starts, so ' +
    'sessions already running keep their old hooks. The default command carries the CT_HOME and ' +
    'XDG_CONFIG_HOME/XDG_DATA_HOME set here (CT_HOME=… <node> <bin> hook), so the hook records into the ' +
    'same instance whatever environment Claude Code runs it in. --webapi URL (or CT_API_URL set here) points ' +
    'the hook at an instance elsewhere, https included: the command carries it as CT_API_URL=URL. ' +
    'With CT_API_TOKEN set, the token is stored ' +
    'in api-token in the config dir (mode 600, not in settings.json) with the API address the hook uses: ' +
    'the hook, and the CLI, send it to that host when their environment has no CT_API_TOKEN.',
  examples: [
    'transcripts hooks install --dry-run',
    'transcripts hooks install',
    'CT_API_TOKEN=… transcripts hooks install',
    'CT_API_TOKEN=… transcripts hooks install --webapi https://transcripts.example.com',
    'transcripts hooks install --command "transcripts hook"',
  ],
  options: [
    dryRunOption,
    settingsOption,
    {
      flags: '--command <cmd>',
      description: 'the command to register (default: this node and this package, by absolute path)',
    },
    {
      flags: '--webapi <url>',
      description:
        'the instance the hook sends to, kept in the command as CT_API_URL (default: CT_API_URL if set here, ' +
        'else found when the hook runs: WEBAPI_HOST/WEBAPI_PORT, then the installed instance)',
    },
  ],
  parse(raw) {
    const command = typeof raw.command === 'string' ? raw.command.trim() : undefined;
    if (command === '') throw new UsageError('--command must not be empty');
    return { settings: settingsFileOf(raw), command, webapi: webapiOf(raw), dryRun: raw.dryRun === true };
  },
  async run(options, ctx) {
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
  },
});
