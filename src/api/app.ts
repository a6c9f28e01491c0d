/**
 * The HTTP API (DESIGN §7): `createApp()` assembles the route groups under `/api`, the UI under
 * `/app`, the machine-readable description and its browsable reference, and the one place that
 * turns errors into `{error: {code, message}}` responses.
 *
 * @example
 * const app = createApp({ store });
 * const res = await app.request('/api/sessions?limit=10');
 */
import { annotationRoutes } from './routes/annotations.js';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { z } from 'zod';
import { defaultStaticDir, packageVersion } from '../config/paths.js';
import { defaultSettings, type Settings } from '../config/settings.js';
import { MigrationRangeError } from '../migrations/runner.js';
import { StoreInputError, ViewMissingError, type Store } from '../store/contract.js';
import type { ApiDeps } from './deps.js';
import { codeForStatus, HttpError } from './http-error.js';
import { MAX_HEADER_BYTES } from './client-error.js';
import { apiReference } from './middleware/api-reference.js';
import { hostCheck } from './middleware/host-check.js';
import { declaredQueries, knownQueryOnly, type DeclaredQueries } from './middleware/known-query.js';
import { sameOriginWrites } from './middleware/same-origin-writes.js';
import { securityHeaders } from './middleware/security-headers.js';
import { staticApp } from './middleware/static-app.js';
import { tokenAuth } from './middleware/token.js';
import { mcpRoutes } from '../mcp/http.js';
import { completeDocument } from './openapi-doc.js';
import { createRouter, describeValidationError } from './router.js';
import { redactPaths } from './redact-paths.js';
import { blueprintRoutes } from './routes/blueprint.js';
import { healthRoutes } from './routes/health.js';
import { ingestRoutes } from './routes/ingest.js';
import { migrateRoutes } from './routes/migrate.js';
import { searchRoutes } from './routes/search.js';
import { totalsRoutes } from './routes/totals.js';
import { sessionRoutes } from './routes/sessions.js';
import { shareRoutes } from './routes/share.js';
import { turnsRoutes } from './routes/turns.js';
import { storeRoutes } from './routes/store.js';
import type { ImportStatus, WatchStatus } from './schemas/health.js';

export interface CreateAppOptions {
  store: Store;
  settings?: Settings;
  /** Build version (default: package.json's). */
  version?: string;
  /** First-start import progress, shown by /api/health. */
  importStatus?: () => ImportStatus;
  /** Which transcript trees are watched, shown by /api/health (default: watching is off). */
  watchStatus?: () => WatchStatus;
  /** The built UI (default: the package's web/dist). */
  staticDir?: string;
  /** When set, every /api request needs `Authorization: Bearer <token>`. */
  token?: string;
  /** Host header values accepted besides loopback names (the bound host, CT_ALLOWED_HOSTS). */
  allowedHosts?: string[];
  now?: () => number;
  /** Where real faults (500s) are reported. */
  logError?: (message: string) => void;
}

const IDLE_IMPORT: ImportStatus = {
  state: 'idle',
  roots: [],
  filesTotal: 0,
  filesDone: 0,
  bytesTotal: 0,
  bytesDone: 0,
};

function errorBody(
  c: Context,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
) {
  for (const [k, v] of Object.entries(headers)) c.header(k, v);
  return c.json({ error: { code, message } }, status as 400);
}

/** Hono path (`/api/sessions/:id`, `:name{.+}`, `*`) → a regex matching concrete paths. */
function pathRegex(path: string): RegExp {
  let out = '';
  for (let i = 0; i < path.length;) {
    const ch = path[i]!;
    if (ch === ':') {
      const m = /^:[A-Za-z0-9_]+(\{((?:[^{}]|\{[^{}]*\})+)\})?/.exec(path.slice(i))!;
      out += m[2] ? `(?:${m[2]})` : '[^/]+';
      i += m[0].length;
    } else if (ch === '*') {
      out += '.*';
      i++;
    } else {
      out += ch.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
      i++;
    }
  }
  return new RegExp(`^${out}$`);
}

export function createApp(options: CreateAppOptions): OpenAPIHono {
  const deps: ApiDeps = {
    store: options.store,
    settings: options.settings ?? defaultSettings(),
    version: options.version ?? packageVersion(),
    importStatus: options.importStatus ?? (() => IDLE_IMPORT),
    watchStatus: options.watchStatus ?? (() => ({ enabled: false, trees: [] })),
    now: options.now ?? Date.now,
    startedAt: (options.now ?? Date.now)(),
    tokenRequired: Boolean(options.token),
  };
  const logError = options.logError ?? ((m: string) => console.error(m));

  const app = createRouter();
  // No CORS on purpose: the UI is same-origin, and cross-origin pages must not read the history.
  // First, so that every answer carries them, refusals and errors included.
  app.use('*', securityHeaders());
  app.use('*', hostCheck(options.allowedHosts ?? []));
  if (options.token) app.use('/api/*', tokenAuth(options.token));
  // Checked against the description, which is complete only once every route is registered below.
  let declared: DeclaredQueries | undefined;
  app.use(
    '/api/*',
    knownQueryOnly(() => (declared ??= declaredQueries(description()))),
  );
  // Before any body is read: another site's page must not be able to write (issue 42).
  app.use(
    '/api/*',
    sameOriginWrites({
      bodyTypes: [{ pathPrefix: '/api/ingest/objects/', type: 'application/octet-stream' }],
    }),
  );

  app.route('/api/sessions', sessionRoutes(deps));
  app.route('/api/sessions', shareRoutes(deps));
  app.route('/api/turns', turnsRoutes(deps));
  app.route('/api', searchRoutes(deps));
  app.route('/api', totalsRoutes(deps));
  app.route('/api', annotationRoutes(deps));
  app.route('/api/store', storeRoutes(deps));
  app.route('/api/ingest', ingestRoutes(deps));
  app.route('/api/migrate', migrateRoutes(deps));
  app.route('/api/health', healthRoutes(deps));
  app.route('/api/blueprint', blueprintRoutes(deps));
  app.route(
    '/api/mcp',
    mcpRoutes({ fetch: (r) => app.fetch(r), token: options.token, version: deps.version }),
  );

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'Required only when the instance runs with CT_API_TOKEN (always for a non-loopback bind).',
  });
  // Made once, on first use: the routes do not change after this function returns.
  let document: ReturnType<typeof app.getOpenAPI31Document> | undefined;
  const description = () =>
    (document ??= completeDocument(
      app.getOpenAPI31Document({
        openapi: '3.1.0',
        info: {
          title: 'transcripts API',
          version: deps.version,
          description:
            'A self-hosted history of Claude Code sessions. ' +
            '`GET /api/blueprint` (the UI header) is deliberately not described here.',
        },
        security: options.token ? [{ bearer: [] }] : [],
      }),
      { tokenRequired: Boolean(options.token), maxHeaderBytes: MAX_HEADER_BYTES },
    ));
  app.get('/api/openapi.json', (c) => c.json(description()));
  app.route('/api/docs', apiReference());

  app.get('/', (c) => c.redirect('/app/'));
  const ui = staticApp(options.staticDir ?? defaultStaticDir());
  app.route('/app', ui);

  // 404 vs 405: a path some route answers with another method is a 405 with Allow.
  let known: Array<{ re: RegExp; method: string }> | undefined;
  app.notFound((c) => {
    known ??= app.routes
      .filter((r) => r.method !== 'ALL')
      .map((r) => ({ re: pathRegex(r.path), method: r.method.toUpperCase() }));
    const methods = new Set(known.filter((k) => k.re.test(c.req.path)).map((k) => k.method));
    if (methods.size > 0) {
      if (methods.has('GET')) methods.add('HEAD');
      return errorBody(
        c,
        405,
        'method_not_allowed',
        `${c.req.method} is not allowed on ${c.req.path}; use ${[...methods].join(', ')}`,
        {
          allow: [...methods].join(', '),
        },
      );
    }
    return errorBody(c, 404, 'not_found', `no route ${c.req.method} ${c.req.path}`);
  });

  app.onError((err, c) => {
    if (err instanceof HttpError) return errorBody(c, err.status, err.code, err.message, err.headers);
    // Past this point the message is not ours to word: it may carry a server path (issue 42).
    if (err instanceof StoreInputError || err instanceof MigrationRangeError)
      return errorBody(c, 400, 'bad_request', redactPaths(err.message));
    if (err instanceof ViewMissingError)
      return errorBody(c, 503, 'service_unavailable', redactPaths(err.message));
    if (err instanceof z.ZodError)
      return errorBody(c, 400, 'bad_request', describeValidationError('json', err));
    if (err instanceof HTTPException) {
      const status = err.status;
      let message = err.message;
      if (status === 400 && /malformed json/i.test(message)) message = 'request body: malformed JSON';
      else if (status === 415)
        message = `unsupported Content-Type "${c.req.header('content-type') ?? ''}": send application/json`;
      else if (!message) message = err.getResponse().statusText || `HTTP ${status}`;
      return errorBody(c, status, codeForStatus(status), redactPaths(message));
    }
    const e = err as Error & { code?: string; status?: number };
    // Engines may raise typed errors we do not import: honour an explicit HTTP status on them.
    if (typeof e.status === 'number' && e.status >= 400 && e.status < 500)
      return errorBody(c, e.status, codeForStatus(e.status), redactPaths(e.message));
    logError(`${c.req.method} ${c.req.path}: ${e.stack ?? String(err)}`);
    return errorBody(c, 500, 'internal', `internal error: ${redactPaths(e.message ?? String(err))}`);
  });

  return app;
}
