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
    let counts = null;
    let storeError: string | undefined;
    try {
      counts = await store.stats();
    } catch (err) {
      storeError = err instanceof Error ? err.message : String(err);
    }
    // A store that cannot be read (a database gone away) makes health degraded, not an error:
    // health is what one asks when something is wrong.
    const schema = await migrator.status().catch((err: unknown) => {
      storeError ??= err instanceof Error ? err.message : String(err);
      return null;
    });
    const materialized = await store.views.materialized().catch((): string[] => []);
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
          stale: (await store.docs.getLocal(SEARCH_STALE).catch(() => null)) !== null,
        },
        import: deps.importStatus(),
        watch: deps.watchStatus(),
      },
      200,
    );
  });
  return app;
}
