/**
 * The API token a user gives the UI when the instance runs with `CT_API_TOKEN` (every `/api`
 * call then needs `Authorization: Bearer <token>`, src/api/middleware/token.ts). It is kept in
 * this browser's localStorage — per origin, so per instance — and sent by every API call the UI
 * makes (queries/api.ts). Reading and writing tolerate a storage that refuses (private mode,
 * quota): the token then lasts as long as the page.
 */
import { browserStorage } from './local-store.js';

export const TOKEN_KEY = 'transcripts.apiToken';

/**
 * What to keep of a pasted token: trimmed, without a leading `Bearer ` (people paste the whole
 * header value); null when nothing usable is left (empty, or with whitespace or control
 * characters inside, which no header can carry as one token).
 */
export function normaliseToken(input: string): string | null {
  const t = input
    .trim()
    .replace(/^bearer\s+/i, '')
    .trim();
  // eslint-disable-next-line no-control-regex
  if (t === '' || /[\s\u0000-\u001f\u007f]/.test(t)) return null;
  return t;
}

interface TokenStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

const storage = (): TokenStorage | undefined => browserStorage();

/** The token for this page when storage refuses it. */
let memory: string | null = null;
const listeners = new Set<() => void>();

function notify(): void {
  for (const fn of listeners) fn();
}

/** The stored token, or null. */
export function readToken(): string | null {
  try {
    const v = storage()?.getItem(TOKEN_KEY);
    if (v) return normaliseToken(v);
  } catch {
    // storage refused: fall back to the page's copy
  }
  return memory;
}

/** Keeps `token` for this origin; returns false when it is not a usable token. */
export function saveToken(input: string): boolean {
  const token = normaliseToken(input);
  if (token === null) return false;
  memory = token;
  try {
    storage()?.setItem(TOKEN_KEY, token);
  } catch {
    // kept in memory only
  }
  notify();
  return true;
}

/** Forgets the token (storage and memory). */
export function forgetToken(): void {
  memory = null;
  try {
    storage()?.removeItem(TOKEN_KEY);
  } catch {
    // nothing stored
  }
  notify();
}

/** Calls `fn` when the token changes, here or in another tab of the same origin. */
export function subscribeToken(fn: () => void): () => void {
  listeners.add(fn);
  const onStorage = (e: StorageEvent) => {
    if (e.key === TOKEN_KEY || e.key === null) fn();
  };
  globalThis.addEventListener?.('storage', onStorage);
  return () => {
    listeners.delete(fn);
    globalThis.removeEventListener?.('storage', onStorage);
  };
}
