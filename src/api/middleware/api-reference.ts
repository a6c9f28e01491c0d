/**
 * `/api/docs`: the browsable API reference (Swagger UI over `/api/openapi.json`), served whole
 * from the installed `swagger-ui-dist` package. Self-hosted instances are often used from
 * browsers with no internet; a viewer loaded from a CDN left their reference page blank.
 */
import { Hono } from 'hono';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { HttpError } from '../http-error.js';
import { staticFileResponse, statOf } from './static-app.js';

/** The viewer's files this page uses; nothing else of the package is reachable. */
const VIEWER_FILES = ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png'];

const viewerDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>transcripts API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="/api/docs/favicon-32x32.png">
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
</head><body><div id="app"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script>
</body></html>`;

// A file of its own rather than inline, so the page needs no 'unsafe-inline' under a strict CSP.
const INIT = `window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#app',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
});
`;

/** The /api/docs sub-app; mount at `/api/docs`. */
export function apiReference(): Hono {
  const app = new Hono();
  app.get('/', (c) => c.html(PAGE, 200, { 'cache-control': 'no-cache' }));
  app.get('/init.js', (c) =>
    c.body(INIT, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' }),
  );
  for (const name of VIEWER_FILES) {
    app.get(`/${name}`, (c) => {
      const path = join(viewerDir, name);
      const st = statOf(path);
      // Only a broken install lacks one; said in the API's error form, naming the file.
      if (st === null)
        throw new HttpError(500, 'internal', `the API reference viewer is not installed: ${path} is missing`);
      // The package version changes with an upgrade, so a day's caching rather than immutable.
      // Compressed like /app's files: the viewer's bundle is over 1 MB of script.
      return staticFileResponse(path, st, 'day', {
        acceptEncoding: c.req.header('accept-encoding'),
        ifNoneMatch: c.req.header('if-none-match'),
      });
    });
  }
  return app;
}
