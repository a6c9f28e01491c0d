/**
 * Recent searches and saved filters from localStorage, shared by every component that shows them
 * (the omnibox dropdown, the list's "save filters") and kept in sync across tabs.
 */
import { useCallback, useSyncExternalStore } from 'react';
import { browserStorage, keyedSubscription } from '../../lib/local-store.js';
import {
  RECENT_KEY,
  SAVED_KEY,
  isSavedFilter,
  isString,
  pushRecent,
  readList,
  removeSaved,
  upsertSaved,
  writeList,
  type SavedFilter,
} from '../../lib/saved-items.js';

const store = keyedSubscription([RECENT_KEY, SAVED_KEY]);
const cache = new Map<string, { raw: string | null; value: unknown[] }>();

/** A stable snapshot per key (useSyncExternalStore needs identity to change only on change). */
function snapshot<T>(key: string, valid: (x: unknown) => x is T): T[] {
  let raw: string | null = null;
  try {
    raw = browserStorage()?.getItem(key) ?? null;
  } catch {
    raw = null;
  }
  const hit = cache.get(key);
  if (hit && hit.raw === raw) return hit.value as T[];
  const value = readList(browserStorage(), key, valid);
  cache.set(key, { raw, value });
  return value;
}

function write(key: string, list: unknown[]): void {
  writeList(browserStorage(), key, list);
  store.changed();
}

export function useRecentSearches(): [string[], (q: string) => void] {
  const list = useSyncExternalStore(store.subscribe, () => snapshot(RECENT_KEY, isString));
  const add = useCallback(
    (q: string) => write(RECENT_KEY, pushRecent(snapshot(RECENT_KEY, isString), q)),
    [],
  );
  return [list, add];
}

export function useSavedFilters(): [SavedFilter[], (f: SavedFilter) => void, (query: string) => void] {
  const list = useSyncExternalStore(store.subscribe, () => snapshot(SAVED_KEY, isSavedFilter));
  const save = useCallback(
    (f: SavedFilter) => write(SAVED_KEY, upsertSaved(snapshot(SAVED_KEY, isSavedFilter), f)),
    [],
  );
  const remove = useCallback(
    (query: string) => write(SAVED_KEY, removeSaved(snapshot(SAVED_KEY, isSavedFilter), query)),
    [],
  );
  return [list, save, remove];
}
