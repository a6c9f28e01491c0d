/** `transcripts hooks install`: register `transcripts hook` for every event in ~/.claude/settings.json. */
import { defineCommand } from '../../command.js';
import { UsageError } from '../../errors.js';
import { webapiOf } from '../shared/options.js';
import { dryRunOption, settingsFileOf, settingsOption } from './shared.js';

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
    // The events are live/claude-settings.ts's HOOK_EVENTS, written out (install.test.ts checks).
    'Adds one entry per hook event (SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, ' +
    'PostToolUseFailure, Notification, Stop, SubagentStart, SubagentStop, PreCompact, SessionEnd) to ' +
    "Claude Code's user settings, leaving other tools' hooks as they are. Copies the file to " +
    'settings.json.transcripts-backup-<time> before ' +
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
    // Loaded here, not at the top: `--help` imports every command's module, and needs no live/.
    const { runHooksInstall } = await import('./install/run.js');
    return runHooksInstall(options, ctx);
  },
});
