/**
 * Where the session list was, per history entry: the first row visible below the header (its
 * session id and where its top sat), so Back from a session returns to that row. A pixel offset
 * alone lands elsewhere in a long virtualised list: rows not rendered yet have estimated heights,
 * so the same scrollY names another row once they are measured. Kept in sessionStorage (like the
 * router's own scroll positions), so a reload and Back still find it.
 */
import { useRouterState } from '@tanstack/react-router';
import { useCallback, useMemo } from 'react';
import type { ListAnchor } from '../../components/WindowList.js';

const KEY = 'transcripts.listPositions';
const KEEP = 50;

function readAll(): Record<string, ListAnchor> {
  try {
    const raw = JSON.parse(sessionStorage.getItem(KEY) ?? '{}') as unknown;
    return raw && typeof raw === 'object' ? (raw as Record<string, ListAnchor>) : {};
  } catch {
    return {};
  }
}

let positions: Record<string, ListAnchor> | null = null;

function all(): Record<string, ListAnchor> {
  return (positions ??= readAll());
}

function save(entry: string, anchor: ListAnchor): void {
  const map = all();
  delete map[entry];
  map[entry] = anchor;
  const keys = Object.keys(map);
  for (const k of keys.slice(0, Math.max(0, keys.length - KEEP))) delete map[k];
  try {
    sessionStorage.setItem(KEY, JSON.stringify(map));
  } catch {
    // kept for this page only
  }
}

/** The remembered row of this history entry (to restore) and the callback that remembers it. */
export function useListPosition(): { restore: ListAnchor | null; onAnchor: (a: ListAnchor) => void } {
  const entry = useRouterState({
    select: (s) => (s.location.state as { __TSR_key?: string }).__TSR_key ?? s.location.href,
  });
  // Read once per history entry: what it held when the page (re)appeared.
  const restore = useMemo(() => {
    const a = all()[entry];
    return a && typeof a.key === 'string' && typeof a.top === 'number' ? a : null;
  }, [entry]);
  // Saved under the history entry the browser is on, and only while that is the list: leaving
  // for a session scrolls the window before the list is gone.
  const onAnchor = useCallback((a: ListAnchor) => {
    const current = (window.history.state as { __TSR_key?: string } | null)?.__TSR_key;
    if (current && /^\/app\/?$/.test(window.location.pathname)) save(current, a);
  }, []);
  return { restore, onAnchor };
}
