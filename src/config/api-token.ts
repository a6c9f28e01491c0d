/**
 * The API token a client sends (`Authorization: Bearer …`): `CT_API_TOKEN` from the environment,
 * else the one `transcripts hooks install` / `install` stored in `<config>/api-token` (mode 600).
 *
 * Claude Code starts hooks with the environment of the shell that started Claude Code, which
 * need not hold the token; and the hook command in `~/.claude/settings.json` must not carry the
 * secret in plain sight. So the installer keeps the token it was given in a file only the user can
 * read, and the hook (and the CLI) fall back to it. The environment still wins.
 *
 * The file also names the host the token was given for (the API the hook dials at install time),
 * and the token goes to that host alone: `transcripts sessions --webapi http://elsewhere` must not
 * hand the team's token to another machine. Loopback names count as one host.
 */
import { chmodSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { makeDirsSync } from './make-dirs.js';
import { type Env, envValue, resolvePaths } from './paths.js';

/** `<config>/api-token`: the stored token, one line. */
export function apiTokenFile(env: Env): string {
  return join(resolvePaths(env).configDir, 'api-token');
}

export interface ApiTokenResolution {
  token: string | undefined;
  /** `CT_API_TOKEN`, the stored file's path, or null when there is none. */
  source: string | null;
}

/** What `<config>/api-token` holds: the token and the API address it was stored for. */
export interface StoredApiToken {
  token: string;
  /** The API base URL the token belongs to; null in a file that names none. */
  url: string | null;
}

/**
 * The token to send to `url`: CT_API_TOKEN, else the stored one when it was stored for `url`'s
 * host, else none.
 */
export function resolveApiToken(env: Env, url: string): ApiTokenResolution {
  const fromEnv = envValue(env, 'CT_API_TOKEN');
  if (fromEnv !== undefined) return { token: fromEnv, source: 'CT_API_TOKEN' };
  const file = apiTokenFile(env);
  const stored = readStoredApiToken(file);
  if (stored === undefined || stored.url === null || !sameHost(stored.url, url))
    return { token: undefined, source: null };
  return { token: stored.token, source: file };
}

/** The token and address in `file`, or undefined when the file is absent, unreadable or blank. */
export function readStoredApiToken(file: string): StoredApiToken | undefined {
  let lines: string[];
  try {
    lines = readFileSync(file, 'utf8').split(/\r?\n/);
  } catch {
    return undefined;
  }
  const token = lines[0]!.trim();
  return token ? { token, url: lines[1]?.trim() || null } : undefined;
}

/**
 * Stores `token` for the API at `url` in `file`, readable by the user alone (mode 600, set before
 * a byte is written and again after the rename). Returns false when the file already held exactly
 * that.
 */
export function storeApiToken(file: string, token: string, url: string): boolean {
  const stored = readStoredApiToken(file);
  if (stored?.token === token && stored.url === url) {
    chmodSync(file, 0o600);
    return false;
  }
  makeDirsSync(dirname(file));
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${token}\n${url}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
  return true;
}

/** Whether two API URLs name the same host (any port; loopback names are one host). */
export function sameHost(a: string, b: string): boolean {
  const host = (u: string): string | null => {
    try {
      const name = new URL(u).hostname.toLowerCase().replace(/^\[|\]$/g, '');
      return LOOPBACK.has(name) || name.startsWith('127.') ? 'loopback' : name;
    } catch {
      return null;
    }
  };
  const [ha, hb] = [host(a), host(b)];
  return ha !== null && ha === hb;
}

const LOOPBACK = new Set(['localhost', '::1']);

/** Removes a stored token; returns whether there was one. */
export function removeStoredApiToken(file: string): boolean {
  const had = existsSync(file);
  rmSync(file, { force: true });
  return had;
}
