/** `transcripts search <query>`: full-text hits across sessions, with the matched words marked on a terminal. */
import type { SearchResult, SessionFilters } from '../../client/api-client.js';
import { isSearchable } from '../../core/searchable.js';
import { defineCommand } from '../command.js';
import { UsageError } from '../errors.js';
import {
  formatTime,
  oneLineSnippet,
  outputWidth,
  plural,
  stdoutIsTTY,
  guardClosedPipe,
} from './shared/format.js';
import {
  filterOptions,
  jsonOption,
  pageOptions,
  parsePage,
  parseFilters,
  webapiOf,
  webapiOption,
} from './shared/options.js';
import { oneLine, truncate } from './shared/table.js';
import { terminalLine } from './shared/terminal-text.js';

export interface SearchOptions {
  q: string;
  filters: SessionFilters;
  limit?: number;
  offset?: number;
  json: boolean;
  webapi?: string;
}

type Hit = SearchResult['hits'][number];

/** Where a hit is: an entry (a bookmark's note is on one), or the session's note (no entry). */
function hitPlace(h: Hit): string {
  if (h.kind === 'note') return 'note';
  return `#${h.index}${h.file !== 'transcript.jsonl' ? ` (${h.file})` : ''}`;
}

const MARK_ON = '\x1b[1;33m';
const MARK_OFF = '\x1b[0m';

/**
 * A hit's snippet on one line, at most `max` characters; matched segments wrapped in `mark` when
 * given (terminal colours — cut by visible characters, so the escape codes never count or split).
 * The transcript's own escape sequences and controls are neutralised first (`oneLineSnippet`), so
 * the only codes in the line are the marks.
 */
export function renderSnippet(hit: Hit, mark?: { on: string; off: string }, max?: number): string {
  let out = '';
  let used = 0;
  for (const seg of hit.snippet) {
    let text = oneLineSnippet(seg.text);
    const n = [...text].length;
    const full = max !== undefined && used + n > max;
    if (full) text = truncate(text, max - used);
    out += seg.mark && mark ? `${mark.on}${text}${mark.off}` : text;
    used += [...text].length;
    if (full) break;
  }
  return out;
}

export const searchCommand = defineCommand<SearchOptions>({
  name: 'search',
  summary: 'Search every transcript',
  description:
    'Words must all match; "quoted phrases" match exactly; a trailing * matches a prefix (deploy*). Each hit ' +
    'names the session (a unique id prefix), the entry index (`transcripts transcript <id>` shows it) and a ' +
    'snippet with the matches highlighted on a terminal. Terms without a letter or digit (emoji, ->) are not ' +
    'indexed, so they are left out of the search and named on stderr. Takes the session list filters. Exits 1 ' +
    'when search is off.',
  examples: [
    'transcripts search "database migration"',
    'transcripts search deploy* --model claude-opus-4-1 --limit 50',
    'transcripts search flaky --json',
  ],
  args: [{ name: '<query...>', description: 'words to find', apiParams: ['q'] }],
  options: [...filterOptions, ...pageOptions('hits', 'default 20, max 100'), jsonOption, webapiOption],
  parse(raw, args) {
    const q = args.join(' ').trim();
    if (!q) throw new UsageError('search needs words to look for');
    return {
      q,
      filters: parseFilters(raw),
      ...parsePage(raw),
      json: raw.json === true,
      webapi: webapiOf(raw),
    };
  },
  async run(options, ctx) {
    guardClosedPipe(ctx.io); // `| head` ends the output quietly
    const { client } = ctx.client(options.webapi);
    const r = await client.search({
      q: options.q,
      ...options.filters,
      limit: options.limit,
      offset: options.offset,
    });
    if (options.json) {
      ctx.io.out(JSON.stringify(r, null, 2));
      return r.enabled ? 0 : 1;
    }
    if (!r.enabled) {
      ctx.io.err(`search is off on this instance${r.reason ? `: ${r.reason}` : ''}`);
      return 1;
    }
    if (r.stale)
      ctx.io.err(
        'note: search is behind (an import is writing entries, or stopped before it finished, or an earlier version indexed them: the server catches up by itself); `transcripts reindex` catches up now',
      );
    // An older server does not say; nothing is known to be left out then.
    const ignored = (r.ignored as string[] | undefined) ?? [];
    const terms = ignored.map((t) => JSON.stringify(t)).join(', ');
    const why = 'no letters or digits: emoji and punctuation are not indexed';
    // The parser drops no letter or digit, so a query without one had every term ignored.
    if (ignored.length > 0 && !isSearchable(r.q)) {
      ctx.io.out(`nothing searched: ${terms} (${why})`);
      return 0;
    }
    if (ignored.length > 0) ctx.io.err(`not searched: ${terms} (${why})`);
    if (r.hits.length === 0) {
      ctx.io.out(
        r.total === 0
          ? `no hits for ${JSON.stringify(options.q)}`
          : `no hits at offset ${r.offset} (of ${r.total}${r.totalExact ? '' : '+'})`,
      );
      return 0;
    }
    const width = outputWidth(ctx.io, ctx.env);
    const mark = stdoutIsTTY(ctx.io) ? { on: MARK_ON, off: MARK_OFF } : undefined;
    for (const h of r.hits) {
      // The role and an unparsable timestamp are the transcript's text, the title and project too.
      const where = terminalLine(`${h.sessionId}  ${hitPlace(h)}  ${h.role}  ${formatTime(h.timestamp)}`);
      const what = oneLine(h.session?.title ?? h.session?.project ?? '');
      ctx.io.out(width ? truncate(`${where}  ${what}`, width) : `${where}  ${what}`);
      ctx.io.out(`    ${renderSnippet(h, mark, width === undefined ? undefined : width - 4)}`);
    }
    const last = r.offset + r.hits.length;
    ctx.io.err(
      `${r.offset + 1}–${last} of ${r.totalExact ? plural(r.total, 'hit') : `${r.total}+ hits`}` +
        (r.total > last || !r.totalExact ? `; --offset ${last} for more` : ''),
    );
    return 0;
  },
});
