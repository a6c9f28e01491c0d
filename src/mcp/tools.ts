/**
 * The MCP server over the history (issue 37): the tools and the session resource, defined once
 * and served by both transports — `transcripts mcp` over stdio, and `/api/mcp` in the service.
 * Every tool reads through an `ApiClient`: the stdio server's speaks HTTP to the running
 * instance, the service's calls its own app in-process; the tools cannot tell them apart.
 *
 * Each tool answers text written for a model plus `structuredContent` (the API's answer, bounded),
 * stays within its budget whatever the history holds, and turns every failure into a tool error
 * with a sentence saying what to do (errors.ts).
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ApiClient, SearchResult, Session, SessionFilters } from '../client/api-client.js';
import { ApiError } from '../client/api-error.js';
import {
  formatBytes,
  formatCost,
  formatDuration,
  formatTotalsCost,
  modelCost,
  modelLabel,
} from '../core/display-format.js';
import { sessionIdProblem } from '../core/object-key.js';
import { SESSION_SORT_KEYS, SORT_DIRECTIONS } from '../store/contract.js';
import {
  CursorError,
  formatCursor,
  oneLine,
  parseCursor,
  plain,
  readPage,
  renderEntry,
  renderTurn,
  shortTime,
  trimText,
} from './compact.js';
import { ToolInputError, toolError } from './errors.js';

/** Default characters of a read_transcript page (and of a resource page). */
export const DEFAULT_BUDGET = 20_000;
export const MIN_BUDGET = 2_000;
export const MAX_BUDGET = 50_000;
/** Characters of one turn's text get_turns shows, and of all of them together. */
export const TURN_CHARS = 2_000;
export const TURNS_BUDGET = 20_000;
/** Files of a session get_session lists. */
export const MAX_FILES = 100;
/** Entries (or turns) asked of the API per request while filling a page. */
const BATCH = 200;
const MAIN = 'transcript.jsonl';

export interface McpToolsOptions {
  /** Reads the history: an HTTP client for stdio, an in-process one inside the service. */
  client: ApiClient;
  /** The instance's address as a person opens it, for links into /app (no trailing slash). */
  appUrl: string;
  version: string;
}

// --- input schemas ---------------------------------------------------------------------------

const text = (what: string, max = 500) =>
  z
    .string()
    .trim()
    .min(1, { error: `${what} must not be empty: leave it out instead` })
    .max(max, { error: `${what} must be at most ${max} characters` });

const count = (what: string, min: number, max: number, dflt: number) =>
  z
    .number({ error: `${what} must be a whole number from ${min} to ${max}` })
    .int({ error: `${what} must be a whole number from ${min} to ${max}` })
    .min(min, { error: `${what} must be at least ${min}` })
    .max(max, { error: `${what} must be at most ${max}` })
    .default(dflt);

const offset = (what: string) =>
  count('offset', 0, 1_000_000, 0).describe(`${what} to skip: the nextOffset of the previous answer`);

/** The session list's filters, shared by search, list_sessions, get_turns, totals and activity. */
const filterShape = {
  project: text('project')
    .optional()
    .describe('only sessions of this project: the working directory\'s last segment, exactly (e.g. "api")'),
  cwd: text('cwd', 4096).optional().describe('only sessions in this working directory, exactly'),
  model: text('model')
    .optional()
    .describe('only sessions that used this model, exactly (e.g. "claude-opus-4-1")'),
  hostname: text('hostname').optional().describe('only sessions recorded on this host, exactly'),
  source: text('source')
    .optional()
    .describe('only sessions from this recorder, exactly (e.g. "live", "backfill")'),
  from: text('from', 40)
    .optional()
    .describe(
      'only sessions active at or after this ISO date or time (e.g. "2025-08-01" or "2025-08-01T09:00Z")',
    ),
  to: text('to', 40)
    .optional()
    .describe('only sessions active up to this ISO date or time; a bare date means the end of that UTC day'),
};
type Filters = { [K in keyof typeof filterShape]?: string };

const idShape = {
  id: text('id', 200).describe(
    'a session id, or a unique prefix of one (8 characters are usually enough), as search and list_sessions give it',
  ),
};

function filtersOf(args: Filters): SessionFilters {
  const out: SessionFilters = {};
  for (const k of Object.keys(filterShape) as Array<keyof Filters>)
    if (args[k] !== undefined) out[k] = args[k];
  return out;
}

// --- helpers ---------------------------------------------------------------------------------

function answer(textForModel: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: textForModel }], structuredContent: structured };
}

/** A tool body whose failures come back as tool errors; the server goes on. */
function guarded<A>(fn: (args: A) => Promise<CallToolResult>): (args: A) => Promise<CallToolResult> {
  return async (args) => {
    try {
      return await fn(args);
    } catch (err) {
      return toolError(err);
    }
  };
}

/** The full id of `ref` (an id or a unique prefix), or a ToolInputError saying what to do. */
async function resolveSession(client: ApiClient, ref: string): Promise<Session> {
  const problem = sessionIdProblem(ref);
  if (problem)
    throw new ToolInputError(
      `"${ref}" is not a session id (${problem}). Pass an id from search or list_sessions.`,
    );
  try {
    return await client.session(ref);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 404) throw err;
  }
  const page = await client.listSessions({ idPrefix: ref, limit: 6 });
  if (page.sessions.length === 1 && page.total === 1) return client.session(page.sessions[0]!.id);
  if (page.total === 0)
    throw new ToolInputError(
      `No session has the id or prefix "${ref}". Find session ids with the search or list_sessions tools.`,
    );
  const ids = page.sessions.map((s) => s.id).join(', ');
  throw new ToolInputError(
    `"${ref}" starts ${page.total} session ids (${ids}${page.total > page.sessions.length ? ', …' : ''}); pass more of the id.`,
  );
}

function sessionLink(appUrl: string, id: string, at?: { entry?: number; file?: string; q?: string }): string {
  const qs = new URLSearchParams();
  if (at?.file && at.file !== MAIN) qs.set('file', at.file);
  if (at?.entry !== undefined) qs.set('entry', String(at.entry));
  if (at?.q) qs.set('q', at.q);
  const s = qs.toString();
  return `${appUrl}/app/sessions/${encodeURIComponent(id)}${s ? `?${s}` : ''}`;
}

function tokensPhrase(t: { input: number; output: number; cacheRead: number; cacheWrite: number }): string {
  const n = (v: number) => v.toLocaleString('en-US');
  return `${n(t.input)} in, ${n(t.output)} out, ${n(t.cacheRead)} cache read, ${n(t.cacheWrite)} cache write`;
}

function sessionLine(s: Session, appUrl: string): string {
  const parts = [
    s.title ? oneLine(s.title, 100) : '(untitled)',
    s.project ?? s.cwd ?? 'no project',
    s.lastActivity ? `last active ${shortTime(s.lastActivity)}` : '',
    s.model ?? '',
    `${s.counts.prompts} prompts`,
    formatCost(s.cost, true),
  ].filter(Boolean);
  return `- ${s.id} · ${parts.join(' · ')}\n  ${sessionLink(appUrl, s.id)}`;
}

function snippetText(hit: SearchResult['hits'][number]): string {
  return oneLine(hit.snippet.map((s) => (s.mark ? `«${s.text}»` : s.text)).join(''), 400);
}

function more(shown: number, from: number, total: number, tool: string): string {
  if (from + shown >= total) return '';
  return `\nMore: call ${tool} again with offset ${from + shown}.`;
}

// --- the server ------------------------------------------------------------------------------

/** A new MCP server with every tool and the session resource, reading through `options.client`. */
export function createMcpServer(options: McpToolsOptions): McpServer {
  const { client, appUrl } = options;
  const server = new McpServer(
    { name: 'transcripts', version: options.version },
    {
      instructions:
        'The history of coding-assistant sessions (Claude Code, Codex) kept by `transcripts`. ' +
        'Find sessions with search (words in what was said) or list_sessions (filters, newest first); ' +
        'read one with get_session (summary, cost) and read_transcript (paged; pass nextCursor to go on). ' +
        'get_turns lists prompts across sessions, totals gives tokens and cost, activity gives time per day.',
    },
  );

  server.registerTool(
    'search',
    {
      title: 'Search the history',
      description:
        'Full-text search over every transcript (prompts, answers, tool calls and results). All words must ' +
        'match; "a quoted phrase" matches exactly; a trailing * matches a prefix (deploy*). Takes the session ' +
        'filters. Each hit gives the session id and title, the file and entry index (read around it with ' +
        "read_transcript, its cursor set to that index and, for a subagent's file, file set to it), a snippet with " +
        'the matches in «», and a link into the web UI. Best first.',
      inputSchema: {
        query: text('query', 1000).describe('the words or "phrase" to find'),
        ...filterShape,
        limit: count('limit', 1, 50, 10).describe('hits to return (1–50, default 10)'),
        offset: offset('hits'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(async (args) => {
      const r = await client.search({
        q: args.query,
        ...filtersOf(args),
        limit: args.limit,
        offset: args.offset,
      });
      if (!r.enabled)
        throw new ToolInputError(
          `Search is off on this instance (${r.reason ?? 'no reason given'}). Use list_sessions and get_turns instead.`,
        );
      const hits = r.hits.map((h) => ({
        ...h,
        // A session's note belongs to no entry: its link opens the session.
        link:
          h.kind === 'note'
            ? sessionLink(appUrl, h.sessionId, { q: args.query })
            : sessionLink(appUrl, h.sessionId, { entry: h.index, file: h.file, q: args.query }),
      }));
      const lines = hits.map((h, i) => {
        const where = [
          `session ${h.sessionId}`,
          h.kind === 'note'
            ? "the session's note"
            : (h.kind === 'bookmark' ? 'bookmark note on ' : '') +
              (h.file === MAIN ? `entry #${h.index}` : `entry #${h.index} of ${h.file}`),
          h.kind === 'entry' ? h.role : '',
          shortTime(h.timestamp),
        ].filter(Boolean);
        const title = h.session?.title ? oneLine(h.session.title, 100) : '(untitled)';
        return `${args.offset + i + 1}. ${title} (${where.join(', ')})\n   ${snippetText(h)}\n   ${h.link}`;
      });
      const head =
        `${r.totalExact ? r.total : `more than ${r.total}`} hits for "${args.query}"` +
        (r.hits.length ? `, ${args.offset + 1}–${args.offset + r.hits.length} shown` : '') +
        (r.ignored.length ? ` (not searched, no letters or digits: ${r.ignored.join(' ')})` : '') +
        (r.stale ? ' (the index is being rebuilt: some hits may be missing)' : '');
      const body = lines.length ? `\n\n${lines.join('\n\n')}` : '\nNo hits: try fewer or other words.';
      return answer(head + body + more(r.hits.length, args.offset, r.total, 'search'), { ...r, hits });
    }),
  );

  server.registerTool(
    'list_sessions',
    {
      title: 'List sessions',
      description:
        'The sessions the filters select, in the order asked (default: most recently active first), each with ' +
        'its id, title, project, last activity, main model, prompt count and cost. Use it to find a session ' +
        'by when or where it happened; then get_session or read_transcript with its id.',
      inputSchema: {
        ...filterShape,
        text: text('text', 1000)
          .optional()
          .describe("words each found in the session's title, project, working directory or id"),
        sort: z
          .enum(SESSION_SORT_KEYS, { error: `sort must be one of ${SESSION_SORT_KEYS.join(', ')}` })
          .default('lastActivity')
          .describe('order: lastActivity (default), startedAt, runtime, tokens or entries'),
        dir: z
          .enum(SORT_DIRECTIONS, { error: 'dir must be desc or asc' })
          .default('desc')
          .describe('desc (default: largest, newest first) or asc'),
        limit: count('limit', 1, 50, 20).describe('sessions to return (1–50, default 20)'),
        offset: offset('sessions'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(async (args) => {
      const r = await client.listSessions({
        ...filtersOf(args),
        text: args.text,
        sort: args.sort,
        dir: args.dir,
        limit: args.limit,
        offset: args.offset,
      });
      const head = r.sessions.length
        ? `${r.total} sessions, ${args.offset + 1}–${args.offset + r.sessions.length} shown (by ${args.sort}, ${args.dir}):`
        : `${r.total} sessions${r.total ? `; none at offset ${args.offset}` : ': none matches the filters'}.`;
      const lines = r.sessions.map((s) => sessionLine(s, appUrl));
      return answer(
        [head, ...lines].join('\n') + more(r.sessions.length, args.offset, r.total, 'list_sessions'),
        r as unknown as Record<string, unknown>,
      );
    }),
  );

  server.registerTool(
    'get_session',
    {
      title: 'Summarise a session',
      description:
        "One session's summary: title, project and working directory, models, host, git branch, start, last " +
        'activity, runtime and active time, counts (prompts, answers, tool calls and errors), tool calls by ' +
        `name, tokens and their cost, its files (the main transcript and subagents', first ${MAX_FILES}) and a ` +
        'link into the web UI.',
      inputSchema: idShape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(async (args) => {
      const s = (await resolveSession(client, args.id)) as Session & { files: Session['files'] };
      const files = s.files.slice(0, MAX_FILES);
      const structured: Record<string, unknown> = { ...s, files };
      if (s.files.length > MAX_FILES) structured.filesOmitted = s.files.length - MAX_FILES;
      const c = s.counts;
      const tools = Object.entries(s.toolCallsByName)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 15)
        .map(([n, k]) => `${n} ${k}`);
      const lines = [
        `${s.title ?? '(untitled)'}`,
        `id: ${s.id}`,
        `project: ${s.project ?? '—'} (${s.cwd ?? 'unknown directory'})${s.gitBranch ? `, branch ${s.gitBranch}` : ''}`,
        `host: ${s.hostname ?? '—'} · source: ${s.source} · status: ${s.status}`,
        `models: ${s.models.join(', ') || '—'}`,
        `started ${shortTime(s.startedAt) || '—'} · last active ${shortTime(s.lastActivity) || '—'} · ` +
          `runtime ${formatDuration(s.runtimeMs)} · active ${formatDuration(s.activeTimeMs)}`,
        `${c.prompts} prompts, ${c.assistantMessages} answers, ${c.toolCalls} tool calls (${c.toolErrors} failed), ` +
          `${c.entries} entries, ${c.compactions} compactions, ${s.subagents} subagents`,
        `tools: ${tools.join(', ') || 'none'}`,
        `tokens: ${tokensPhrase(s.tokens)}`,
        `cost: ${formatCost(s.cost)} (list prices, an estimate)`,
        `files (${s.files.length}):`,
        ...files.map(
          (f) =>
            `- ${f.name}: ${f.entries} entries, ${formatBytes(f.bytes)}${f.agentId ? `, agent ${f.agentId}` : ''}`,
        ),
        ...(s.files.length > MAX_FILES ? [`- … and ${s.files.length - MAX_FILES} more`] : []),
        `link: ${sessionLink(appUrl, s.id)}`,
        `Read it with read_transcript {"id": "${s.id}"}.`,
      ];
      return answer(lines.join('\n'), structured);
    }),
  );

  server.registerTool(
    'read_transcript',
    {
      title: 'Read a transcript',
      description:
        `A session's transcript as compact text, at most \`budget\` characters a page (default ${DEFAULT_BUDGET}). ` +
        'Each entry starts with a [#index · speaker · time] line; tool calls are one line each (→ name: input), ' +
        'tool results are cut to a line (← result: …), thinking is left out unless asked. role "you" gives only ' +
        'the prompts, "claude" only the answers (across all the session\'s files). When the answer ends before ' +
        'the transcript does it gives nextCursor: pass it as cursor to read on. Pages put together are the whole transcript.',
      inputSchema: {
        ...idShape,
        cursor: z
          .string()
          .max(40, { error: 'cursor must be a cursor this tool gave' })
          .optional()
          .describe(
            'where to start: the nextCursor of the previous page, or an entry number (e.g. "120", a search hit\'s index); ' +
              'leave it out to start at the beginning',
          ),
        role: z
          .enum(['both', 'you', 'claude'], { error: 'role must be both, you or claude' })
          .default('both')
          .describe('both (default: everything), you (your prompts only) or claude (its answers only)'),
        thinking: z
          .boolean({ error: 'thinking must be true or false' })
          .default(false)
          .describe("include the model's thinking (default false)"),
        file: text('file', 300)
          .optional()
          .describe(
            "a file of the session other than transcript.jsonl, e.g. a subagent's (get_session lists them)",
          ),
        budget: count('budget', MIN_BUDGET, MAX_BUDGET, DEFAULT_BUDGET).describe(
          `characters of this page (${MIN_BUDGET}–${MAX_BUDGET}, default ${DEFAULT_BUDGET})`,
        ),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(async (args) => {
      let start;
      try {
        start = parseCursor(args.cursor);
      } catch (err) {
        if (err instanceof CursorError) throw new ToolInputError(err.message);
        throw err;
      }
      if (args.role !== 'both' && args.file)
        throw new ToolInputError('role "you" and "claude" cover every file of the session: leave file out.');
      const problem = sessionIdProblem(args.id);
      if (problem)
        throw new ToolInputError(
          `"${args.id}" is not a session id (${problem}). Pass an id from search or list_sessions.`,
        );
      const file = args.file ?? MAIN;
      const role = args.role === 'you' ? 'user' : 'assistant';
      // Read at once with the id given: a prefix (or an unknown id) is resolved only on a 404,
      // so a page costs the model one request to the API, not two.
      let id = args.id;
      let resolved = false;
      const fetchBatch = async (o: number) => {
        if (args.role === 'both') {
          const p = await client.transcript(id, { file, offset: o, limit: BATCH });
          return { items: p.entries.map((e) => renderEntry(e, { thinking: args.thinking })), total: p.total };
        }
        const p = await client.turns(id, { role, offset: o, limit: BATCH });
        return { items: p.turns.map((t) => renderTurn(t)), total: p.total };
      };
      const load = async (o: number) => {
        try {
          return await fetchBatch(o);
        } catch (err) {
          if (resolved || !(err instanceof ApiError) || err.status !== 404) throw err;
          resolved = true;
          const s = await resolveSession(client, args.id);
          if (s.id === id) throw new ToolInputError(`${err.message}: get_session lists the session's files.`);
          id = s.id;
          return fetchBatch(o);
        }
      };
      const page = await readPage(load, (block) => block, start, args.budget);
      const nextCursor = page.next ? formatCursor(page.next) : null;
      const unit = args.role === 'both' ? 'entries' : 'turns';
      const head =
        `Session ${id} — ${args.role === 'both' ? file : args.role === 'you' ? 'your prompts' : "Claude's answers"}, ` +
        `from ${formatCursor(start)} of ${page.total} ${unit}:`;
      const tail = nextCursor
        ? `\n[page ends here: call read_transcript with cursor "${nextCursor}" to read on]`
        : '\n[end of transcript]';
      return answer(`${head}\n\n${page.text || '(nothing to show here)\n'}${tail}`, {
        sessionId: id,
        file: args.role === 'both' ? file : null,
        role: args.role,
        cursor: formatCursor(start),
        nextCursor,
        total: page.total,
        text: page.text,
      });
    }),
  );

  server.registerTool(
    'get_turns',
    {
      title: 'Prompts or answers across sessions',
      description:
        'Your prompts (role "you", default) or Claude\'s answers (role "claude") across every session the filters ' +
        "select, newest first; from/to bound the turns' own times. Each gives the session id and title, the " +
        `entry index, time and text (cut to ${TURN_CHARS} characters; at most ${TURNS_BUDGET} in all, then nextOffset).`,
      inputSchema: {
        ...filterShape,
        role: z
          .enum(['you', 'claude'], { error: 'role must be you or claude' })
          .default('you')
          .describe('you (default: your prompts) or claude (its answers)'),
        limit: count('limit', 1, 100, 20).describe('turns to return (1–100, default 20)'),
        offset: offset('turns'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(async (args) => {
      const r = await client.allTurns({
        ...filtersOf(args),
        role: args.role === 'you' ? 'user' : 'assistant',
        limit: args.limit,
        offset: args.offset,
      });
      const turns: typeof r.turns = [];
      let used = 0;
      for (const t of r.turns) {
        const cut = { ...t, text: trimText(t.text, TURN_CHARS) };
        if (turns.length > 0 && used + cut.text.length > TURNS_BUDGET) break;
        used += cut.text.length;
        turns.push(cut);
      }
      const next = args.offset + turns.length;
      const nextOffset = next < r.total ? next : null;
      const lines = turns.map((t) => {
        const title = t.session?.title ? oneLine(t.session.title, 80) : '(untitled)';
        return `[${shortTime(t.timestamp)} · ${title} · session ${t.sessionId} #${t.index}]\n${plain(t.text).trim()}`;
      });
      const head = `${r.total} ${args.role === 'you' ? 'prompts' : 'answers'}${
        turns.length ? `, ${args.offset + 1}–${next} shown (newest first)` : ''
      }:`;
      const tail = nextOffset === null ? '' : `\n\nMore: call get_turns again with offset ${nextOffset}.`;
      return answer(`${head}\n\n${lines.join('\n\n')}${tail}`, {
        total: r.total,
        offset: args.offset,
        limit: args.limit,
        nextOffset,
        turns,
      });
    }),
  );

  server.registerTool(
    'totals',
    {
      title: 'Tokens and cost',
      description:
        'The tokens the selected sessions used and their cost at list prices (an estimate, not the bill), ' +
        'in all and by model. With no filter: the whole history. E.g. what a project cost in August: ' +
        '{"project": "api", "from": "2025-08-01", "to": "2025-08-31"}.',
      inputSchema: filterShape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(async (args) => {
      const t = await client.totals(filtersOf(args));
      const lines = [
        `${t.sessions} sessions · ${formatTotalsCost(t)} · tokens: ${tokensPhrase(t.tokens)}`,
        ...t.byModel.map(
          (m) =>
            `- ${modelLabel(m.model)}: ${m.sessions} sessions, ${modelCost(m.usd)}, ${tokensPhrase(m.tokens)}`,
        ),
      ];
      return answer(lines.join('\n'), t as unknown as Record<string, unknown>);
    }),
  );

  server.registerTool(
    'activity',
    {
      title: 'Activity per day',
      description:
        'Sessions, active time and entries per UTC day over a range (from/to, default the last 365 days; ' +
        'only days with activity are listed), for the sessions the filters select.',
      inputSchema: filterShape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(async (args) => {
      const a = await client.activity(filtersOf(args));
      // Each day's sessions are left out: list_sessions with that day as from and to gives them.
      const days = a.days.map((d) => ({
        day: d.day,
        sessions: d.sessions,
        activeMs: d.activeMs,
        entries: d.entries,
      }));
      const active = days.reduce((n, d) => n + d.activeMs, 0);
      const lines = [
        `${a.from.slice(0, 10)} to ${a.to.slice(0, 10)}: ${days.length} active days, ${formatDuration(active)} active`,
        ...days.map(
          (d) =>
            `- ${d.day}: ${d.sessions} sessions, ${formatDuration(d.activeMs)} active, ${d.entries} entries`,
        ),
      ];
      return answer(lines.join('\n'), { from: a.from, to: a.to, days });
    }),
  );

  registerSessionResource(server, options);
  return server;
}

// --- the session resource --------------------------------------------------------------------

/**
 * `transcripts://session/<id>`: the session as Markdown (the API's own Markdown, as the session
 * page's link gives it), DEFAULT_BUDGET characters a page; `?cursor=<n>` continues at character n.
 */
function registerSessionResource(server: McpServer, options: McpToolsOptions): void {
  const { client } = options;
  server.registerResource(
    'session',
    new ResourceTemplate('transcripts://session/{id}', {
      list: async () => {
        const r = await client.listSessions({ limit: 50 });
        return {
          resources: r.sessions.map((s) => ({
            uri: `transcripts://session/${s.id}`,
            name: s.title ? oneLine(s.title, 100) : s.id,
            mimeType: 'text/markdown',
            description: `${s.project ?? 'no project'}, last active ${shortTime(s.lastActivity) || '—'}`,
          })),
        };
      },
    }),
    {
      title: 'A session as Markdown',
      description:
        `A session's header and conversation as Markdown, ${DEFAULT_BUDGET} characters a page; a page that ends ` +
        'early names the URI of the next (…?cursor=n). The 50 most recent sessions are listed; any id works.',
      mimeType: 'text/markdown',
    },
    async (uri) => {
      // The template's {id} also takes the query: both are read from the URI itself.
      const ref = decodeURIComponent(uri.pathname.replace(/^\//, ''));
      const cursorText = uri.searchParams.get('cursor') ?? '0';
      if (!/^\d{1,12}$/.test(cursorText))
        throw new Error(`cursor "${cursorText}" is not a character position: use the URI a page names.`);
      const from = Number(cursorText);
      const s = await resolveSession(client, ref);
      const { text, more } = await markdownSlice(client, s.id, from, DEFAULT_BUDGET);
      const next = more ? `transcripts://session/${s.id}?cursor=${from + text.length}` : null;
      return {
        contents: [
          {
            uri: uri.href,
            mimeType: 'text/markdown',
            text: next ? `${text}\n\n<!-- continued at ${next} -->\n` : text,
          },
        ],
      };
    },
  );
}

/** Characters [from, from + budget) of the session's Markdown, read only as far as needed. */
async function markdownSlice(
  client: ApiClient,
  id: string,
  from: number,
  budget: number,
): Promise<{ text: string; more: boolean }> {
  const res = await client.fetchRaw('GET', `/api/sessions/${encodeURIComponent(id)}/markdown`, {
    headers: { accept: 'text/markdown' },
  });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  let done = false;
  while (text.length <= from + budget) {
    const r = await reader.read();
    if (r.done) {
      text += decoder.decode();
      done = true;
      break;
    }
    text += decoder.decode(r.value, { stream: true });
  }
  if (!done) await reader.cancel().catch(() => undefined);
  let end = Math.min(text.length, from + budget);
  const code = text.charCodeAt(end - 1);
  if (end < text.length && code >= 0xd800 && code <= 0xdbff) end--;
  return { text: text.slice(from, end), more: end < text.length };
}
