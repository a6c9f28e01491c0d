/**
 * `GET /api/totals`: what the sessions a filter selects used, in tokens by model, and what that
 * cost at the configured prices (core/pricing.ts) — the list's filters, summed rather than paged.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { splitCost } from '../../core/pricing.js';
import { addUsage, zeroUsage } from '../../core/usage.js';
import type { TokenUsage } from '../../core/documents.js';
import type { ApiDeps } from '../deps.js';
import { badRequest } from '../http-error.js';
import { createRouter } from '../router.js';
import { errorResponses, listFilter, listFilterQueryShape, rangeProblem } from '../schemas/common.js';
import { totalsSchema } from '../schemas/totals.js';

const totalsRoute = createRoute({
  method: 'get',
  path: '/totals',
  summary: 'Tokens and their cost over the sessions the filters select',
  description:
    'The filters of `GET /api/sessions`; every selected session counts whole (a `model` filter selects the ' +
    'sessions that used the model, and their other models count too).',
  tags: ['sessions'],
  request: { query: z.object(listFilterQueryShape).strict() },
  responses: {
    200: { description: 'Totals', content: { 'application/json': { schema: totalsSchema } } },
    ...errorResponses(400, 503),
  },
});

export function totalsRoutes(deps: ApiDeps) {
  const app = createRouter();

  app.openapi(totalsRoute, async (c) => {
    const q = c.req.valid('query');
    const problem = rangeProblem(q.from, q.to);
    if (problem) throw badRequest(problem);
    const totals = await deps.store.views.tokenTotals(listFilter(q));
    const prices = deps.settings.prices;
    const tokens = zeroUsage();
    for (const m of totals.byModel) addUsage(tokens, m.tokens);
    const named = totals.byModel.flatMap((m) =>
      m.model === null ? [] : [[m.model, m.tokens] as [string, TokenUsage]],
    );
    const cost = splitCost(named, prices, named.length < totals.byModel.length);
    // Each model priced once, by splitCost; the unsplit tokens have no price.
    const byModel = totals.byModel.map((m) => ({
      ...m,
      usd: m.model === null ? null : (cost.byModel[m.model] ?? null),
    }));
    return c.json(
      { sessions: totals.sessions, tokens, usd: cost.usd, complete: cost.complete, byModel },
      200,
    );
  });

  return app;
}
