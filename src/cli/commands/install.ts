/**
 * `transcripts install`: run the API as a user service on a chosen port, write instance.env, and
 * register the hooks — see src/live/installer.ts.
 */
import { ConfigError } from '../../config/config-error.js';
import { DEFAULT_HOST, DEFAULT_PORT, parsePort } from '../../config/env.js';
import { defineCommand } from '../command.js';
import { UsageError } from '../errors.js';
import { settingsFileOf, settingsOption } from './hooks/shared.js';

export interface InstallCommandOptions {
  host: string;
  port: number;
  hooks: boolean;
  start: boolean;
  dryRun: boolean;
  settings?: string;
}

export const installCommand = defineCommand<InstallCommandOptions>({
  name: 'install',
  summary: 'Run the API as a user service, write instance.env and register the hooks',
  description:
    'Linux: a systemd --user unit (~/.config/systemd/user/transcripts.service), enabled and started. macOS: a ' +
    'launchd agent (~/Library/LaunchAgents/dev.transcripts.api.plist). Elsewhere: prints the steps to do by ' +
    'hand. Writes instance.env in the config dir (host and port: the file the CLI, the hooks and the UI dev ' +
    'server read) and registers the hooks in ~/.claude/settings.json unless --no-hooks. The service and the ' +
    'hooks both get the CT_HOME and XDG_CONFIG_HOME/XDG_DATA_HOME set here, so they use the same dirs ' +
    'whatever environment Claude Code runs in. When the service ' +
    'manager is missing or unusable (no user session bus), the files are still written and the commands to ' +
    'run are printed. Running it again updates what changed.',
  examples: [
    'transcripts install',
    'transcripts install --port 7700 --dry-run',
    'transcripts install --no-hooks --no-start',
  ],
  options: [
    { flags: '--port <port>', description: `port the service listens on (default ${DEFAULT_PORT})` },
    {
      flags: '--host <address>',
      description: `address it listens on (default ${DEFAULT_HOST}; others need CT_API_TOKEN)`,
    },
    { flags: '--no-hooks', description: 'do not register the Claude Code hooks' },
    { flags: '--no-start', description: 'write the files, but do not enable or start the service' },
    { flags: '--dry-run', description: 'show what would be written and run, change nothing' },
    settingsOption,
  ],
  parse(raw) {
    let port = DEFAULT_PORT;
    if (raw.port !== undefined) {
      try {
        port = parsePort(String(raw.port), '--port');
      } catch (err) {
        throw new UsageError((err as ConfigError).message);
      }
      if (port === 0) throw new UsageError('--port must be a fixed port for a service (not 0)');
    }
    const host = raw.host === undefined ? DEFAULT_HOST : String(raw.host).trim();
    if (!host) throw new UsageError('--host must not be empty');
    return {
      host,
      port,
      hooks: raw.hooks !== false,
      start: raw.start !== false,
      dryRun: raw.dryRun === true,
      settings: settingsFileOf(raw),
    };
  },
  async run(options, ctx) {
    // Loaded here, not at the top: `--help` imports every command's module, and needs no live/.
    const { runInstall } = await import('./install/run.js');
    return runInstall(options, ctx);
  },
});
