/**
 * The omnibox grammar (seed §1.1): one line of input → what it means. Pure, so every form and
 * every kind of nonsense is unit-tested (omnibox-grammar.test.ts).
 *
 * - `>command arg` — a command: `>list`, `>calendar [2026-03]`, `>turns [you|claude|both]`,
 *   `>search words`, `>open <id>`, `>shortcuts`. A unique prefix is enough (`>cal`).
 * - `project:x`, `host:x` (or `hostname:`), `model:x`, `source:x`, `agent:x`, `cwd:/path`, `id:prefix` —
 *   filters; values may be quoted (`project:"my app"`).
 * - `is:starred`, `tag:x` (repeatable: every tag must be on the session), `has:note` — what people
 *   marked on sessions; `has:secrets` — sessions holding likely secrets, as counted at ingest.
 * - date phrases anywhere (see date-phrases.ts): `last week`, `since 2026-03`, `mar 2026`, …
 * - an input that is only an id prefix (`cc1df109`, a UUID or part of one) jumps to the session.
 * - everything else is free text, kept in search syntax (quotes, `prefix*`).
 *
 * Nothing here throws: problems are returned in words and the rest of the input still counts.
 */
import { matchDatePhrase, type DayRange } from './date-phrases.js';

export type FilterKey = 'project' | 'cwd' | 'hostname' | 'model' | 'source' | 'agent';

export interface OmniboxFilters {
  project?: string;
  cwd?: string;
  hostname?: string;
  model?: string;
  source?: string;
  /** The agent that wrote the session: claude-code, codex, gemini, opencode. */
  agent?: string;
  from?: string;
  to?: string;
  /** `is:starred`. */
  starred?: true;
  /** `tag:x`, each one (all must match). */
  tags?: string[];
  /** `has:note`. */
  hasNote?: true;
  /** `has:secrets`. */
  hasSecrets?: true;
}

/** A tag as the API takes it: short lowercase words joined by `-` or `/` (core/annotations.ts). */
const TAG = /^[a-z0-9]+(?:[-/][a-z0-9]+)*$/;

export interface OmniboxQuery {
  kind: 'query';
  /** Free text in search syntax, or '' when there is none. */
  text: string;
  filters: OmniboxFilters;
  /** A session id prefix: the whole input was one, or it came from `id:`. */
  idPrefix?: string;
  /** Date phrases recognised, as labels (`last week`). */
  dates: string[];
  /** What could not be understood, in words; the rest of the input still applies. */
  problems: string[];
}

export const commandNames = ['list', 'calendar', 'turns', 'search', 'open', 'shortcuts'] as const;
export type CommandName = (typeof commandNames)[number];

export interface OmniboxCommand {
  kind: 'command';
  /** The command, or null when the word matched none or several. */
  name: CommandName | null;
  /** The rest of the line after the command word. */
  arg: string;
  /** Commands the typed word could still become (for the dropdown). */
  suggestions: CommandName[];
  problems: string[];
}

export type OmniboxParse = OmniboxQuery | OmniboxCommand;

/** Command words and their aliases; matching is by prefix of any of them. */
export const commandAliases: Record<CommandName, string[]> = {
  list: ['list', 'sessions', 'home'],
  calendar: ['calendar'],
  turns: ['turns', 'prompts'],
  search: ['search', 'find'],
  open: ['open', 'goto', 'session'],
  shortcuts: ['shortcuts', 'keys', 'help'],
};

export const commandHelp: Record<CommandName, string> = {
  list: 'go to the session list',
  calendar: 'go to the calendar (optionally a month: >calendar 2026-03)',
  turns: 'go to the turns across sessions: your prompts, or >turns claude, >turns both',
  search: 'search transcripts: >search words',
  open: 'open a session by id or id prefix: >open 5c0375b4',
  shortcuts: 'show keyboard shortcuts',
};

/** The sides `>turns` takes, as the Turns page's toggle names them. */
export const TURN_SIDES = ['you', 'claude', 'both'] as const;
export type TurnSide = (typeof TURN_SIDES)[number];

const OPERATORS: Record<string, FilterKey | 'id' | 'is' | 'has' | 'tag'> = {
  is: 'is',
  has: 'has',
  tag: 'tag',
  project: 'project',
  proj: 'project',
  cwd: 'cwd',
  dir: 'cwd',
  host: 'hostname',
  hostname: 'hostname',
  model: 'model',
  source: 'source',
  src: 'source',
  agent: 'agent',
  id: 'id',
};

interface Token {
  /** As typed (quotes kept), for free text. */
  raw: string;
  /** Operator name, lowercased, when the token is `name:value`. */
  op?: string;
  /** Value with quotes removed. */
  value: string;
}

/** Splits on whitespace, keeping `"quoted phrases"` and `op:"quoted values"` together. */
export function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  const re = /([A-Za-z]+):("([^"]*)"?|\S*)|"([^"]*)"?|\S+/g;
  for (let m = re.exec(input); m; m = re.exec(input)) {
    if (m[1] !== undefined) {
      const op = m[1].toLowerCase();
      const value = m[3] ?? m[2] ?? '';
      if (op in OPERATORS) tokens.push({ raw: m[0], op, value: value.trim() });
      else tokens.push({ raw: m[0], value: m[0] });
    } else if (m[4] !== undefined)
      tokens.push({ raw: m[0].endsWith('"') && m[0].length > 1 ? m[0] : `${m[0]}"`, value: m[4] });
    else tokens.push({ raw: m[0], value: m[0] });
  }
  return tokens;
}

/** True for a lone token that can only be a session id prefix (hex with dashes, a digit, ≥ 6 chars). */
export function looksLikeIdPrefix(token: string): boolean {
  if (!/^[0-9a-f]+(?:-[0-9a-f]*)*$/i.test(token)) return false;
  const hex = token.replace(/-/g, '');
  return hex.length >= 6 && /\d/.test(hex) && hex.length <= 32;
}

function parseCommand(input: string): OmniboxCommand {
  const body = input.replace(/^\s*>\s*/, '');
  const m = /^(\S*)\s*([\s\S]*)$/.exec(body)!;
  const word = m[1]!.toLowerCase();
  const arg = m[2]!.trim();
  if (word === '') return { kind: 'command', name: null, arg, suggestions: [...commandNames], problems: [] };
  // Tiers: an exact name or alias; else the commands whose own name starts with the word (`>s` is
  // >search or >shortcuts, not >list through its alias "sessions"); else alias prefixes.
  const exact = commandNames.filter((c) => commandAliases[c].includes(word));
  const byName = commandNames.filter((c) => c.startsWith(word));
  const byAlias = commandNames.filter((c) => commandAliases[c].some((a) => a.startsWith(word)));
  const matches = exact.length > 0 ? exact : byName.length > 0 ? byName : byAlias;
  /** How a candidate reads in the explanation: its name, or the alias the word starts. */
  const spell = (c: CommandName) => {
    if (c.startsWith(word)) return `>${c}`;
    const alias = commandAliases[c].find((a) => a.startsWith(word));
    return alias ? `>${alias} (>${c})` : `>${c}`;
  };
  if (matches.length === 1) {
    const name = matches[0]!;
    const problems: string[] = [];
    if ((name === 'open' || name === 'search') && arg === '')
      problems.push(
        name === 'open' ? '>open needs a session id or id prefix' : '>search needs words to search for',
      );
    if (name === 'calendar' && arg !== '' && !/^\d{4}-(0[1-9]|1[0-2])$/.test(arg))
      problems.push(`>calendar takes a month as YYYY-MM, not "${arg}"`);
    if (name === 'turns' && arg !== '' && !TURN_SIDES.includes(arg.toLowerCase() as TurnSide))
      problems.push(`>turns takes ${TURN_SIDES.join(', ')} or nothing, not "${arg}"`);
    return { kind: 'command', name, arg, suggestions: matches, problems };
  }
  if (matches.length === 0)
    return {
      kind: 'command',
      name: null,
      arg,
      suggestions: [],
      problems: [`unknown command ">${word}"; try ${commandNames.map((c) => `>${c}`).join(', ')}`],
    };
  return {
    kind: 'command',
    name: null,
    arg,
    suggestions: matches,
    problems: [`">${word}" could be ${matches.map(spell).join(' or ')}`],
  };
}

/**
 * Parses one line of omnibox input.
 *
 * @param now the current time in ms (date phrases are relative to it)
 * @example
 * parseOmnibox('model:opus deploy last week', Date.parse('2026-03-11T09:00:00Z'))
 * // → { kind: 'query', text: 'deploy', filters: { model: 'opus', from: '2026-03-02', to: '2026-03-08' }, … }
 */
export function parseOmnibox(input: string, now: number): OmniboxParse {
  if (/^\s*>/.test(input)) return parseCommand(input);

  const tokens = tokenize(input.slice(0, 2000));
  const filters: OmniboxFilters = {};
  const problems: string[] = [];
  const dates: string[] = [];
  const text: string[] = [];
  let idPrefix: string | undefined;
  let range: DayRange | undefined;

  if (tokens.length === 1 && tokens[0]!.op === undefined && looksLikeIdPrefix(tokens[0]!.raw)) {
    const only = tokens[0]!.raw;
    // A month or a date is a date, not an id (2026-03 is hex too).
    const asDate = matchDatePhrase([only], now);
    if (asDate === null)
      return { kind: 'query', text: '', filters, idPrefix: only.toLowerCase(), dates, problems };
  }

  const setRange = (r: DayRange, label: string) => {
    const next: DayRange = { ...range };
    if (r.from !== undefined && r.to !== undefined) {
      if (range?.from !== undefined && range.to !== undefined)
        problems.push(`two date ranges given; using "${label}"`);
      next.from = r.from;
      next.to = r.to;
    } else {
      if (r.from !== undefined) next.from = r.from;
      if (r.to !== undefined) next.to = r.to;
    }
    range = next;
    dates.push(label);
  };

  for (let i = 0; i < tokens.length;) {
    const t = tokens[i]!;
    if (t.op !== undefined) {
      const key = OPERATORS[t.op]!;
      i++;
      if (t.value === '') {
        problems.push(`${t.op}: needs a value (e.g. ${t.op}:${key === 'id' ? '5c0375b4' : 'name'})`);
        continue;
      }
      if (key === 'is' || key === 'has') {
        const value = t.value.toLowerCase();
        if (key === 'is' && value === 'starred') filters.starred = true;
        else if (key === 'has' && value === 'note') filters.hasNote = true;
        else if (key === 'has' && value === 'secrets') filters.hasSecrets = true;
        else
          problems.push(
            `${t.op}:${t.value} is not known; try ${key === 'is' ? 'is:starred' : 'has:note or has:secrets'}`,
          );
        continue;
      }
      if (key === 'tag') {
        if (!TAG.test(t.value) || t.value.length > 40)
          problems.push(`tag:${t.value} is not a tag (short lowercase words joined by - or /)`);
        else if (!filters.tags?.includes(t.value)) filters.tags = [...(filters.tags ?? []), t.value];
        continue;
      }
      if (key === 'id') {
        if (!/^[A-Za-z0-9._@+=,-]+$/.test(t.value)) problems.push(`id:${t.value} is not a session id prefix`);
        else idPrefix = t.value;
        continue;
      }
      if (filters[key] !== undefined && filters[key] !== t.value)
        problems.push(`${t.op}: given twice; using "${t.value}"`);
      filters[key] = t.value;
      continue;
    }
    // Date phrases only over plain (unquoted, non-operator) words.
    const words: string[] = [];
    for (let j = i; j < Math.min(tokens.length, i + 4); j++) {
      const w = tokens[j]!;
      if (w.op !== undefined || w.raw.startsWith('"')) break;
      words.push(w.raw);
    }
    const date = words.length > 0 ? matchDatePhrase(words, now) : null;
    if (date && 'problem' in date) {
      problems.push(date.problem);
      i += date.length;
      continue;
    }
    if (date) {
      setRange(date.range, date.label);
      i += date.length;
      continue;
    }
    text.push(t.raw);
    i++;
  }

  if (range !== undefined) {
    const r: DayRange = range;
    if (r.from !== undefined && r.to !== undefined && r.from > r.to) {
      problems.push(`the dates given end (${r.to}) before they start (${r.from}); dates ignored`);
    } else {
      if (r.from !== undefined) filters.from = r.from;
      if (r.to !== undefined) filters.to = r.to;
    }
  }

  return {
    kind: 'query',
    text: text.join(' ').trim(),
    filters,
    ...(idPrefix ? { idPrefix } : {}),
    dates,
    problems,
  };
}

/** True when a parsed query would change nothing (no text, filters, id or dates). */
export function isEmptyQuery(q: OmniboxQuery): boolean {
  return q.text === '' && q.idPrefix === undefined && Object.keys(q.filters).length === 0;
}

/**
 * The omnibox text that reproduces a set of filters (for saved filters and for showing the
 * current list filters as something one can edit).
 */
export function formatFilters(filters: OmniboxFilters & { text?: string; idPrefix?: string }): string {
  const quote = (v: string) => (/[\s"]/.test(v) ? `"${v.replace(/"/g, '')}"` : v);
  const parts: string[] = [];
  if (filters.project) parts.push(`project:${quote(filters.project)}`);
  if (filters.cwd) parts.push(`cwd:${quote(filters.cwd)}`);
  if (filters.hostname) parts.push(`host:${quote(filters.hostname)}`);
  if (filters.model) parts.push(`model:${quote(filters.model)}`);
  if (filters.source) parts.push(`source:${quote(filters.source)}`);
  if (filters.agent) parts.push(`agent:${quote(filters.agent)}`);
  if (filters.idPrefix) parts.push(`id:${filters.idPrefix}`);
  if (filters.starred) parts.push('is:starred');
  for (const t of filters.tags ?? []) parts.push(`tag:${t}`);
  if (filters.hasNote) parts.push('has:note');
  if (filters.hasSecrets) parts.push('has:secrets');
  if (filters.from && filters.to && filters.from === filters.to) parts.push(filters.from);
  else if (filters.from && filters.to) parts.push(`${filters.from}..${filters.to}`);
  else if (filters.from) parts.push(`since ${filters.from}`);
  else if (filters.to) parts.push(`before ${nextDay(filters.to)}`);
  if (filters.text) parts.push(filters.text);
  return parts.join(' ');
}

function nextDay(day: string): string {
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(ms) ? day : new Date(ms + 86_400_000).toISOString().slice(0, 10);
}
