/**
 * `transcripts activity`: the calendar's daily activity rollup (GET /api/activity) — per UTC day
 * the sessions active, their active time and entries, with a bar for how busy the day was; with
 * `--sessions`, each day's sessions under it, as a day of the calendar opens them.
 */
import type { Activity, SessionFilters } from '../../client/api-client.js';
import { defineCommand, type OptionSpec } from '../command.js';
import { formatDuration, guardClosedPipe, outputWidth, plural } from './shared/format.js';
import { filterOptions, jsonOption, parseFilters, webapiOf, webapiOption } from './shared/options.js';
import { shortIdLength } from './sessions.js';
import { formatTable } from './shared/table.js';

export interface ActivityOptions {
  filters: SessionFilters;
  sessions: boolean;
  json: boolean;
  webapi?: string;
}

type Day = Activity['days'][number];

const BAR = 20;

/** `████▌` for `value` of `max` in `width` cells (eighths of a cell); at least a sliver when above 0. */
export function densityBar(value: number, max: number, width = BAR): string {
  if (max <= 0 || value <= 0) return '';
  const eighths = Math.max(1, Math.round((value / max) * width * 8));
  const partial = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'][eighths % 8]!;
  return '█'.repeat(Math.floor(eighths / 8)) + partial;
}

/** The range options, worded for days (the other filters are the session list's). */
const rangeOptions: OptionSpec[] = [
  {
    flags: '--from <iso>',
    description: 'first day (default: 365 days before --to)',
    apiParams: ['from'],
  },
  {
    flags: '--to <iso>',
    description: 'last day, a bare date counting whole (default: now)',
    apiParams: ['to'],
  },
];

export const activityCommand = defineCommand<ActivityOptions>({
  name: 'activity',
  summary: 'Daily activity, as the calendar shows it',
  description:
    'One line per UTC day with activity (days without any are left out): sessions active that day, their ' +
    "active time and transcript entries, and a bar scaled to the busiest day. --sessions lists each day's " +
    'sessions under it. Takes the session list filters; the range defaults to the last 365 days. --json prints ' +
    'the API answer (GET /api/activity: {from, to, days}).',
  examples: [
    'transcripts activity --from 2025-07-01 --to 2025-07-31',
    'transcripts activity --model claude-opus-4-1 --sessions',
    'transcripts activity --json | jq ".days[] | {day, activeMs}"',
  ],
  options: [
    ...filterOptions.filter((o) => !/^--(from|to) /.test(o.flags)),
    ...rangeOptions,
    { flags: '--sessions', description: "list each day's sessions (id, project, active time, entries)" },
    jsonOption,
    webapiOption,
  ],
  parse: (raw) => ({
    filters: parseFilters(raw),
    sessions: raw.sessions === true,
    json: raw.json === true,
    webapi: webapiOf(raw),
  }),
  async run(options, ctx) {
    guardClosedPipe(ctx.io); // `| head` ends the output quietly
    const { client } = ctx.client(options.webapi);
    const a = await client.activity(options.filters);
    if (options.json) {
      ctx.io.out(JSON.stringify(a, null, 2));
      return 0;
    }
    const range = `${a.from.slice(0, 10)} to ${a.to.slice(0, 10)}`;
    if (a.days.length === 0) {
      ctx.io.out(`no activity from ${range}`);
      return 0;
    }
    const max = Math.max(...a.days.map((d) => d.activeMs));
    const width = outputWidth(ctx.io, ctx.env);
    // The bar takes what the numbers leave of the width (20 cells on a pipe; none when too narrow).
    const barWidth = width === undefined ? BAR : Math.min(30, width - 48);
    const lines = formatTable<Day>(
      [
        { header: 'DAY', value: (d) => d.day },
        { header: 'SESSIONS', value: (d) => String(d.sessions), align: 'right' },
        { header: 'ACTIVE', value: (d) => formatDuration(d.activeMs), align: 'right' },
        { header: 'ENTRIES', value: (d) => d.entries.toLocaleString('en-US'), align: 'right', drop: 1 },
        ...(barWidth >= 4 ? [{ header: '', value: (d: Day) => densityBar(d.activeMs, max, barWidth) }] : []),
      ],
      a.days,
      width,
    );
    // Each day's sessions, in one table so their columns line up from day to day.
    type Item = Day['items'][number];
    const items = a.days.flatMap((d) => d.items);
    const idLen = shortIdLength(items.map((i) => i.sessionId));
    const itemLines = options.sessions
      ? formatTable<Item>(
          [
            { header: '', value: (it) => it.sessionId.slice(0, idLen) },
            { header: '', value: (it) => formatDuration(it.activeMs), align: 'right' },
            { header: '', value: (it) => plural(it.entries, 'entry', 'entries'), align: 'right' },
            { header: '', value: (it) => it.project ?? '—', flex: true, min: 10 },
          ],
          items,
          width === undefined ? undefined : width - 2,
        )
          .slice(1)
          .map((l) => `  ${l}`)
      : [];
    ctx.io.out(lines[0]!);
    let at = 0;
    a.days.forEach((d, i) => {
      ctx.io.out(lines[i + 1]!);
      for (const l of itemLines.slice(at, at + d.items.length)) ctx.io.out(l);
      at += d.items.length;
    });
    const total = a.days.reduce((n, d) => n + d.activeMs, 0);
    ctx.io.err(
      `${plural(a.days.length, 'day')} with activity from ${range}, ${formatDuration(total)} active in all`,
    );
    return 0;
  },
});
