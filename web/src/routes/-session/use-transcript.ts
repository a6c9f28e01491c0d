/**
 * The transcript's entries, shared by both readers: loaded in blocks of
 * `userSettings.transcriptPageSize`, on scroll (`loadMore`) and in the background while the tab is
 * visible, up to `userSettings.transcriptAutoLoadMax` entries; past that, `loadRest()` (the
 * button) lets loading continue to the end. An entry to open at (`target`, arrival from search or
 * a permalink) is always loaded, ceiling or not.
 *
 * Live sessions grow: when `knownEntries` (the file's entry count from the polled session) passes
 * the transcript's `total`, the pages' total is raised to it, so the next block past what is
 * loaded is fetched like any other (automatically under the ceiling; past it the button offers
 * the larger count). Loaded pages are kept as they are, so the reader keeps its place.
 */
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { TranscriptEntry } from '../../queries/api.js';
import { transcriptInfiniteOptions } from '../../queries/transcript.js';

export interface TranscriptState {
  entries: TranscriptEntry[];
  total: number;
  loaded: number;
  isLoading: boolean;
  isFetching: boolean;
  error: unknown;
  hasMore: boolean;
  /** The ceiling was reached and the rest is not being loaded: show the button. */
  showLoadRest: boolean;
  /** Loading continues to the end (the button was pressed). */
  loadingRest: boolean;
  loadMore: () => void;
  loadRest: () => void;
  /** Tries again after a failed load. */
  retry: () => void;
  /** Position of entry `index` in `entries`, or -1 when it is not loaded. */
  positionOf: (index: number) => number;
}

function useDocumentVisible(): boolean {
  const [visible, setVisible] = useState(
    () => typeof document === 'undefined' || document.visibilityState === 'visible',
  );
  useEffect(() => {
    const on = () => setVisible(document.visibilityState === 'visible');
    document.addEventListener('visibilitychange', on);
    return () => document.removeEventListener('visibilitychange', on);
  }, []);
  return visible;
}

export function useTranscript(
  id: string,
  file: string,
  settings: { pageSize: number; autoLoadMax: number },
  target?: number,
  knownEntries?: number,
): TranscriptState {
  const options = useMemo(
    () => transcriptInfiniteOptions(id, file, settings.pageSize),
    [id, file, settings.pageSize],
  );
  const query = useInfiniteQuery(options);
  const queryClient = useQueryClient();
  const [rest, setRest] = useState(false);
  const visible = useDocumentVisible();
  useEffect(() => setRest(false), [id, file]);

  const entries = useMemo(() => query.data?.pages.flatMap((p) => p.entries) ?? [], [query.data]);
  // The newest page knows the newest total.
  const total = query.data?.pages[query.data.pages.length - 1]?.total ?? 0;
  const loaded = entries.length;
  const hasMore = Boolean(query.hasNextPage);
  const lastIndex = entries[entries.length - 1]?.index ?? -1;
  const needTarget = target !== undefined && target > lastIndex && hasMore;
  const underCeiling = loaded < settings.autoLoadMax;

  const { fetchNextPage, isFetchingNextPage, isFetching, isError } = query;
  const canFetch = hasMore && !isFetchingNextPage && !isError;

  const loadMore = useCallback(() => {
    if (canFetch && (underCeiling || rest)) void fetchNextPage();
  }, [canFetch, underCeiling, rest, fetchNextPage]);

  // Background loading while the tab is visible (and always toward a target entry).
  useEffect(() => {
    if (!canFetch || isFetching) return;
    if (!(needTarget || (visible && (underCeiling || rest)))) return;
    const t = setTimeout(() => void fetchNextPage(), needTarget || rest ? 0 : 30);
    return () => clearTimeout(t);
  }, [canFetch, isFetching, needTarget, visible, underCeiling, rest, fetchNextPage, loaded]);

  // The transcript grew (a live session): raise the total once per new count; what is loaded stays.
  const raisedTo = useRef(0);
  const hasData = query.data !== undefined;
  useEffect(() => {
    raisedTo.current = 0;
  }, [id, file]);
  useEffect(() => {
    if (knownEntries === undefined || !hasData || knownEntries <= total) return;
    if (raisedTo.current >= knownEntries) return;
    raisedTo.current = knownEntries;
    if (loaded === 0) {
      void queryClient.invalidateQueries({ queryKey: options.queryKey, exact: true });
      return;
    }
    queryClient.setQueryData(options.queryKey, (old) =>
      old
        ? {
            ...old,
            pages: old.pages.map((p) => (p.total < knownEntries ? { ...p, total: knownEntries } : p)),
          }
        : old,
    );
  }, [knownEntries, hasData, total, loaded, queryClient, options.queryKey]);

  const positionOf = useCallback(
    (index: number) => {
      const first = entries[0]?.index ?? 0;
      const guess = index - first;
      if (entries[guess]?.index === index) return guess;
      return entries.findIndex((e) => e.index === index);
    },
    [entries],
  );

  return {
    entries,
    total,
    loaded,
    isLoading: query.isLoading,
    isFetching: query.isFetching,
    error: query.error,
    hasMore,
    showLoadRest: hasMore && !underCeiling && !rest && !needTarget,
    loadingRest: rest && hasMore,
    loadMore,
    loadRest: () => setRest(true),
    retry: () => void query.refetch(),
    positionOf,
  };
}
