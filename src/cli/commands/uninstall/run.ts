/** What `transcripts uninstall` does (its spec, ../uninstall.ts, imports this when it runs). */
import { createInterface } from 'node:readline/promises';
import { resolvePaths } from '../../../config/paths.js';
import { processInstallerContext, uninstall } from '../../../live/installer.js';
import { claudeSettingsFile } from '../../../live/settings-file.js';
import type { CommandContext } from '../../command.js';
import { UsageError } from '../../errors.js';
import type { UninstallCommandOptions } from '../uninstall.js';

export async function runUninstall(options: UninstallCommandOptions, ctx: CommandContext): Promise<number> {
  const { dataDir } = resolvePaths(ctx.env);
  if (options.purge && !options.yes && !options.dryRun) {
    if (!process.stdin.isTTY)
      throw new UsageError(
        `--purge deletes ${dataDir} (all recorded history): add --yes to confirm when not on a terminal`,
      );
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    const answer = await rl.question(
      `This deletes ${dataDir}, all recorded history. Type "purge" to go on: `,
    );
    rl.close();
    if (answer.trim() !== 'purge') {
      ctx.io.err('not confirmed: nothing was removed');
      return 1;
    }
  }
  await uninstall(
    { ...options, settingsFile: options.settings ?? claudeSettingsFile(ctx.env) },
    processInstallerContext(ctx.env, (l) => ctx.io.out(l)),
  );
  return 0;
}
