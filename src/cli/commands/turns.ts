/**
 * `transcripts turns`: the turns across sessions (GET /api/turns) — what the person typed and what
 * Claude said in every session the filters select, newest first, one turn per line.
 */
import type { SessionFilters, TurnsAcross } from '../../client/api-client.js';
import { defineCommand, type OptionSpec } from '../command.js';
import { formatTime, guardClosedPipe, outputWidth, plural } from './shared/format.js';
import {
  filterOptions,
  jsonOption,
  pageOptions,
  parseFilters,
  parsePage,
  parseRole,
  roleOption,
  webapiOf,
  webapiOption,
} from './shared/options.js';
import { shortIdLength } from './sessions.js';
import { formatTable } from './shared/table.js';
import { ROLE_LABEL } from './transcript.js';

export interface TurnsOptions {
  role?: 'user' | 'assistant';
  filters: SessionFilters;
  limit?: number;
  offset?: number;
  json: boolean;
  webapi?: string;
}

type Turn = TurnsAcross['turns'][number];

/** The range options, worded for turns: they bound the turns' own times, not the sessions'. */
const rangeOptions: OptionSpec[] = [
  {
    flags: '--from <iso>',
    description: 'only turns at or after this date or time',
    apiParams: ['from'],
  },
  {
    flags: '--to <iso>',
    description: 'only turns at or before this date or time (a bare date: that whole day)',
    apiParams: ['to'],
  },
];

/** `#12`, with the file when it is not the main transcript (a subagent's). */
function entryOf(t: Turn): string {
  return t.file === 'transcript.jsonl' ? `#${t.index}` : `#${t.index} (${t.file})`;
}

export const turnsCommand = defineCommand<TurnsOptions>({
  name: 'turns',
  summary: 'List the turns across sessions, newest first (what you asked, what Claude answered)',
  description:
    'One line per turn: time (UTC), session (a unique id prefix), entry index (`transcripts transcript ' +
    '<id>` shows it), project, who spoke (You or Claude) and the text, cut to fit a terminal (whole, on ' +
    "one line, into a pipe). --role takes one side. --from and --to bound the turns' own times; the other " +
    'filters select sessions as `transcripts sessions` does. Turns without a time come last. --json ' +
    'prints the API answer (GET /api/turns: {total, offset, limit, turns}).',
  examples: [
    'transcripts turns --role user',
    'transcripts turns --role user --project transcripts --from 2025-08-01 --limit 200 | grep -i deploy',
    'transcripts turns --role assistant --model claude-opus-4-1 --offset 50',
    'transcripts turns --role user --json | jq -r ".turns[].text"',
  ],
  options: [
    roleOption,
    ...filterOptions.filter((o) => !/^--(from|to) /.test(o.flags)),
    ...rangeOptions,
    ...pageOptions('turns', 'default 50, max 1000'),
    jsonOption,
    webapiOption,
  ],
  parse: (raw) => ({
    role: parseRole(raw),
    filters: parseFilters(raw),
    ...parsePage(raw),
    json: raw.json === true,
    webapi: webapiOf(raw),
  }),
  async run(options, ctx) {
    guardClosedPipe(ctx.io); // `| head` ends the output quietly
    const { client } = ctx.client(options.webapi);
    const page = await client.allTurns({
      ...options.filters,
      role: options.role,
      limit: options.limit,
      offset: options.offset,
    });
    if (options.json) {
      ctx.io.out(JSON.stringify(page, null, 2));
      return 0;
    }
    if (page.turns.length === 0) {
      ctx.io.out(
        page.total === 0 ? 'no turns match' : `no turns at offset ${page.offset} (of ${page.total})`,
      );
      return 0;
    }
    const idLen = shortIdLength([...new Set(page.turns.map((t) => t.sessionId))]);
    const lines = formatTable<Turn>(
      [
        { header: 'TIME', value: (t) => formatTime(t.timestamp) },
        { header: 'SESSION', value: (t) => t.sessionId.slice(0, idLen) },
        { header: 'ENTRY', value: entryOf, flex: true, min: 5, drop: 1 },
        { header: 'PROJECT', value: (t) => t.session?.project ?? '—', flex: true, min: 10, drop: 2 },
        { header: 'ROLE', value: (t) => ROLE_LABEL[t.role] ?? t.role },
        { header: 'TEXT', value: (t) => t.text || '—', flex: true, min: 20 },
      ],
      page.turns,
      outputWidth(ctx.io, ctx.env),
    );
    for (const l of lines) ctx.io.out(l);
    const first = page.offset + 1;
    const last = page.offset + page.turns.length;
    if (page.total > page.turns.length)
      ctx.io.err(
        `${first}–${last} of ${plural(page.total, 'turn')}${last < page.total ? `; --offset ${last} for more` : ''}`,
      );
    return 0;
  },
});
