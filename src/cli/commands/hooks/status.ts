/**
 * `transcripts hooks status`: are our hooks registered (every event, once, with a command that
 * still exists), and did the last calls reach the API — from the hook's own log — plus what waits
 * in the spool.
 */
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { defineCommand } from '../../command.js';
import { jsonOption } from '../shared/options.js';
import { settingsFileOf, settingsOption } from './shared.js';

export interface HooksStatusOptions {
  settings?: string;
  json: boolean;
}

/**
 * A hook command's words as a POSIX shell splits them: single quotes, double quotes (with their
 * backslash escapes), backslashes, and quoted pieces joined to the rest of a word
 * (`CT_HOME='/my dir'` is one word, `CT_HOME=/my dir`).
 */
export function commandWords(command: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const ch = command[i]!;
    if (/\s/.test(ch)) {
      if (word !== null) words.push(word);
      word = null;
      continue;
    }
    word ??= '';
    if (ch === "'") {
      const end = command.indexOf("'", i + 1);
      word += command.slice(i + 1, end < 0 ? undefined : end);
      i = end < 0 ? command.length : end;
    } else if (ch === '"') {
      for (i++; i < command.length && command[i] !== '"'; i++)
        word += command[i] === '\\' && /["\\$`]/.test(command[i + 1] ?? '') ? command[++i] : command[i];
    } else if (ch === '\\' && i + 1 < command.length) word += command[++i];
    else word += ch;
  }
  if (word !== null) words.push(word);
  return words;
}

/** Absolute paths in a command (quoted or bare) that do not exist: a moved node or package. */
export function missingPaths(command: string): string[] {
  return commandWords(command).filter((w) => isAbsolute(w) && !existsSync(w));
}

export const hooksStatusCommand = defineCommand<HooksStatusOptions>({
  name: 'hooks status',
  summary: 'Show whether the hooks are registered and whether their last calls reached the API',
  description:
    'Reads ~/.claude/settings.json (are all events registered, once, with a command that exists?), the ' +
    "hook's log in the data dir (live/hook.log: the last calls, and whether they reached the API or were " +
    'spooled) and the spool (what waits for the API).',
  examples: ['transcripts hooks status', 'transcripts hooks status --json'],
  options: [settingsOption, jsonOption],
  parse: (raw) => ({ settings: settingsFileOf(raw), json: raw.json === true }),
  async run(options, ctx) {
    // Loaded here, not at the top: `--help` imports every command's module, and needs no live/.
    const { runHooksStatus } = await import('./status/run.js');
    return runHooksStatus(options, ctx);
  },
});
