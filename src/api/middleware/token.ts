/**
 * Bearer-token check, on when `CT_API_TOKEN` is set (mandatory for a non-loopback bind).
 * Compared in constant time so the token cannot be guessed byte by byte from response times.
 */
import type { MiddlewareHandler } from 'hono';
import { createHash, timingSafeEqual } from 'node:crypto';
import { HttpError } from '../http-error.js';

const digest = (s: string) => createHash('sha256').update(s).digest();

export function tokenAuth(token: string): MiddlewareHandler {
  const expected = digest(token);
  return async function tokenAuthMiddleware(c, next) {
    const header = c.req.header('authorization') ?? '';
    const m = /^Bearer\s+(.+)$/i.exec(header.trim());
    if (!m || !timingSafeEqual(digest(m[1]!), expected))
      throw new HttpError(
        401,
        'unauthorized',
        m
          ? 'the bearer token is wrong'
          : 'this instance requires a bearer token: send "Authorization: Bearer <CT_API_TOKEN>"',
        { 'www-authenticate': 'Bearer realm="transcripts"' },
      );
    await next();
  };
}
