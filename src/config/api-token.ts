/**
 * The API token a client sends (`Authorization: Bearer …`): `CT_API_TOKEN` from the environment,
 * else the one `transcripts hooks install` / `install` stored in `<config>/api-token` (mode 600).
 *
 * Claude Code starts hooks with the environment of the shell that started Claude Code, which
 * need not hold the token; and the hook command in `~/.claude/settings.json` must not carry the
 * secret in plain sight. So the installer keeps the token it was given in a file only the user can
 * read, and the hook (and the CLI) fall back to it. The environment still wins.
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

/** The token to send: CT_API_TOKEN, else the stored file's first line, else none. */
export function resolveApiToken(env: Env): ApiTokenResolution {
  const fromEnv = envValue(env, 'CT_API_TOKEN');
  if (fromEnv !== undefined) return { token: fromEnv, source: 'CT_API_TOKEN' };
  const file = apiTokenFile(env);
  const stored = readStoredApiToken(file);
  return stored === undefined ? { token: undefined, source: null } : { token: stored, source: file };
}

/** The token in `file`, or undefined when the file is absent, unreadable or blank. */
export function readStoredApiToken(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').split(/\r?\n/)[0]!.trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Stores `token` in `file`, readable by the user alone (mode 600, set before a byte is written
 * and again after the rename). Returns false when the file already held exactly that token.
 */
export function storeApiToken(file: string, token: string): boolean {
  if (readStoredApiToken(file) === token) {
    chmodSync(file, 0o600);
    return false;
  }
  makeDirsSync(dirname(file));
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${token}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
  return true;
}

/** Removes a stored token; returns whether there was one. */
export function removeStoredApiToken(file: string): boolean {
  const had = existsSync(file);
  rmSync(file, { force: true });
  return had;
}
