/**
 * The session rows' columns (web/src/lib/session-columns.ts) from this browser's localStorage,
 * shared by every component that shows rows and kept in sync across tabs, as the saved filters
 * are (../-root/use-saved-items.ts). When storage refuses a write (private mode, quota) the choice
 * lasts as long as the page.
 */
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { browserStorage, keyedSubscription } from '../../lib/local-store.js';
import type { SessionSortKey } from '../../lib/session-sort.js';
import {
  COLUMNS_KEY,
  DEFAULT_COLUMNS,
  parseColumns,
  rowFacts,
  writeColumns,
  type SessionColumns,
  type SessionFact,
} from '../../lib/session-columns.js';

const store = keyedSubscription([COLUMNS_KEY]);
/** The last value read, by the stored text it came from: the same choice keeps one identity. */
let cache: { raw: string | null; value: SessionColumns } = { raw: null, value: DEFAULT_COLUMNS };
/** The choice for this page when storage refused it. */
let memory: SessionColumns | null = null;

function snapshot(): SessionColumns {
  if (memory) return memory;
  let raw: string | null;
  try {
    raw = browserStorage()?.getItem(COLUMNS_KEY) ?? null;
  } catch {
    return DEFAULT_COLUMNS;
  }
  if (raw !== cache.raw) cache = { raw, value: parseColumns(raw) };
  return cache.value;
}

function write(next: SessionColumns): void {
  memory = writeColumns(browserStorage(), next) ? null : next;
  store.changed();
}

/** The stored choice and a setter (`DEFAULT_COLUMNS` resets it). */
export function useSessionColumns(): [SessionColumns, (next: SessionColumns) => void] {
  const columns = useSyncExternalStore(store.subscribe, snapshot, () => DEFAULT_COLUMNS);
  return [columns, useCallback((next: SessionColumns) => write(next), [])];
}

/** Row fact lists handed out so far, by content: one array per selection, so memoised rows keep still. */
const interned = new Map<string, readonly SessionFact[]>();

/** The facts each row shows (see rowFacts), as an array whose identity changes only with its content. */
export function useRowFacts(
  columns: SessionColumns,
  sortedBy: SessionSortKey | null,
): readonly SessionFact[] {
  return useMemo(() => {
    const facts = rowFacts(columns, sortedBy);
    const key = facts.join(',');
    let hit = interned.get(key);
    if (!hit) interned.set(key, (hit = Object.freeze(facts)));
    return hit;
  }, [columns, sortedBy]);
}
