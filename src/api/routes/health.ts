/**
 * `GET /api/health`: store state, counts, schema version, pending migrations, import progress,
 * which transcript trees are watched.
 */
import { createRoute } from '@hono/zod-openapi';
import { createMigrator } from '../../migrations/runner.js';
import { SEARCH_STALE } from '../../store/contract.js';
import type { ApiDeps } from '../deps.js';
import { createRouter } from '../router.js';
import { healthSchema } from '../schemas/health.js';

const healthRoute = createRoute({
  method: 'get',
  path: '/',
  summary: 'Is the service well, and what does it hold',
  description:
    '`status` is `degraded` while migrations are pending or the store cannot be read (then `store.error` ' +
    'says why, and `counts` and `schema` are null). `watch` says which transcript trees the server watches ' +
    '(`enabled: false` with `serve --no-watch`).',
  tags: ['health'],
  responses: { 200: { description: 'Health', content: { 'application/json': { schema: healthSchema } } } },
});

export function healthRoutes(deps: ApiDeps) {
  const app = createRouter();
  const migrator = createMigrator(deps.store);

  app.openapi(healthRoute, async (c) => {
    const { store } = deps;
    let storeError: string | undefined;
    let schemaError: string | undefined;
    // Asked at once, not one after another: health is what one asks of a busy server, and on
    // PostgreSQL each of these is a round trip (issue 42: it must answer within 100 ms).
    const [counts, schema, materialized, stale] = await Promise.all([
      store.stats().catch((err: unknown) => {
        storeError = err instanceof Error ? err.message : String(err);
        return null;
      }),
      // A store that cannot be read (a database gone away) makes health degraded, not an error:
      // health is what one asks when something is wrong.
      migrator.status().catch((err: unknown) => {
        schemaError = err instanceof Error ? err.message : String(err);
        return null;
      }),
      store.views.materialized().catch((): string[] => []),
      store.docs.getLocal(SEARCH_STALE).catch(() => null),
    ]);
    storeError ??= schemaError;
    const degraded = storeError !== undefined || (schema?.pending.length ?? 0) > 0;
    return c.json(
      {
        status: degraded ? ('degraded' as const) : ('ok' as const),
        version: deps.version,
        uptimeMs: deps.now() - deps.startedAt,
        store: {
          engine: store.capabilities.engine,
          state: storeError ? ('error' as const) : ('ready' as const),
          ...(storeError
            ? { error: `the ${store.capabilities.engine} store cannot be read: ${storeError}` }
            : {}),
        },
        counts,
        schema: schema && {
          currentVersion: schema.currentVersion,
          latestVersion: schema.latestVersion,
          pending: schema.pending.map((p) => ({ version: p.version, name: p.name })),
        },
        search: {
          enabled: materialized.includes('full_text'),
          stale: stale !== null,
        },
        import: deps.importStatus(),
        watch: deps.watchStatus(),
      },
      200,
    );
  });
  return app;
}
