/**
 * How CLI clients find the API (DESIGN §9), in order: `--webapi URL`; `CT_API_URL` (a whole URL, so
 * a shared instance behind TLS or a path prefix); `WEBAPI_HOST`/`WEBAPI_PORT` from the environment;
 * the installed instance's `instance.env`; `http://127.0.0.1:7650`.
 * The answer says how it was chosen, so a connection error can tell the user what to change.
 * A wildcard bind address (`0.0.0.0`, `::`) is dialled as loopback.
 */
import { ConfigError } from './config-error.js';
import { DEFAULT_HOST, DEFAULT_PORT, isWildcardHost, parsePort } from './env.js';
import { readInstanceEnv } from './instance-env.js';
import { type Env, envValue, resolvePaths } from './paths.js';

export type ApiUrlSource = 'flag' | 'env' | 'instance.env' | 'default';

export interface ApiUrlResolution {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:7650`. */
  url: string;
  source: ApiUrlSource;
  /** In words: `--webapi`, `WEBAPI_PORT=7700`, `/home/me/.config/transcripts/instance.env`, … */
  detail: string;
}

export interface ResolveApiUrlOptions {
  /** The `--webapi` flag. */
  flag?: string;
  env?: Env;
  /** Overrides the instance.env location (default: the config dir's). */
  instanceEnvFile?: string;
}

/** `host` as it goes in a URL: wildcard → loopback, IPv6 in brackets. */
export function dialHost(host: string): string {
  if (isWildcardHost(host)) return host.includes(':') ? '[::1]' : '127.0.0.1';
  const bare = host.replace(/^\[|\]$/g, '');
  return bare.includes(':') ? `[${bare}]` : bare;
}

/**
 * Normalises a `--webapi` (or `CT_API_URL`, named by `what`) value: adds `http://` when missing,
 * drops a trailing slash and `/api`.
 */
export function normaliseApiUrl(value: string, what = '--webapi'): string {
  let v = value.trim();
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(v)) v = `http://${v}`;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new ConfigError(`${what}: "${value}" is not a URL (expected e.g. http://127.0.0.1:7650)`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new ConfigError(`${what}: "${value}" must be an http:// or https:// URL`);
  if (isWildcardHost(u.hostname)) u.hostname = dialHost(u.hostname);
  const path = u.pathname.replace(/\/+$/, '').replace(/\/api$/, '');
  return `${u.protocol}//${u.host}${path}`;
}

export function resolveApiUrl(options: ResolveApiUrlOptions = {}): ApiUrlResolution {
  const env = options.env ?? process.env;
  if (options.flag !== undefined && options.flag.trim() !== '')
    return { url: normaliseApiUrl(options.flag), source: 'flag', detail: `--webapi ${options.flag}` };

  const url = envValue(env, 'CT_API_URL');
  if (url !== undefined && url.trim() !== '')
    return { url: normaliseApiUrl(url, 'CT_API_URL'), source: 'env', detail: `CT_API_URL=${url.trim()}` };

  const host = envValue(env, 'WEBAPI_HOST');
  const port = envValue(env, 'WEBAPI_PORT');
  if (host !== undefined || port !== undefined) {
    const p = port !== undefined ? parsePort(port, 'WEBAPI_PORT') : DEFAULT_PORT;
    const h = host ?? DEFAULT_HOST;
    const named = [
      host !== undefined ? `WEBAPI_HOST=${host}` : '',
      port !== undefined ? `WEBAPI_PORT=${port}` : '',
    ]
      .filter(Boolean)
      .join(' ');
    return { url: `http://${dialHost(h)}:${p}`, source: 'env', detail: named };
  }

  const file = options.instanceEnvFile ?? resolvePaths(env).instanceEnvFile;
  const inst = readInstanceEnv(file);
  const iHost = inst.WEBAPI_HOST?.trim() || undefined;
  const iPort = inst.WEBAPI_PORT?.trim() || undefined;
  if (iHost !== undefined || iPort !== undefined) {
    const p = iPort !== undefined ? parsePort(iPort, `WEBAPI_PORT in ${file}`) : DEFAULT_PORT;
    return { url: `http://${dialHost(iHost ?? DEFAULT_HOST)}:${p}`, source: 'instance.env', detail: file };
  }

  return { url: `http://${DEFAULT_HOST}:${DEFAULT_PORT}`, source: 'default', detail: 'the default' };
}

/** One phrase for error messages: `http://127.0.0.1:7650 (from WEBAPI_PORT=7650)`. */
export function describeApiUrl(r: ApiUrlResolution): string {
  switch (r.source) {
    case 'flag':
      return `${r.url} (from ${r.detail})`;
    case 'env':
      return `${r.url} (from the environment: ${r.detail})`;
    case 'instance.env':
      return `${r.url} (from the installed instance's ${r.detail})`;
    default:
      return `${r.url} (the default; pass --webapi URL or set CT_API_URL to use another)`;
  }
}
