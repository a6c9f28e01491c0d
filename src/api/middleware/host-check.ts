/**
 * DNS-rebinding guard: a page on evil.example that resolves its name to 127.0.0.1 can reach a
 * loopback server, but its requests still say `Host: evil.example`. Only the bound host, the
 * loopback names and any explicitly allowed hosts are accepted; everything else gets 403.
 */
import type { MiddlewareHandler } from 'hono';
import { HttpError } from '../http-error.js';

/** Lower-case host without port or IPv6 brackets. */
export function hostName(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    return end > 0 ? h.slice(1, end) : h;
  }
  const colon = h.lastIndexOf(':');
  return colon >= 0 && h.indexOf(':') === colon ? h.slice(0, colon) : h;
}

export const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

export function hostCheck(allowedHosts: readonly string[]): MiddlewareHandler {
  const allowed = new Set([...LOOPBACK_NAMES, ...allowedHosts].map((h) => hostName(h)));
  return async function hostCheckMiddleware(c, next) {
    const header = c.req.header('host');
    // HTTP/1.0 clients may omit Host; they cannot be rebinding attacks from a browser.
    if (header !== undefined && !allowed.has(hostName(header)))
      throw new HttpError(
        403,
        'forbidden',
        `Host "${header}" is not allowed (DNS-rebinding protection); use one of: ${[...allowed].join(', ')} ` +
          'or add it to CT_ALLOWED_HOSTS',
      );
    await next();
  };
}
