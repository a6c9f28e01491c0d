/**
 * Session routes: the list (filters, range overlap, paging, newest first or sorted), one session, its
 * transcript entries, turns, one entry's raw JSON line, its events and a Markdown rendering.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { type ProjectedEntry } from '../../core/documents.js';
import { MAIN_TRANSCRIPT } from '../../core/doc-ids.js';
import { MAX_COUNT, MAX_OFFSET } from '../../core/doc-limits.js';
import type { ApiDeps } from '../deps.js';
import { clampLimit, DEFAULT_LIMIT, MAX_LIMIT } from '../deps.js';
import { badRequest, notFound } from '../http-error.js';
import { createRouter } from '../router.js';
import {
  errorResponses,
  listFilter,
  listFilterQueryShape,
  objectNameSchema,
  pageQueryShape,
  rangeProblem,
  sessionIdParam,
  boundedUintString,
} from '../schemas/common.js';
import {
  eventsSchema,
  sessionDetailSchema,
  sessionListSchema,
  sessionSortQueryShape,
  transcriptPageSchema,
  turnsSchema,
} from '../schemas/sessions.js';
import { DEFAULT_SESSION_SORT } from '../../store/contract.js';
import { sessionReconciliation, sourceDeletion } from '../session-live.js';
import { toSession } from '../session-view.js';
import { markdownPieces } from '../markdown.js';
import { streamedResponse } from '../streamed-response.js';
import { readRawLine } from '../raw-line.js';
import { annotationSummaries } from '../annotation-summaries.js';

const listRoute = createRoute({
  method: 'get',
  path: '/',
  summary: 'List sessions, newest first or as sorted',
  description:
    'Exact-match filters combine with AND; `from`/`to` select sessions whose activity overlaps the range; ' +
    '`text` finds words in titles, projects, directories and ids; `sort` and `dir` choose the order.',
  tags: ['sessions'],
  request: {
    query: z
      .object({
        ...listFilterQueryShape,
        ...sessionSortQueryShape,
        ...pageQueryShape({ max: MAX_LIMIT.sessions, default: 'userSettings.sessionListPageSize' }),
      })
      .strict(),
  },
  responses: {
    200: {
      description: 'A page of sessions',
      content: { 'application/json': { schema: sessionListSchema } },
    },
    ...errorResponses(400, 503),
  },
});

const idParams = z.object({ id: sessionIdParam });

const getRoute = createRoute({
  method: 'get',
  path: '/{id}',
  summary: 'One session with every summary field',
  description:
    'Also, unlike the list: `reconciliation` (hook events compared with the transcript) and ' +
    '`sourceDeleted` (the transcript was deleted from the projects directory; the session is kept).',
  tags: ['sessions'],
  request: { params: idParams },
  responses: {
    200: { description: 'The session', content: { 'application/json': { schema: sessionDetailSchema } } },
    ...errorResponses(400, 404, 503),
  },
});

const fileQuery = objectNameSchema.optional().openapi({
  param: { name: 'file', in: 'query' },
  description: `object name within the session (default ${MAIN_TRANSCRIPT})`,
});

const transcriptRoute = createRoute({
  method: 'get',
  path: '/{id}/transcript',
  summary: 'Projected transcript entries, paged',
  tags: ['sessions'],
  request: {
    params: idParams,
    query: z
      .object({
        file: fileQuery,
        ...pageQueryShape({ max: MAX_LIMIT.transcript, default: 'userSettings.transcriptPageSize' }),
      })
      .strict(),
  },
  responses: {
    200: {
      description: 'A page of entries',
      content: { 'application/json': { schema: transcriptPageSchema } },
    },
    ...errorResponses(400, 404, 503),
  },
});

const turnsRoute = createRoute({
  method: 'get',
  path: '/{id}/turns',
  summary: 'You / Claude turns (empty without full-content chunks)',
  tags: ['sessions'],
  request: {
    params: idParams,
    query: z
      .object({
        role: z
          .enum(['user', 'assistant'])
          .optional()
          .openapi({ param: { name: 'role', in: 'query' }, description: 'one side; both when absent' }),
        ...pageQueryShape({ max: MAX_LIMIT.turns, default: 'userSettings.transcriptPageSize' }),
      })
      .strict(),
  },
  responses: {
    200: { description: 'Turns', content: { 'application/json': { schema: turnsSchema } } },
    ...errorResponses(400, 404, 503),
  },
});

const rawRoute = createRoute({
  method: 'get',
  path: '/{id}/raw/{index}',
  summary: "One entry's raw JSON line, byte for byte",
  description:
    'Served as application/json. A line that is not valid JSON is returned as-is with the header ' +
    '`X-Transcript-Malformed: true`.',
  tags: ['sessions'],
  request: {
    params: z.object({
      id: sessionIdParam,
      index: boundedUintString(MAX_COUNT).openapi({
        param: { name: 'index', in: 'path' },
        type: 'integer',
        minimum: 0,
        maximum: MAX_COUNT,
      }),
    }),
    query: z.object({ file: fileQuery }).strict(),
  },
  responses: {
    200: { description: 'The raw line', content: { 'application/json': { schema: z.unknown() } } },
    ...errorResponses(400, 404, 503),
  },
});

const eventsRoute = createRoute({
  method: 'get',
  path: '/{id}/events',
  summary: 'Hook events of a session, in time order',
  tags: ['sessions'],
  request: {
    params: idParams,
    query: z.object(pageQueryShape({ max: MAX_LIMIT.events, default: DEFAULT_LIMIT.events })).strict(),
  },
  responses: {
    200: { description: 'Events', content: { 'application/json': { schema: eventsSchema } } },
    ...errorResponses(400, 404, 503),
  },
});

const markdownRoute = createRoute({
  method: 'get',
  path: '/{id}/markdown',
  summary: 'The conversation as Markdown (You / Claude turns, tool calls summarised)',
  tags: ['sessions'],
  request: { params: idParams },
  responses: {
    200: { description: 'Markdown', content: { 'text/markdown': { schema: z.string() } } },
    ...errorResponses(400, 404, 503),
  },
});

export function sessionRoutes(deps: ApiDeps) {
  const app = createRouter();
  const { store, settings } = deps;

  async function requireSession(id: string) {
    const row = await store.views.getSession(id);
    if (!row) throw notFound(`session "${id}" not found`);
    return row;
  }

  /**
   * The session's row and `read` of it, asked together: on PostgreSQL that is one round trip of
   * waiting rather than two. A missing session is a 404 whatever `read` did.
   */
  async function withSession<T>(id: string, read: () => Promise<T>) {
    const [row, result] = await Promise.allSettled([requireSession(id), read()]);
    if (row.status === 'rejected') throw row.reason;
    if (result.status === 'rejected') throw result.reason;
    return { row: row.value, result: result.value };
  }

  function requireFile(row: Awaited<ReturnType<typeof requireSession>>, file: string) {
    const files = row.summary.files ?? [];
    if (files.length > 0 && !files.some((f) => f.name === file))
      throw notFound(`session "${row.summary.sessionId}" has no transcript file "${file}"`);
  }

  app.openapi(listRoute, async (c) => {
    const q = c.req.valid('query');
    const problem = rangeProblem(q.from, q.to);
    if (problem) throw badRequest(problem);
    const limit = clampLimit(q.limit, settings.userSettings.sessionListPageSize, MAX_LIMIT.sessions);
    const offset = q.offset ?? 0;
    const sort = { by: q.sort ?? DEFAULT_SESSION_SORT.by, dir: q.dir ?? DEFAULT_SESSION_SORT.dir };
    const { total, rows } = await store.views.listSessions(listFilter(q), { limit, offset }, sort);
    const now = deps.now();
    const annotations = await annotationSummaries(
      store,
      rows.map((r) => r.summary.sessionId),
    );
    return c.json(
      { total, offset, limit, sessions: rows.map((r) => toSession(r, settings, now)), annotations },
      200,
    );
  });

  app.openapi(getRoute, async (c) => {
    const { id } = c.req.valid('param');
    const { row, result: sourceDeleted } = await withSession(id, () => sourceDeletion(store, id));
    const reconciliation = await sessionReconciliation(store, row);
    const deleted = sourceDeleted
      ? { detectedAt: sourceDeleted.detectedAt, files: sourceDeleted.files }
      : null;
    return c.json({ ...toSession(row, settings, deps.now()), reconciliation, sourceDeleted: deleted }, 200);
  });

  app.openapi(transcriptRoute, async (c) => {
    const { id } = c.req.valid('param');
    const q = c.req.valid('query');
    const file = q.file ?? MAIN_TRANSCRIPT;
    const limit = clampLimit(q.limit, settings.userSettings.transcriptPageSize, MAX_LIMIT.transcript);
    const offset = q.offset ?? 0;
    const { row, result: page } = await withSession(id, () =>
      store.views.transcriptPage(id, file, { limit, offset }),
    );
    requireFile(row, file);
    return c.json({ sessionId: id, file, total: page.total, offset, limit, entries: page.entries }, 200);
  });

  app.openapi(turnsRoute, async (c) => {
    const { id } = c.req.valid('param');
    const q = c.req.valid('query');
    const limit = clampLimit(q.limit, settings.userSettings.transcriptPageSize, MAX_LIMIT.turns);
    const offset = q.offset ?? 0;
    const { result: page } = await withSession(id, () => store.views.turns(id, q.role, { limit, offset }));
    return c.json({ total: page.total, offset, limit, turns: page.turns }, 200);
  });

  app.openapi(rawRoute, async (c) => {
    const { id, index } = c.req.valid('param');
    const file = c.req.valid('query').file ?? MAIN_TRANSCRIPT;
    const { row, result: entry } = await withSession(id, () => findEntry(id, file, index));
    requireFile(row, file);
    if (!entry) throw notFound(`session "${id}" has no entry ${index} in ${file}`);
    const raw = await readRawLine(store, `${id}/${file}`, entry);
    const headers: Record<string, string> = {
      'content-type': 'application/json; charset=utf-8',
      'x-transcript-entry': String(entry.index),
      'x-transcript-bytes': `${entry.byteStart}-${entry.byteEnd}`,
    };
    if (raw.malformed) headers['x-transcript-malformed'] = 'true';
    return new Response(new Uint8Array(raw.bytes), { status: 200, headers }) as never;
  });

  /** The entry with `index` in a file: the page at that offset, or a short search around it. */
  async function findEntry(id: string, file: string, index: number): Promise<ProjectedEntry | null> {
    // No page starts past MAX_OFFSET; the walk below still finds an index beyond it.
    const page = await store.views.transcriptPage(id, file, {
      offset: Math.min(index, MAX_OFFSET),
      limit: 1,
    });
    const direct = page.entries[0];
    if (direct && direct.index === index) return direct;
    if (page.total === 0) return null;
    // Indexes are per session; a file's entries may start later. Walk the file's pages.
    const step = 1000;
    for (let offset = 0; offset < page.total; offset += step) {
      const p = await store.views.transcriptPage(id, file, { offset, limit: step });
      const hit = p.entries.find((e) => e.index === index);
      if (hit) return hit;
      const last = p.entries[p.entries.length - 1];
      if (!last || last.index > index) break;
    }
    return null;
  }

  app.openapi(eventsRoute, async (c) => {
    const { id } = c.req.valid('param');
    const q = c.req.valid('query');
    const limit = clampLimit(q.limit, DEFAULT_LIMIT.events, MAX_LIMIT.events);
    const offset = q.offset ?? 0;
    const { result: page } = await withSession(id, () => store.views.events(id, { limit, offset }));
    return c.json({ total: page.total, offset, limit, events: page.events }, 200);
  });

  app.openapi(markdownRoute, async (c) => {
    const { id } = c.req.valid('param');
    const row = await requireSession(id);
    // Streamed a page of the transcript at a time; the header and the first page come before the
    // status, so a transcript view that is not built is still an HTTP error.
    const streamed = await streamedResponse(c, markdownPieces(store, toSession(row, settings, deps.now())), {
      headers: {
        'content-type': 'text/markdown; charset=utf-8',
        'content-disposition': `inline; filename="${id}.md"`,
      },
      prefetch: 2,
    });
    return streamed as never;
  });

  return app;
}
