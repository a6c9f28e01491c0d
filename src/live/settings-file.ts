/**
 * Reading and writing `~/.claude/settings.json` for `hooks install|uninstall`: a plan (before,
 * after, which events) that a dry run prints as a diff, and an apply that first copies the file
 * to a timestamped backup, then replaces it atomically (temp file + rename, same mode). A
 * symlinked settings file (dotfile managers) is written through, so the link stays a link.
 */
import { chmod, copyFile, readFile, realpath, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { makeDirs } from '../config/make-dirs.js';
import { homeDir, type Env } from '../config/paths.js';
import {
  formatSettings,
  parseSettings,
  SettingsShapeError,
  type MergeResult,
  type Settings,
} from './claude-settings.js';

/** Claude Code's user settings: `~/.claude/settings.json` (respects `HOME`). */
export function claudeSettingsFile(env: Env = process.env): string {
  return join(homeDir(env), '.claude', 'settings.json');
}

export interface SettingsPlan {
  file: string;
  /** Where the bytes are written (the link target when `file` is a symlink). */
  target: string;
  /** Null when the file does not exist. */
  before: string | null;
  after: string;
  changed: boolean;
  events: string[];
}

export async function readSettingsFile(
  file: string,
): Promise<{ text: string | null; settings: Settings; target: string }> {
  const target = await realpath(file).catch(() => file);
  let text: string | null = null;
  try {
    text = await readFile(target, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  try {
    return { text, settings: parseSettings(text), target };
  } catch (err) {
    if (err instanceof SettingsShapeError) throw new SettingsShapeError(`${file}: ${err.message}`);
    throw err;
  }
}

export async function planSettingsChange(
  file: string,
  change: (s: Settings) => MergeResult,
): Promise<SettingsPlan> {
  const { text, settings, target } = await readSettingsFile(file);
  let result: MergeResult;
  try {
    result = change(settings);
  } catch (err) {
    if (err instanceof SettingsShapeError) throw new SettingsShapeError(`${file}: ${err.message}`);
    throw err;
  }
  const after = result.changed ? formatSettings(result.settings, text) : (text ?? '');
  return { file, target, before: text, after, changed: result.changed, events: result.events };
}

const stamp = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');

/** Writes a plan (nothing when unchanged). Returns the backup's path, if one was made. */
export async function applySettingsPlan(
  plan: SettingsPlan,
  now = new Date(),
): Promise<{ backup: string | null }> {
  if (!plan.changed) return { backup: null };
  await makeDirs(dirname(plan.target));
  let backup: string | null = null;
  let mode: number | undefined;
  if (plan.before !== null) {
    backup = `${plan.target}.transcripts-backup-${stamp(now)}`;
    await copyFile(plan.target, backup);
    mode = (await stat(plan.target)).mode & 0o777;
  }
  const tmp = `${plan.target}.transcripts-${process.pid}.tmp`;
  await writeFile(tmp, plan.after);
  if (mode !== undefined) await chmod(tmp, mode);
  await rename(tmp, plan.target);
  return { backup };
}
