/** Migration routes (seed §4): status, up `{to?, dryRun?}`, down `{steps?, dryRun?}`. */
import { createRoute } from '@hono/zod-openapi';
import { createMigrator, MigrationRangeError } from '../../migrations/runner.js';
import { badRequest } from '../http-error.js';
import type { ApiDeps } from '../deps.js';
import { jsonBodyLimit } from '../middleware/body-limit.js';
import { createRouter } from '../router.js';
import { errorResponses } from '../schemas/common.js';
import {
  migrateDownRequestSchema,
  migrateResultSchema,
  migrateStatusSchema,
  migrateUpRequestSchema,
} from '../schemas/migrate.js';

const statusRoute = createRoute({
  method: 'get',
  path: '/status',
  summary: 'Current schema version and pending migrations',
  tags: ['migrate'],
  responses: {
    200: { description: 'Status', content: { 'application/json': { schema: migrateStatusSchema } } },
  },
});

const upRoute = createRoute({
  method: 'post',
  path: '/up',
  summary: 'Apply pending migrations (up to `to`)',
  description:
    'A failing step is reported in the result (`steps[].status = failed`, `error`), not as an HTTP error.',
  tags: ['migrate'],
  middleware: [jsonBodyLimit(64 * 1024)] as const,
  request: { body: { content: { 'application/json': { schema: migrateUpRequestSchema } } } },
  responses: {
    200: { description: 'The run', content: { 'application/json': { schema: migrateResultSchema } } },
    ...errorResponses(400),
  },
});

const downRoute = createRoute({
  method: 'post',
  path: '/down',
  summary: 'Revert `steps` migrations (default 1)',
  tags: ['migrate'],
  middleware: [jsonBodyLimit(64 * 1024)] as const,
  request: { body: { content: { 'application/json': { schema: migrateDownRequestSchema } } } },
  responses: {
    200: { description: 'The run', content: { 'application/json': { schema: migrateResultSchema } } },
    ...errorResponses(400),
  },
});

/** The runner's range errors, reworded to name the body field they are about. */
async function naming<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof MigrationRangeError) throw badRequest(`body field ${err.field}: ${err.reason}`);
    throw err;
  }
}

export function migrateRoutes(deps: ApiDeps) {
  const app = createRouter();
  const migrator = createMigrator(deps.store);

  app.openapi(statusRoute, async (c) => c.json(await migrator.status(), 200));
  app.openapi(upRoute, async (c) => {
    const body = c.req.valid('json');
    return c.json(await naming(() => migrator.up({ to: body.to, dryRun: body.dryRun ?? false })), 200);
  });
  app.openapi(downRoute, async (c) => {
    const body = c.req.valid('json');
    return c.json(
      await naming(() => migrator.down({ steps: body.steps, dryRun: body.dryRun ?? false })),
      200,
    );
  });
  return app;
}
