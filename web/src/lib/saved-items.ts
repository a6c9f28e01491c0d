/**
 * Recent searches and saved filters, persisted in the browser (localStorage). The list logic is
 * pure (most recent first, no duplicates, capped); `browserStore()` adds the storage, tolerating
 * a missing or corrupt entry and a storage that refuses writes (private mode, quota).
 */

export interface SavedFilter {
  /** A name the user gave, or the filter text itself. */
  name: string;
  /** Omnibox text reproducing the filter (`model:opus last week`). */
  query: string;
}

export const RECENT_LIMIT = 10;
export const SAVED_LIMIT = 50;

/** Adds `q` at the front, dropping an older copy and anything past the limit. */
export function pushRecent(list: readonly string[], q: string, limit = RECENT_LIMIT): string[] {
  const t = q.trim();
  if (!t) return [...list];
  return [t, ...list.filter((x) => x !== t)].slice(0, limit);
}

/** Adds or replaces (same query) a saved filter at the front. */
export function upsertSaved(
  list: readonly SavedFilter[],
  item: SavedFilter,
  limit = SAVED_LIMIT,
): SavedFilter[] {
  const query = item.query.trim();
  if (!query) return [...list];
  const name = item.name.trim() || query;
  return [{ name, query }, ...list.filter((x) => x.query !== query)].slice(0, limit);
}

export function removeSaved(list: readonly SavedFilter[], query: string): SavedFilter[] {
  return list.filter((x) => x.query !== query);
}

/** Reads a JSON array from storage; anything unexpected reads as empty. */
export function readList<T>(
  storage: Pick<Storage, 'getItem'> | undefined,
  key: string,
  valid: (x: unknown) => x is T,
): T[] {
  try {
    const raw = storage?.getItem(key);
    if (!raw) return [];
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter(valid) : [];
  } catch {
    return [];
  }
}

export function writeList(storage: Pick<Storage, 'setItem'> | undefined, key: string, list: unknown[]): void {
  try {
    storage?.setItem(key, JSON.stringify(list));
  } catch {
    // Storage full or disabled: the list just is not remembered.
  }
}

export const isString = (x: unknown): x is string => typeof x === 'string';
export const isSavedFilter = (x: unknown): x is SavedFilter =>
  !!x &&
  typeof x === 'object' &&
  typeof (x as SavedFilter).name === 'string' &&
  typeof (x as SavedFilter).query === 'string';

export const RECENT_KEY = 'transcripts.recentSearches';
export const SAVED_KEY = 'transcripts.savedFilters';
