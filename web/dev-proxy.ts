/**
 * The dev server's `/api` proxy (seed §1.1). Its port is, in order: (1) `WEBAPI_PORT` when set,
 * from the environment or the repository-root `.env`; (2) the installed instance's port, read from
 * its `instance.env`; (3) 7650. The host is `WEBAPI_HOST` when set (environment or `.env`), else
 * the instance's own host when its port is the one used, else 127.0.0.1 — so a `WEBAPI_HOST` alone
 * never sends the port back to 7650 past the installed instance. When nothing listens there, a
 * proxied call answers 502 with a JSON error body that names the unreachable target and where
 * each part of it came from.
 */
import type { ProxyOptions } from 'vite';
import { dialHost } from '../src/config/api-url.js';
import { DEFAULT_HOST, DEFAULT_PORT, parsePort } from '../src/config/env.js';
import { readInstanceEnv } from '../src/config/instance-env.js';
import { envValue, resolvePaths } from '../src/config/paths.js';

export type DevEnv = Record<string, string | undefined>;

export interface DevProxyInput {
  /** The environment with `.env` values under it (the process environment wins, as Vite's loadEnv has it). */
  env: DevEnv;
  /** Which names the process environment itself set (the rest of `env` came from `.env`). */
  fromEnvironment?: (name: string) => boolean;
  /** Overrides the instance.env location (default: the config dir's, from CT_HOME / XDG_CONFIG_HOME). */
  instanceEnvFile?: string;
}

export interface DevProxyTarget {
  /** `http://host:port`. */
  url: string;
  /** Where the port came from: `WEBAPI_PORT` (environment or .env), the instance.env, or the default. */
  source: 'env' | '.env' | 'instance.env' | 'default';
  /** In words, for the start-up line and the 502: `port 7700 from WEBAPI_PORT in .env`, … */
  detail: string;
}

/** The API the dev server proxies to, and where each part of its address came from. */
export function devProxyTarget(input: DevProxyInput): DevProxyTarget {
  const { env } = input;
  const where = (name: string) => ((input.fromEnvironment?.(name) ?? true) ? 'the environment' : '.env');
  const host = envValue(env, 'WEBAPI_HOST');
  const port = envValue(env, 'WEBAPI_PORT');
  const hostPart = host !== undefined ? `, host from WEBAPI_HOST=${host} in ${where('WEBAPI_HOST')}` : '';

  if (port !== undefined) {
    const from = where('WEBAPI_PORT');
    const p = parsePort(port, `WEBAPI_PORT (in ${from})`);
    return {
      url: `http://${dialHost(host ?? DEFAULT_HOST)}:${p}`,
      source: from === '.env' ? '.env' : 'env',
      detail: `port from WEBAPI_PORT=${port} in ${from}${hostPart}`,
    };
  }

  const file = input.instanceEnvFile ?? resolvePaths(env).instanceEnvFile;
  const inst = readInstanceEnv(file);
  const iPort = inst.WEBAPI_PORT?.trim() || undefined;
  if (iPort !== undefined) {
    const iHost = inst.WEBAPI_HOST?.trim() || undefined;
    const p = parsePort(iPort, `WEBAPI_PORT in ${file}`);
    return {
      url: `http://${dialHost(host ?? iHost ?? DEFAULT_HOST)}:${p}`,
      source: 'instance.env',
      detail: `port from the installed instance's ${file}${hostPart}`,
    };
  }

  return {
    url: `http://${dialHost(host ?? DEFAULT_HOST)}:${DEFAULT_PORT}`,
    source: 'default',
    detail: `the default port ${DEFAULT_PORT}${hostPart}`,
  };
}

/** The 502 message when nothing answers at the target. */
export function unreachableMessage(target: DevProxyTarget, why: string): string {
  return (
    `the dev server cannot reach the transcripts API at ${target.url} (${why}); ` +
    `${target.detail}. Start it with \`transcripts serve\`, or set WEBAPI_PORT in .env.`
  );
}

interface WritableLike {
  headersSent?: boolean;
  writableEnded?: boolean;
  writeHead?: (status: number, headers: Record<string, string>) => WritableLike;
  end: (body?: string) => void;
}

/** Vite proxy options for `/api` with the 502 body the seed asks for. */
export function apiProxy(input: DevProxyInput): { target: DevProxyTarget; options: ProxyOptions } {
  const target = devProxyTarget(input);
  const token = input.env.CT_API_TOKEN?.trim();
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
        const message = unreachableMessage(target, err.code ?? err.message);
        out
          .writeHead(502, { 'content-type': 'application/json; charset=utf-8', 'x-proxy-target': target.url })
          .end(JSON.stringify({ error: { code: 'bad_gateway', message, target: target.url } }));
      });
    },
  };
  return { target, options };
}
