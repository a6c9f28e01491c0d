/**
 * Whether the data directory is private (issue 42): 0700, every file in it 0600. Others being able
 * to read it means any user of the machine reads every prompt and tool output. Pure over what
 * `looseModes` found.
 */
import { listModes, type LooseMode } from '../../../config/private-files.js';
import { check, type CheckResult } from './check.js';

export function assessModes(dataDir: string, exists: boolean, loose: readonly LooseMode[]): CheckResult {
  const c = check('data-modes', 'machine', 'private files');
  if (!exists) return c.skip(`${dataDir} does not exist yet`);
  if (loose.length === 0) return c.ok(`${dataDir} and everything in it are the owner's alone`);
  return c.warn(
    `${loose.length} path${loose.length === 1 ? '' : 's'} in the data dir other users can reach: ${listModes(loose)}`,
    `chmod -R go-rwx ${dataDir} (transcripts serve also does it when it starts)`,
  );
}
