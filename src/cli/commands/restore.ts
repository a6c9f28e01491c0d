/**
 * `transcripts restore <id>...`: write sessions' kept transcripts back where Claude Code reads
 * them (`~/.claude/projects/<encoded cwd>/<id>.jsonl` and `<id>/subagents/…`), so `claude
 * --resume` works again after Claude Code deleted them. CLI only: the API never writes into a
 * home. The bytes come through the object routes; every file is checked against the stored
 * object's sha256 before it takes its place, and a different file already there is never
 * overwritten unless --force (which keeps it as `.bak`).
 */
import { resolve } from 'node:path';
import type { SessionFilters } from '../../client/api-client.js';
import { defineCommand } from '../command.js';
import { UsageError } from '../errors.js';
import { checkIsoOption, filterOptions, parseFilters, webapiOf, webapiOption } from './shared/options.js';

export interface RestoreOptions {
  refs: string[];
  filters: SessionFilters;
  to?: string;
  force: boolean;
  dryRun: boolean;
  webapi?: string;
}

export const restoreCommand = defineCommand<RestoreOptions>({
  name: 'restore',
  summary: 'Write kept transcripts back where Claude Code reads them, to resume them',
  description:
    'Writes each session’s main transcript to <projects>/<encoded cwd>/<id>.jsonl and its subagent files to ' +
    '<projects>/<encoded cwd>/<id>/subagents/, as Claude Code lays them out (the directory name is the working ' +
    'directory with every character but letters and digits turned into "-"); <projects> is ~/.claude/projects ' +
    'unless --to names another. Every file is checked against the stored object’s sha256 before it takes its ' +
    'place. A file already there with the same bytes is left alone; a different one is refused (exit 1) ' +
    'unless --force, which keeps it as <file>.bak. Give ids, or the list’s filters to restore every session ' +
    'they select. The server’s watcher reads a restored unchanged session as nothing new. Codex CLI rollouts ' +
    'and sessions without a known working directory are refused (Claude Code’s layout has no place for them).',
  examples: [
    'transcripts restore 5c0375b4',
    'transcripts restore 5c0375b4 1af7fc5e --dry-run',
    'transcripts restore --cwd /home/me/app --from 2025-07-01',
    'transcripts restore 5c0375b4 --to /tmp/projects --force',
  ],
  args: [{ name: '[id...]', description: 'session ids or unique prefixes', apiParams: ['id', 'idPrefix'] }],
  options: [
    // `--to` is the target directory here (as the issue names it): the date bound is `--until`.
    ...filterOptions.filter((o) => !o.flags.startsWith('--to ')),
    {
      flags: '--until <iso>',
      description: 'only sessions active on or before this date or time (a bare date: that whole day)',
      apiParams: ['to'],
    },
    {
      flags: '--to <dir>',
      description: 'the projects directory to write into (default: ~/.claude/projects)',
    },
    { flags: '--force', description: 'replace a different file already there, keeping it as <file>.bak' },
    { flags: '--dry-run', description: 'say what would be written; write nothing' },
    webapiOption,
  ],
  parse(raw, args) {
    const refs = args.map((a) => a.trim());
    if (refs.some((r) => !r)) throw new UsageError('a session id must not be empty');
    checkIsoOption(raw.until, '--until');
    const filters = parseFilters({ ...raw, to: raw.until });
    const hasFilter = Object.values(filters).some((v) => v !== undefined);
    if (refs.length === 0 && !hasFilter)
      throw new UsageError('restore needs session ids or a filter (--cwd, --project, --from, --until, …)');
    if (refs.length > 0 && hasFilter) throw new UsageError('give session ids or filters, not both');
    const to = raw.to === undefined ? undefined : String(raw.to).trim();
    if (to === '') throw new UsageError('--to must not be empty');
    return {
      refs: [...new Set(refs)],
      filters,
      to: to === undefined ? undefined : resolve(to),
      force: raw.force === true,
      dryRun: raw.dryRun === true,
      webapi: webapiOf(raw),
    };
  },
  async run(options, ctx) {
    // Loaded here, not at the top: `--help` imports every command's module, and needs none of
    // what writes the files (bundle/'s hashing, api/'s digest header).
    const { runRestore } = await import('./restore/run.js');
    return runRestore(options, ctx);
  },
});
