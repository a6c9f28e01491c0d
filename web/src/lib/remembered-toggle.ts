/**
 * An open/closed choice kept in this browser (localStorage, followed by its other tabs): the
 * session page's details panel remembers whether it was left open. A value that cannot be read is
 * the default; when storage refuses a write the choice lasts as long as the page.
 */
import { useCallback, useSyncExternalStore } from 'react';
import { browserStorage, keyedSubscription } from './local-store.js';

const stores = new Map<string, ReturnType<typeof keyedSubscription>>();
const memory = new Map<string, boolean>();

function storeFor(key: string) {
  let s = stores.get(key);
  if (!s) stores.set(key, (s = keyedSubscription([key])));
  return s;
}

/** `open` / `closed` as stored; anything else is no choice. */
export function parseToggle(raw: string | null | undefined): boolean | undefined {
  return raw === 'open' ? true : raw === 'closed' ? false : undefined;
}

function read(key: string, fallback: boolean): boolean {
  const m = memory.get(key);
  if (m !== undefined) return m;
  try {
    return parseToggle(browserStorage()?.getItem(key)) ?? fallback;
  } catch {
    return fallback;
  }
}

export function useRememberedToggle(key: string, fallback: boolean): [boolean, () => void] {
  const store = storeFor(key);
  const open = useSyncExternalStore(
    store.subscribe,
    () => read(key, fallback),
    () => fallback,
  );
  const toggle = useCallback(() => {
    const next = !read(key, fallback);
    try {
      browserStorage()?.setItem(key, next ? 'open' : 'closed');
      memory.delete(key);
    } catch {
      memory.set(key, next);
    }
    storeFor(key).changed();
  }, [key, fallback]);
  return [open, toggle];
}
