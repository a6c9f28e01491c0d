/**
 * Response headers that keep browsers from doing more with an answer than meant (issue 42):
 * `X-Content-Type-Options: nosniff` (a transcript served as text never runs as script),
 * `Referrer-Policy: no-referrer` (session ids and search terms in URLs stay home), no framing
 * (`frame-ancestors 'none'`, `X-Frame-Options: DENY`: no clickjacking of the UI), and a
 * Content-Security-Policy for the UI under `/app` and the reference under `/api/docs`. Built on
 * Hono's `secureHeaders`, which also sends its other defaults (cross-origin opener/resource
 * policies, …); HSTS is left out, since the server speaks plain HTTP and a proxy in front that
 * adds TLS is the one to decide it.
 */
import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

/**
 * The UI's policy. The build (Vite) emits no inline script: one module script and one stylesheet
 * from `/app/assets`. Styles need 'unsafe-inline' all the same: Mantine injects `<style>` tags at
 * run time (its CSS variables and color scheme) and React components set `style` attributes, and
 * neither can carry a nonce or a hash fixed at build time. Inline style cannot run code, so
 * scripts stay 'self' only. `data:` images: the page's icon is `data:,`; `blob:` images: the reader's
 * thumbnails, made in the page from the base64 blocks of an entry's own raw line.
 */
export const APP_CSP = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/** The API's JSON and files are never a document to render: nothing may load from them, nor frame them. */
export const API_CSP = { defaultSrc: ["'none'"], frameAncestors: ["'none'"] };

const COMMON = {
  referrerPolicy: 'no-referrer',
  xFrameOptions: 'DENY',
  strictTransportSecurity: false,
  // Responses of /api may be fetched by the dev server's proxy and by the CLI, never embedded
  // by another site's page.
  crossOriginResourcePolicy: 'same-origin',
} as const;

/** Mount on `*`, before everything else, so that refusals and errors carry the headers too. */
export function securityHeaders(): MiddlewareHandler {
  const app = secureHeaders({ ...COMMON, contentSecurityPolicy: APP_CSP });
  const api = secureHeaders({ ...COMMON, contentSecurityPolicy: API_CSP });
  return async function securityHeadersMiddleware(c, next) {
    const path = c.req.path;
    // /api/docs is an HTML page (Swagger UI) with its own script and styles: the UI's policy fits it.
    const isApiData = path.startsWith('/api/') && !path.startsWith('/api/docs');
    return (isApiData ? api : app)(c, next);
  };
}
