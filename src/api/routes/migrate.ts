/** Migration routes (seed §4): status, up `{to?, dryRun?}`, down `{steps?, dryRun?}`. */
import { createRoute } from '@hono/zod-openapi';
import { createMigrator, MigrationRangeError } from '../../migrations/runner.js';
import { badRequest } from '../http-error.js';
import type { ApiDeps } from '../deps.js';
import { jsonBody } from '../middleware/body-limit.js';
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

/** Migration requests are a few small fields. */
const MAX_MIGRATE_BODY_BYTES = 64 * 1024;
const upBody = jsonBody(migrateUpRequestSchema, { maxBytes: MAX_MIGRATE_BODY_BYTES });
const downBody = jsonBody(migrateDownRequestSchema, { maxBytes: MAX_MIGRATE_BODY_BYTES });

const upRoute = createRoute({
  method: 'post',
  path: '/up',
  summary: 'Apply pending migrations (up to `to`)',
  description:
    'A failing step is reported in the result (`steps[].status = failed`, `error`), not as an HTTP error.',
  tags: ['migrate'],
  middleware: upBody.middleware,
  request: { body: upBody.body },
  responses: {
    200: { description: 'The run', content: { 'application/json': { schema: migrateResultSchema } } },
    ...errorResponses(400),
    ...upBody.responses,
  },
});

const downRoute = createRoute({
  method: 'post',
  path: '/down',
  summary: 'Revert `steps` migrations (default 1)',
  tags: ['migrate'],
  middleware: downBody.middleware,
  request: { body: downBody.body },
  responses: {
    200: { description: 'The run', content: { 'application/json': { schema: migrateResultSchema } } },
    ...errorResponses(400),
    ...downBody.responses,
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
