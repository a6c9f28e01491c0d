/**
 * The turns across sessions: what was asked and answered in every session the filters select,
 * newest first, each with its session's context, for reading a history by its conversation
 * rather than by session (the UI's Turns page, `transcripts turns`).
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { ApiDeps } from '../deps.js';
import { clampLimit, DEFAULT_LIMIT, MAX_LIMIT } from '../deps.js';
import { badRequest } from '../http-error.js';
import { createRouter } from '../router.js';
import { sessionContexts } from '../session-context.js';
import {
  errorResponses,
  filterQueryShape,
  isoParam,
  pageQueryShape,
  rangeProblem,
  sessionFilter,
} from '../schemas/common.js';
import { turnsAcrossSchema } from '../schemas/sessions.js';

const turnsRoute = createRoute({
  method: 'get',
  path: '/',
  summary: 'Turns across sessions, newest first',
  description:
    'What the person typed (`role=user`) and what Claude said (`role=assistant`), or both, in every ' +
    'session the filters select, newest first (a turn whose timestamp is missing or not a time last). `from` and `to` bound ' +
    "the turns' own timestamps; the other filters select sessions as on `GET /api/sessions`. Each " +
    'turn names its session and entry index (open `/api/sessions/{sessionId}/transcript` at it) and ' +
    "carries its session's title, project and last activity. Empty for sessions without full-content chunks.",
  tags: ['sessions'],
  request: {
    query: z
      .object({
        role: z
          .enum(['user', 'assistant'])
          .optional()
          .openapi({ param: { name: 'role', in: 'query' }, description: 'one side; both when absent' }),
        ...filterQueryShape,
        from: isoParam('from', 'turns at or after this time; ISO date or time'),
        to: isoParam('to', 'turns at or before this time (a bare date means the end of that UTC day)'),
        ...pageQueryShape({ max: MAX_LIMIT.turns, default: DEFAULT_LIMIT.turns }),
      })
      .strict(),
  },
  responses: {
    200: { description: 'Turns', content: { 'application/json': { schema: turnsAcrossSchema } } },
    ...errorResponses(400, 503),
  },
});

export function turnsRoutes(deps: ApiDeps) {
  const app = createRouter();
  const { store } = deps;

  app.openapi(turnsRoute, async (c) => {
    const q = c.req.valid('query');
    const problem = rangeProblem(q.from, q.to);
    if (problem) throw badRequest(problem);
    const limit = clampLimit(q.limit, DEFAULT_LIMIT.turns, MAX_LIMIT.turns);
    const offset = q.offset ?? 0;
    const found = await store.views.allTurns({ ...sessionFilter(q), role: q.role, limit, offset });
    const sessions = await sessionContexts(
      store.views,
      found.turns.map((t) => t.sessionId),
    );
    return c.json(
      {
        total: found.total,
        offset,
        limit,
        turns: found.turns.map((t) => ({ ...t, session: sessions.get(t.sessionId) ?? null })),
      },
      200,
    );
  });

  return app;
}
