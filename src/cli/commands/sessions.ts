/** `transcripts sessions`: the session list with the UI's filters, newest first. */
import type { Session, SessionFilters } from '../../client/api-client.js';
import { defineCommand } from '../command.js';
import {
  formatDuration,
  formatTime,
  outputWidth,
  plural,
  statusLabel,
  guardClosedPipe,
} from './shared/format.js';
import {
  filterOptions,
  jsonOption,
  pageOptions,
  parsePage,
  parseFilters,
  textOf,
  textOption,
  webapiOf,
  webapiOption,
} from './shared/options.js';
import { formatTable } from './shared/table.js';

export interface SessionsOptions {
  filters: SessionFilters;
  text?: string;
  limit?: number;
  offset?: number;
  json: boolean;
  webapi?: string;
}

/** The shortest prefix length (at least 12: short ids show whole) that tells every listed id apart. */
export function shortIdLength(ids: string[]): number {
  let n = 12;
  const longest = Math.max(0, ...ids.map((i) => i.length));
  while (n < longest && new Set(ids.map((i) => i.slice(0, n))).size < new Set(ids).size) n++;
  return n;
}

export const sessionsCommand = defineCommand<SessionsOptions>({
  name: 'sessions',
  summary: 'List sessions, newest first (the same filters as the web UI)',
  description:
    'One line per session: id (a unique prefix; any command taking an id accepts it), status (● live, ○ ' +
    'incomplete, ■ ended), provenance, last activity (UTC), active time, model, project and title. Filters ' +
    'combine with AND. --json prints the API answer ({total, offset, limit, sessions}).',
  examples: [
    'transcripts sessions',
    'transcripts sessions --model claude-opus-4-1 --from 2025-07-01 --limit 20',
    'transcripts sessions --host laptop --json | jq ".sessions[].id"',
    'transcripts sessions --text "parser livecd"',
  ],
  options: [
    ...filterOptions,
    textOption,
    ...pageOptions('sessions', 'default: userSettings.sessionListPageSize, max 500'),
    jsonOption,
    webapiOption,
  ],
  parse: (raw) => ({
    filters: parseFilters(raw),
    text: textOf(raw),
    ...parsePage(raw),
    json: raw.json === true,
    webapi: webapiOf(raw),
  }),
  async run(options, ctx) {
    guardClosedPipe(ctx.io); // `| head` ends the output quietly
    const { client } = ctx.client(options.webapi);
    const page = await client.listSessions({
      ...options.filters,
      text: options.text,
      limit: options.limit,
      offset: options.offset,
    });
    if (options.json) {
      ctx.io.out(JSON.stringify(page, null, 2));
      return 0;
    }
    if (page.sessions.length === 0) {
      ctx.io.out(
        page.total === 0 ? 'no sessions match' : `no sessions at offset ${page.offset} (of ${page.total})`,
      );
      return 0;
    }
    const idLen = shortIdLength(page.sessions.map((s) => s.id));
    const lines = formatTable<Session>(
      [
        { header: 'ID', value: (s) => s.id.slice(0, idLen) },
        { header: 'STATUS', value: (s) => statusLabel(s.status) },
        { header: 'PROVENANCE', value: (s) => s.provenance, drop: 2 },
        { header: 'LAST ACTIVITY', value: (s) => formatTime(s.lastActivity) },
        { header: 'ACTIVE', value: (s) => formatDuration(s.activeTimeMs), align: 'right', drop: 3 },
        { header: 'MODEL', value: (s) => s.model ?? '—', flex: true, min: 10, drop: 1 },
        { header: 'PROJECT', value: (s) => s.project ?? '—', flex: true, min: 10, drop: 4 },
        { header: 'TITLE', value: (s) => s.title ?? '—', flex: true, min: 12 },
      ],
      page.sessions,
      outputWidth(ctx.io, ctx.env),
    );
    for (const l of lines) ctx.io.out(l);
    const first = page.offset + 1;
    const last = page.offset + page.sessions.length;
    if (page.total > page.sessions.length)
      ctx.io.err(`${first}–${last} of ${plural(page.total, 'session')}; --offset ${last} for more`);
    return 0;
  },
});
