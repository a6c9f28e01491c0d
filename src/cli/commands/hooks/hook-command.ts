/**
 * The hook command `hooks install` and `install` register. Apart from shared.ts (the options,
 * which every command list loads) since it needs the installer: imported by their runs only.
 */
import { join } from 'node:path';
import { type Env, packageRoot } from '../../../config/paths.js';
import { hookCommand } from '../../../live/claude-settings.js';
import { carriedEnv, hookCommandFor } from '../../../live/installer.js';

/** `<node> <package>/bin/transcripts.js hook`, with absolute paths (hooks run with the user's PATH, or none). */
export function bareHookCommand(): string {
  return hookCommand(process.execPath, join(packageRoot(), 'bin', 'transcripts.js'));
}

/**
 * The command `hooks install` registers: the bare one, run with the CT_HOME / XDG_* dirs of this
 * shell (`CT_HOME=/x <node> <bin> hook`) when it has any, so the hook records into the instance
 * this CLI uses, whatever environment Claude Code runs it in. (`install` does the same with
 * what it gives the service.)
 */
export function defaultHookCommand(env: Env, apiUrl?: string): string {
  return hookCommandFor(bareHookCommand(), { ...carriedEnv(env), ...(apiUrl ? { CT_API_URL: apiUrl } : {}) });
}
