/** `transcripts sessions`: the session list with the UI's filters, newest first or as sorted. */
import type { Session, SessionFilters } from '../../client/api-client.js';
import {
  SESSION_SORT_KEYS,
  SORT_DIRECTIONS,
  type SessionSortKey,
  type SortDirection,
} from '../../store/contract.js';
import { UsageError } from '../errors.js';
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
import { formatTable, type Column } from './shared/table.js';
import { annotationFilterOptions, parseAnnotationFilters } from './shared/annotation-filters.js';

export interface SessionsOptions {
  filters: SessionFilters;
  text?: string;
  starred: boolean;
  tags: string[];
  hasSecrets: boolean;
  sort?: SessionSortKey;
  order?: SortDirection;
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

function parseSort(raw: Record<string, unknown>): { sort?: SessionSortKey; order?: SortDirection } {
  const sort = raw.sort === undefined ? undefined : String(raw.sort);
  if (sort !== undefined && !(SESSION_SORT_KEYS as readonly string[]).includes(sort))
    throw new UsageError(`--sort must be one of ${SESSION_SORT_KEYS.join(', ')}, got "${sort}"`);
  const order = raw.order === undefined ? undefined : String(raw.order);
  if (order !== undefined && !(SORT_DIRECTIONS as readonly string[]).includes(order))
    throw new UsageError(`--order must be asc or desc, got "${order}"`);
  return { sort: sort as SessionSortKey | undefined, order: order as SortDirection | undefined };
}

const count = (n: number | null | undefined) => (typeof n === 'number' ? n.toLocaleString('en-US') : '—');

/** The column showing what the list is sorted by, unless the table has it already. */
function sortColumn(sort: SessionSortKey | undefined): Array<Column<Session>> {
  switch (sort) {
    case 'startedAt':
      return [{ header: 'STARTED', value: (s) => formatTime(s.startedAt) }];
    case 'runtime':
      return [{ header: 'RUNTIME', value: (s) => formatDuration(s.runtimeMs), align: 'right' }];
    case 'tokens':
      return [
        {
          header: 'TOKENS',
          value: (s) => count(s.tokens.input + s.tokens.output + s.tokens.cacheWrite + s.tokens.cacheRead),
          align: 'right',
        },
      ];
    case 'entries':
      return [{ header: 'ENTRIES', value: (s) => count(s.counts.entries), align: 'right' }];
    default:
      return [];
  }
}

export const sessionsCommand = defineCommand<SessionsOptions>({
  name: 'sessions',
  summary: 'List sessions, newest first or as sorted (the same filters as the web UI)',
  description:
    'One line per session: id (a unique prefix; any command taking an id accepts it), status (● live, ○ ' +
    'incomplete, ■ ended), provenance, last activity (UTC), active time, model, project and title. Filters ' +
    'combine with AND. --sort orders by another field (its column is added to the table); --order asc ' +
    'reverses it. --json prints the API answer ({total, offset, limit, sessions}).',
  examples: [
    'transcripts sessions',
    'transcripts sessions --model claude-opus-4-1 --from 2025-07-01 --limit 20',
    'transcripts sessions --host laptop --json | jq ".sessions[].id"',
    'transcripts sessions --text "parser livecd"',
    'transcripts sessions --sort tokens --limit 10',
  ],
  options: [
    ...filterOptions,
    textOption,
    ...annotationFilterOptions,
    {
      flags: '--has-secrets',
      description: 'only sessions holding likely secrets, as counted at ingest (see `transcripts secrets`)',
      apiParams: ['hasSecrets'],
    },
    {
      flags: '--sort <field>',
      description: `order by ${SESSION_SORT_KEYS.join(', ')} (default lastActivity); no value last`,
      apiParams: ['sort'],
    },
    {
      flags: '--order <order>',
      description: 'desc (default: largest, newest first) or asc',
      apiParams: ['dir'],
    },
    ...pageOptions('sessions', 'default: userSettings.sessionListPageSize, max 500'),
    jsonOption,
    webapiOption,
  ],
  parse: (raw) => ({
    filters: parseFilters(raw),
    text: textOf(raw),
    ...parseAnnotationFilters(raw),
    hasSecrets: raw.hasSecrets === true,
    ...parseSort(raw),
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
      ...(options.starred ? { starred: 'true' as const } : {}),
      ...(options.tags.length ? { tag: options.tags } : {}),
      ...(options.hasSecrets ? { hasSecrets: 'true' as const } : {}),
      sort: options.sort,
      dir: options.order,
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
        ...sortColumn(options.sort),
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
