/** Option specs and value parsers the data-management and browsing commands share. */
import type { OptionSpec } from '../../command.js';
import type { SessionFilters } from '../../../client/api-client.js';
import { readIsoTime } from '../../../core/iso-time.js';
import { UsageError } from '../../errors.js';

export const webapiOption: OptionSpec = {
  flags: '--webapi <url>',
  description:
    'the instance to use (default: CT_API_URL, then WEBAPI_HOST/WEBAPI_PORT, then the installed instance, then http://127.0.0.1:7650)',
};

export const jsonOption: OptionSpec = { flags: '--json', description: 'print JSON for scripts' };

/** The `--webapi` value, or undefined. */
export function webapiOf(raw: Record<string, unknown>): string | undefined {
  return typeof raw.webapi === 'string' ? raw.webapi : undefined;
}

/** A non-negative (or, with `min: 1`, positive) integer option; undefined when absent. */
export function parseCount(value: unknown, flag: string, min = 0): number | undefined {
  if (value === undefined) return undefined;
  const s = String(value).trim();
  if (!/^\d+$/.test(s) || Number(s) < min || !Number.isSafeInteger(Number(s)))
    throw new UsageError(
      `${flag} must be ${min > 0 ? 'a positive' : 'a non-negative'} integer, got "${String(value)}"`,
    );
  return Number(s);
}

/**
 * An ISO 8601 date or time option, normalised to a UTC timestamp, read as the API reads its
 * bounds (core/iso-time.ts: a bare date is the start of that UTC day, a time without a zone is
 * UTC, a day that does not exist is refused); undefined when absent.
 */
export function parseIsoOption(value: unknown, flag: string): string | undefined {
  if (value === undefined) return undefined;
  const s = String(value).trim();
  const r = readIsoTime(s);
  if ('problem' in r) throw new UsageError(`${flag} ${r.problem}, got "${s}"`);
  return new Date(r.ms).toISOString();
}

/** A non-empty string option; undefined when absent. */
export function parseText(value: unknown, flag: string): string | undefined {
  if (value === undefined) return undefined;
  const s = String(value).trim();
  if (!s) throw new UsageError(`${flag} must not be empty`);
  return s;
}

/** An ISO date or time filter passed to the API as typed (the API reads a bare `to` date as that whole day). */
export function checkIsoOption(value: unknown, flag: string): string | undefined {
  const normalised = parseIsoOption(value, flag);
  return normalised === undefined ? undefined : String(value).trim();
}

export const filterOptions: OptionSpec[] = [
  {
    flags: '--cwd <dir>',
    description: 'only sessions in this working directory (exact)',
    apiParams: ['cwd'],
  },
  {
    flags: '--project <name>',
    description: 'only sessions of this project: every directory whose last segment is name (exact)',
    apiParams: ['project'],
  },
  {
    flags: '--model <name>',
    description: 'only sessions that used this model (exact)',
    apiParams: ['model'],
  },
  {
    flags: '--host <name>',
    description: 'only sessions recorded on this host (exact)',
    apiParams: ['hostname'],
  },
  {
    flags: '--source <name>',
    description: 'only sessions from this recorder (live, backfill, …)',
    apiParams: ['source'],
  },
  {
    flags: '--agent <id>',
    description: 'only sessions of this agent: claude-code, codex, gemini or opencode',
    apiParams: ['agent'],
  },
  {
    flags: '--from <iso>',
    description: 'only sessions active on or after this date or time',
    apiParams: ['from'],
  },
  {
    flags: '--to <iso>',
    description: 'only sessions active on or before this date or time (a bare date: that whole day)',
    apiParams: ['to'],
  },
];

/** The session list's free-text filter (the API's `text`). */
export const textOption: OptionSpec = {
  flags: '--text <words>',
  description: 'only sessions with every word in the title, project, directory or id (case aside)',
  apiParams: ['text'],
};

/** The `--text` value, or undefined. */
export function textOf(raw: Record<string, unknown>): string | undefined {
  return typeof raw.text === 'string' ? raw.text : undefined;
}

/** One side of a conversation: the person's turns or Claude's (the API's `role`). */
export const roleOption: OptionSpec = {
  flags: '--role <role>',
  description: 'only user (You) or assistant (Claude) turns',
  apiParams: ['role'],
};

/** The `--role` value: user, assistant, or undefined for both. */
export function parseRole(raw: Record<string, unknown>): 'user' | 'assistant' | undefined {
  if (raw.role === undefined) return undefined;
  const role = String(raw.role);
  if (role !== 'user' && role !== 'assistant')
    throw new UsageError(`--role must be user or assistant, got "${role}"`);
  return role;
}

/** `--limit` and `--offset` of a paged list (sent as the API's `limit` and `offset`). */
export const pageOptions = (what: string, limitDefault: string): OptionSpec[] => [
  { flags: '--limit <n>', description: `at most n ${what} (${limitDefault})`, apiParams: ['limit'] },
  { flags: '--offset <n>', description: `skip the first n ${what}`, apiParams: ['offset'] },
];

/** The values of `pageOptions`: a `--limit` of at least 1, an `--offset` of at least 0. */
export function parsePage(raw: Record<string, unknown>): { limit?: number; offset?: number } {
  return { limit: parseCount(raw.limit, '--limit', 1), offset: parseCount(raw.offset, '--offset') };
}

/** The filter flags → the API's query names (`--host` is `hostname`, as in the UI). */
export function parseFilters(raw: Record<string, unknown>): SessionFilters {
  const f: SessionFilters = {
    cwd: parseText(raw.cwd, '--cwd'),
    project: parseText(raw.project, '--project'),
    model: parseText(raw.model, '--model'),
    hostname: parseText(raw.host, '--host'),
    source: parseText(raw.source, '--source'),
    agent: parseText(raw.agent, '--agent'),
    from: checkIsoOption(raw.from, '--from'),
    to: checkIsoOption(raw.to, '--to'),
  };
  // The range as the API checks it: a bare-date --to is the end of its day.
  if (f.from !== undefined && f.to !== undefined) {
    const from = readIsoTime(f.from);
    const to = readIsoTime(f.to, true);
    if ('ms' in from && 'ms' in to && from.ms > to.ms)
      throw new UsageError(`--from must not be after --to, got --from ${f.from} --to ${f.to}`);
  }
  return Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)) as SessionFilters;
}
