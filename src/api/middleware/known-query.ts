/**
 * Unknown query parameters are refused (docs/api.md: a typo never silently returns everything).
 * One check for every `/api` route, against the query parameters the route declares in the
 * OpenAPI description: what the description says a route takes is exactly what it accepts, so a
 * route added later cannot forget the rule, and one handled by hand (`registerPath` + `app.get`)
 * is held to what it documents. A route the description leaves out (the blueprint, the description
 * itself and its viewer) takes none.
 *
 * It runs before the route's own validation and handler, so a refused request does nothing (a
 * `POST /api/ingest/reindex?force=1` does not reindex) and its body is never read.
 */
import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { badRequest } from '../http-error.js';

/** The parts of an OpenAPI document this reads. */
export interface DescribedPaths {
  paths?: object;
}

/** `METHOD /path/{param}` → the query parameter names that operation declares. */
export type DeclaredQueries = ReadonlyMap<string, ReadonlySet<string>>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** A Hono route path (`/api/sessions/:id`, `/objects/:sessionId/:name{.+}`) in OpenAPI form (`{id}`). */
export function openApiPath(honoPath: string): string {
  return honoPath.replace(/:([A-Za-z0-9_]+)(?:\{(?:[^{}]|\{[^{}]*\})+\})?/g, '{$1}');
}

/** Every operation of the document with the query parameters it declares. */
export function declaredQueries(doc: DescribedPaths): DeclaredQueries {
  const out = new Map<string, Set<string>>();
  const paths = (doc.paths ?? {}) as Record<string, Record<string, unknown> | undefined>;
  for (const [path, item] of Object.entries(paths)) {
    const shared = (item?.parameters as Array<{ in?: string; name?: string }> | undefined) ?? [];
    for (const method of METHODS) {
      const op = item?.[method] as { parameters?: Array<{ in?: string; name?: string }> } | undefined;
      if (!op) continue;
      const names = new Set<string>();
      for (const p of [...shared, ...(op.parameters ?? [])])
        if (p.in === 'query' && p.name) names.add(p.name);
      out.set(`${method.toUpperCase()} ${path}`, names);
    }
  }
  return out;
}

/**
 * The middleware; mount on `/api/*` after authentication. `declared` is called on the first
 * request (the description is complete only once every route is registered).
 */
export function knownQueryOnly(declared: () => DeclaredQueries): MiddlewareHandler {
  return async function knownQueryMiddleware(c, next) {
    const keys = Object.keys(c.req.queries());
    if (keys.length > 0) {
      // The route that will answer: the first matched one that is not middleware (`use` is ALL).
      // None (an unknown path or method) is left to the 404/405 handler.
      const route = matchedRoutes(c).find((r) => r.method !== 'ALL');
      if (route) {
        const takes = declared().get(`${route.method.toUpperCase()} ${openApiPath(route.path)}`) ?? new Set();
        const unknown = keys.filter((k) => !takes.has(k));
        if (unknown.length > 0)
          throw badRequest(
            `${unknown.map((k) => `query parameter ${k}: unknown parameter`).join('; ')} ` +
              `(${c.req.method} ${c.req.path} takes ${takes.size ? [...takes].join(', ') : 'no query parameters'})`,
          );
      }
    }
    await next();
  };
}
