/** What `transcripts install` does (its spec, ../install.ts, imports this when it runs). */
import { resolvePaths } from '../../../config/paths.js';
import { listModes, looseModes } from '../../../config/private-files.js';
import { install, InstallError, processInstallerContext } from '../../../live/installer.js';
import { claudeSettingsFile } from '../../../live/settings-file.js';
import type { CommandContext } from '../../command.js';
import { UsageError } from '../../errors.js';
import { bareHookCommand } from '../hooks/hook-command.js';
import type { InstallCommandOptions } from '../install.js';

export async function runInstall(options: InstallCommandOptions, ctx: CommandContext): Promise<number> {
  const dataDir = resolvePaths(ctx.env).dataDir;
  const loose = looseModes(dataDir);
  if (loose.length > 0)
    ctx.io.out(
      `warning: ${loose.length} path${loose.length === 1 ? '' : 's'} in ${dataDir} other users can reach: ` +
        `${listModes(loose)}; the service makes them private when it starts (or: chmod -R go-rwx ${dataDir})`,
    );
  try {
    await install(
      {
        ...options,
        hookCommand: bareHookCommand(),
        settingsFile: options.settings ?? claudeSettingsFile(ctx.env),
      },
      processInstallerContext(ctx.env, (l) => ctx.io.out(l)),
    );
  } catch (err) {
    if (err instanceof InstallError) throw new UsageError(err.message);
    throw err;
  }
  return 0;
}
