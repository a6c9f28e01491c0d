/**
 * Search, the daily activity rollup behind the calendar, and the facets behind the filter pickers.
 * Search answers `enabled: false` with a reason (never an error) while the full-text view is
 * not materialised, so the UI can show a hint instead of failing.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { SEARCH_STALE, ViewMissingError, type DayActivity } from '../../store/contract.js';
import { bridgeGaps } from '../../core/active-time.js';
import { ignoredTerms } from '../../store/views-common/search-terms.js';
import { setImmediate } from 'node:timers/promises';
import {
  clipSegments,
  daySlices,
  daysInRange,
  rangeCapMessage,
  splitByDay,
  utcDay,
} from '../../store/views-common/split-by-day.js';
import { MAX_RANGE_DAYS } from '../../core/doc-limits.js';
import type { ApiDeps } from '../deps.js';
import { clampLimit, DEFAULT_LIMIT, MAX_LIMIT } from '../deps.js';
import { badRequest } from '../http-error.js';
import { hitKinds } from '../hit-kinds.js';
import { sessionContexts } from '../session-context.js';
import { createRouter } from '../router.js';
import {
  errorResponses,
  filterQueryShape,
  isoBound,
  listFilter,
  listFilterQueryShape,
  sessionFilter,
  pageQueryShape,
  rangeProblem,
} from '../schemas/common.js';
import { activitySchema, facetAttributes, facetsSchema, searchResultSchema } from '../schemas/search.js';

const searchRoute = createRoute({
  method: 'get',
  path: '/search',
  summary: "Full-text search over transcript entries and people's notes",
  description:
    'Words must all match; "quoted phrases" match exactly; a trailing * matches a prefix (`deploy*`). ' +
    "Sessions' notes and bookmarks' notes are searched with the entries and ranked with them (`kind`). " +
    'The session filters apply. Each hit names its session, file and entry index, with a snippet whose ' +
    '`mark` segments matched.',
  tags: ['search'],
  request: {
    query: z
      .object({
        q: z
          .string({ error: 'is required' })
          .trim()
          .min(1, { error: 'must not be empty' })
          .max(1000, { error: 'must be at most 1000 characters' })
          .openapi({ param: { name: 'q', in: 'query' }, example: '"connection refused" deploy*' }),
        ...filterQueryShape,
        ...pageQueryShape({ max: MAX_LIMIT.search, default: DEFAULT_LIMIT.search }),
      })
      .strict(),
  },
  responses: {
    200: { description: 'Hits', content: { 'application/json': { schema: searchResultSchema } } },
    ...errorResponses(400),
  },
});

const activityRoute = createRoute({
  method: 'get',
  path: '/activity',
  summary: 'Daily activity rollup (the calendar)',
  description:
    'One row per UTC day with activity in [from, to]; defaults to the last 365 days. Filters apply. ' +
    `A range of more than ${MAX_RANGE_DAYS} days is refused with 400.`,
  tags: ['sessions'],
  request: { query: z.object(filterQueryShape).strict() },
  responses: {
    200: { description: 'Days', content: { 'application/json': { schema: activitySchema } } },
    ...errorResponses(400, 503),
  },
});

const facetsRoute = createRoute({
  method: 'get',
  path: '/facets/{attribute}',
  summary: 'Distinct values of a filter attribute with session counts',
  description:
    'Each value with how many sessions have it, most first. The filters of `GET /api/sessions` apply, ' +
    "except the attribute's own: under `hostname=laptop&model=x`, `/api/facets/model` counts every model " +
    "of laptop's sessions, so a picker still offers the other values. A session with several models " +
    'counts once for each.',
  tags: ['sessions'],
  request: {
    params: z.object({
      attribute: z.enum(facetAttributes).openapi({ param: { name: 'attribute', in: 'path' } }),
    }),
    query: z.object(listFilterQueryShape).strict(),
  },
  responses: {
    200: { description: 'Values', content: { 'application/json': { schema: facetsSchema } } },
    ...errorResponses(400, 503),
  },
});

const DAY = 86_400_000;
interface ActivityDayOut {
  day: string;
  sessions: number;
  activeMs: number;
  entries: number;
  items: Array<{ sessionId: string; project: string | null; activeMs: number; entries: number }>;
}

/** Days of the calendar read per statement (see the activity route). */
const ACTIVITY_SLICE_DAYS = 31;

export function searchRoutes(deps: ApiDeps) {
  const app = createRouter();
  const { store } = deps;

  app.openapi(searchRoute, async (c) => {
    const q = c.req.valid('query');
    const problem = rangeProblem(q.from, q.to);
    if (problem) throw badRequest(problem);
    const limit = clampLimit(q.limit, DEFAULT_LIMIT.search, MAX_LIMIT.search);
    const offset = q.offset ?? 0;
    // Said on every answer, so a query of only 🎉 is not mistaken for a history without any.
    const ignored = ignoredTerms(q.q);
    const off = (reason: string) =>
      c.json(
        {
          enabled: false,
          reason,
          q: q.q,
          ignored,
          total: 0,
          totalExact: true,
          stale: false,
          offset,
          limit,
          hits: [],
        },
        200,
      );
    const stale = store.docs.getLocal(SEARCH_STALE).then(
      (v) => v !== null,
      () => false,
    );
    // No separate look at which views exist (a round trip on PostgreSQL): the search itself says
    // when its view is missing.
    let result;
    try {
      result = await store.views.search({ ...sessionFilter(q), q: q.q, limit, offset });
    } catch (err) {
      if (err instanceof ViewMissingError)
        return off(
          err.view === 'full_text'
            ? 'search is off: the full-text index is not built (run `transcripts migrate up`)'
            : `search is off: ${err.message}`,
        );
      throw err;
    }
    const [sessions, kinds] = await Promise.all([
      sessionContexts(
        store.views,
        result.hits.map((h) => h.sessionId),
      ),
      hitKinds(store.views, result.hits),
    ]);
    return c.json(
      {
        enabled: true,
        q: q.q,
        ignored,
        total: result.total,
        totalExact: result.totalExact,
        stale: await stale,
        offset,
        limit,
        hits: result.hits.map((h, i) => ({
          ...h,
          entryKind: kinds[i]!,
          session: sessions.get(h.sessionId) ?? null,
        })),
      },
      200,
    );
  });

  app.openapi(activityRoute, async (c) => {
    const q = c.req.valid('query');
    const problem = rangeProblem(q.from, q.to);
    if (problem) throw badRequest(problem);
    const to = isoBound(q.to, true) ?? new Date(deps.now()).toISOString();
    const from = isoBound(q.from, false) ?? new Date(Date.parse(to) - 365 * DAY).toISOString();
    if (Date.parse(from) > Date.parse(to)) throw badRequest('query parameter from: must not be after to');
    const span = daysInRange(utcDay(Date.parse(from)), utcDay(Date.parse(to)));
    if (span > MAX_RANGE_DAYS) throw badRequest(`query parameters from and to: ${rangeCapMessage(span)}`);
    // The range is the call's own; the filter's other conditions apply as to the list.
    const { from: _from, to: _to, ...filter } = sessionFilter(q);
    // Read a month at a time, the event loop free in between: a calendar of years over a large
    // history is tens of thousands of rows, which read and shaped at once held every other
    // request for most of a second (issue 42).
    const threshold = deps.settings.system.sessions.idleThresholdMs;
    const out: ActivityDayOut[] = [];
    const slices = daySlices(utcDay(Date.parse(from)), utcDay(Date.parse(to)), ACTIVITY_SLICE_DAYS);
    for (const [i, slice] of slices.entries()) {
      if (i > 0) await setImmediate();
      const rows = await store.views.dailyActivity(slice.from, slice.to, filter);
      // Each day's active time at the idle threshold, as a session's own is derived (session-view.ts):
      // the gaps it counts are filled in before the activity is split at midnight, within the slice.
      const lo = Date.parse(slice.from);
      const hi = Date.parse(slice.to) + DAY - 1;
      const split = new Map<string, Map<string, number>>();
      const activeOn = (r: DayActivity) => {
        let days = split.get(r.sessionId);
        if (!days)
          split.set(
            r.sessionId,
            (days = splitByDay(clipSegments(bridgeGaps(r.activity, threshold), lo, hi))),
          );
        return days.get(r.day) ?? r.activeMs;
      };
      const days = new Map<string, ActivityDayOut>();
      for (const r of rows) {
        let d = days.get(r.day);
        if (!d) days.set(r.day, (d = { day: r.day, sessions: 0, activeMs: 0, entries: 0, items: [] }));
        const activeMs = activeOn(r);
        d.sessions++;
        d.activeMs += activeMs;
        d.entries += r.entries;
        d.items.push({ sessionId: r.sessionId, project: r.project, activeMs, entries: r.entries });
      }
      out.push(...[...days.values()].sort((x, y) => x.day.localeCompare(y.day)));
    }
    return c.json({ from, to, days: out }, 200);
  });

  app.openapi(facetsRoute, async (c) => {
    const { attribute } = c.req.valid('param');
    const q = c.req.valid('query');
    const problem = rangeProblem(q.from, q.to);
    if (problem) throw badRequest(problem);
    return c.json({ attribute, values: await store.views.facets(attribute, listFilter(q)) }, 200);
  });

  return app;
}
