/**
 * Cross-site writes refused (issue 42). A page on any other origin can make the browser send a
 * "simple" request to the API — a POST or PUT with no body, or a body typed text/plain,
 * multipart/form-data or application/x-www-form-urlencoded — with no CORS preflight; it cannot
 * read the answer, but the write has happened (`POST /api/migrate/down` reverted a migration).
 * The Host check does not help: the Host really is 127.0.0.1.
 *
 * So every state-changing request under /api must
 * 1. not come from another site: `Sec-Fetch-Site` (sent by every current browser) must be
 *    `same-origin` or `none` (typed in, or not a page at all); without it, an `Origin` header must
 *    name the very host and port the request was sent to. Clients that are not browsers (the CLI,
 *    the hook, curl) send neither and pass. → 403
 * 2. carry the Content-Type the route takes: `application/json`, or `application/octet-stream` for
 *    an object upload. Neither can be sent cross-origin without a preflight, which this server
 *    never grants (it answers no CORS). → 415
 *
 * Only requests a route will answer are checked; anything else goes on to the 404/405 answers.
 */
import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { HttpError } from '../http-error.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The headers this check reads, by lower-case name. */
export type HeaderLookup = (name: string) => string | undefined;

/** Why a request is cross-site, or null when it is not (or cannot be told: no browser sent it). */
export function crossSiteReason(header: HeaderLookup): string | null {
  const site = header('sec-fetch-site')?.trim().toLowerCase();
  if (site !== undefined && site !== '')
    // `same-site` is another origin on the same site: another port of 127.0.0.1 is one.
    return site === 'same-origin' || site === 'none' ? null : `Sec-Fetch-Site is "${site}"`;
  const origin = header('origin')?.trim();
  if (origin === undefined || origin === '') return null;
  let originHost: string;
  try {
    const u = new URL(origin);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return `Origin is "${origin}"`;
    originHost = u.host;
  } catch {
    return `Origin is "${origin}"`; // "null" (a sandboxed or file: page) among others
  }
  const host = header('host')?.trim().toLowerCase();
  return host !== undefined && originHost === hostOf(host)
    ? null
    : `Origin "${origin}" is not this server (${host ?? 'no Host'})`;
}

/** A Host header as `URL.host` spells it (no default port, IPv6 in brackets); null when malformed. */
function hostOf(host: string): string | null {
  try {
    return new URL(`http://${host}`).host;
  } catch {
    return null;
  }
}

/** The media type of a Content-Type header, lower-case, without parameters. */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

export interface SameOriginWritesOptions {
  /** The media type a route takes instead of application/json, by the start of its path. */
  bodyTypes?: ReadonlyArray<{ pathPrefix: string; type: string }>;
}

export function sameOriginWrites(options: SameOriginWritesOptions = {}): MiddlewareHandler {
  const bodyTypes = options.bodyTypes ?? [];
  return async function sameOriginWritesMiddleware(c, next) {
    const method = c.req.method.toUpperCase();
    // Only writes that a route answers: a wrong method or path still gets its 404/405.
    if (!SAFE_METHODS.has(method) && matchedRoutes(c).some((r) => r.method.toUpperCase() === method)) {
      const reason = crossSiteReason((name) => c.req.header(name));
      if (reason)
        throw new HttpError(
          403,
          'forbidden',
          `cross-site request refused: ${reason}; ${method} ${c.req.path} is taken only from this server's own pages and from clients that are not browsers`,
        );
      const want = bodyTypes.find((b) => c.req.path.startsWith(b.pathPrefix))?.type ?? 'application/json';
      const sent = c.req.header('content-type');
      if (mediaType(sent) !== want)
        throw new HttpError(
          415,
          'unsupported_media_type',
          `${method} ${c.req.path} needs Content-Type: ${want} (got ${sent === undefined ? 'none' : `"${sent}"`})` +
            `${want === 'application/json' ? ', with {} as the body when there is nothing to say' : ''}: ` +
            "a type other sites' pages cannot send",
        );
    }
    await next();
  };
}
