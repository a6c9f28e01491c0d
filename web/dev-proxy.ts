/**
 * The dev server's `/api` proxy (seed §1.1): the target is, in order, (1) `WEBAPI_PORT` (with
 * `WEBAPI_HOST`) from the environment or the repository-root `.env`, (2) the installed instance's
 * port from its `instance.env`, (3) 7650 — the same order the CLI uses, so this reuses
 * `resolveApiUrl()` from src/config. When nothing listens there, a proxied call answers 502 with
 * a JSON error body that names the unreachable target and how it was chosen.
 */
import type { ProxyOptions } from 'vite';
import { describeApiUrl, resolveApiUrl, type ApiUrlResolution } from '../src/config/api-url.js';

export type DevEnv = Record<string, string | undefined>;

/** The API the dev server proxies to. */
export function devProxyTarget(env: DevEnv): ApiUrlResolution {
  return resolveApiUrl({ env });
}

interface WritableLike {
  headersSent?: boolean;
  writableEnded?: boolean;
  writeHead?: (status: number, headers: Record<string, string>) => WritableLike;
  end: (body?: string) => void;
}

/** Vite proxy options for `/api` with the 502 body the seed asks for. */
export function apiProxy(env: DevEnv): { target: ApiUrlResolution; options: ProxyOptions } {
  const target = devProxyTarget(env);
  const token = env.CT_API_TOKEN?.trim();
  const options: ProxyOptions = {
    target: target.url,
    changeOrigin: true,
    ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
    configure(proxy) {
      // Runs before Vite's own handler, which then sees the response already sent.
      proxy.on('error', (err: NodeJS.ErrnoException, _req: unknown, res: unknown) => {
        const out = res as WritableLike;
        if (!out.writeHead) {
          out.end();
          return;
        }
        if (out.headersSent || out.writableEnded) return;
        const message =
          `the dev server cannot reach the transcripts API at ${target.url} (${err.code ?? err.message}); ` +
          `target ${describeApiUrl(target)}. Start it with \`transcripts serve\`, or set WEBAPI_PORT in .env.`;
        out
          .writeHead(502, { 'content-type': 'application/json; charset=utf-8', 'x-proxy-target': target.url })
          .end(JSON.stringify({ error: { code: 'bad_gateway', message, target: target.url } }));
      });
    },
  };
  return { target, options };
}
