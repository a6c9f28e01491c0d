/**
 * The transcript's entries, shared by both readers: loaded in blocks of
 * `userSettings.transcriptPageSize`, on scroll (`loadMore`) and in the background while the tab is
 * visible, up to `userSettings.transcriptAutoLoadMax` entries; past that, `loadRest()` (the
 * button) lets loading continue to both ends.
 *
 * An entry to open at (`target`: arrival from search, a `#N` permalink, `?entry=`) is fetched
 * directly: the pages start at the page holding it (the transcript route takes offset/limit), the
 * readers land on it, and the entries before it load as the reader scrolls up (`loadEarlier`).
 * Entry indexes normally equal offsets in their file; where a file's indexes start elsewhere, the
 * first page fetched tells by how much, and the next jump corrects for it. A target that is close
 * past what is loaded is reached page by page instead; one the file does not have is reported
 * (`targetMissing`) and the reader stays at the top.
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
  /** Entries are left to load, after or before those loaded. */
  hasMore: boolean;
  /** How many entries come before the first one loaded (0: loaded from the start). */
  earlier: number;
  loadingEarlier: boolean;
  /** The ceiling was reached and the rest is not being loaded: show the button. */
  showLoadRest: boolean;
  /** Loading continues to the end (the button was pressed). */
  loadingRest: boolean;
  loadMore: () => void;
  /** Loads the page before the first one loaded (on scroll up once the reader has moved, or forced). */
  loadEarlier: (force?: boolean) => void;
  loadRest: () => void;
  /** Tries again after a failed load. */
  retry: () => void;
  /** Position of entry `index` in `entries`, or -1 when it is not loaded. */
  positionOf: (index: number) => number;
  /** The target entry is not in this file. */
  targetMissing: boolean;
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

/** A page asked for while one is on its way waits for it instead of cancelling it. */
const KEEP = { cancelRefetch: false } as const;

/** How far past what is loaded a target may be and still be reached page by page. */
const NEAR_PAGES = 2;
/** Jumps tried for one target before walking to it page by page. */
const MAX_JUMPS = 2;

interface Place {
  fileKey: string;
  /** The offset the pages start at (a page boundary). */
  start: number;
  /** The target this place was chosen for, and how many jumps it took. */
  target: number | undefined;
  jumps: number;
}

export function useTranscript(
  id: string,
  file: string,
  settings: { pageSize: number; autoLoadMax: number },
  target?: number,
  knownEntries?: number,
): TranscriptState {
  const { pageSize } = settings;
  const fileKey = `${id}\u0000${file}`;
  const align = useCallback(
    (offset: number) => Math.max(0, Math.floor(offset / pageSize) * pageSize),
    [pageSize],
  );
  /** Where a file opens: at the page holding the target (as far as the file reaches), else the top. */
  const opening = (): Place => {
    if (target === undefined) return { fileKey, start: 0, target, jumps: 0 };
    const last = knownEntries !== undefined && knownEntries > 0 ? knownEntries - 1 : target;
    return { fileKey, start: align(Math.min(target, last)), target, jumps: 0 };
  };
  const [placed, setPlace] = useState<Place>(opening);
  const place = placed.fileKey === fileKey ? placed : opening();
  useEffect(() => {
    if (placed.fileKey !== fileKey) setPlace(place);
  });
  const start = place.start;

  const options = useMemo(
    () => transcriptInfiniteOptions(id, file, pageSize, start),
    [id, file, pageSize, start],
  );
  const query = useInfiniteQuery({
    ...options,
    // While another part of the same file loads (a jump to an entry), what is shown stays.
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1] === id && previousQuery.queryKey[2] === file ? previous : undefined,
  });
  const queryClient = useQueryClient();
  const [rest, setRest] = useState(false);
  const visible = useDocumentVisible();
  useEffect(() => setRest(false), [id, file]);

  const entries = useMemo(() => query.data?.pages.flatMap((p) => p.entries) ?? [], [query.data]);
  const pages = query.data?.pages ?? [];
  // The newest page knows the newest total.
  const total = pages[pages.length - 1]?.total ?? 0;
  const firstOffset = pages[0]?.offset ?? 0;
  const loaded = entries.length;
  const firstIndex = entries[0]?.index ?? -1;
  const lastIndex = entries[entries.length - 1]?.index ?? -1;
  const hasNext = Boolean(query.hasNextPage);
  const hasPrevious = Boolean(query.hasPreviousPage);
  const settled = query.data !== undefined && !query.isPlaceholderData;
  const underCeiling = loaded < settings.autoLoadMax;

  const { fetchNextPage, fetchPreviousPage, isFetchingPreviousPage, isFetching, isError } = query;
  const canFetchNext = hasNext && !isFetching && !isError;
  const canFetchPrevious = hasPrevious && !isFetching && !isError;

  const positionOf = useCallback(
    (index: number) => {
      const first = entries[0]?.index ?? 0;
      const guess = index - first;
      if (entries[guess]?.index === index) return guess;
      return entries.findIndex((e) => e.index === index);
    },
    [entries],
  );

  // Find the target: a jump to its page, page by page when it is close, or missing.
  const [missing, setMissing] = useState<number | null>(null);
  const jumps = place.target === target ? place.jumps : 0;
  const found = target !== undefined && settled && positionOf(target) >= 0;
  useEffect(() => {
    if (target === undefined || found || missing === target || !settled || isFetching || isError) return;
    const inRange = loaded > 0 && target >= firstIndex && target <= lastIndex;
    const after = loaded === 0 || target > lastIndex;
    const more = after ? hasNext : hasPrevious;
    if (inRange || !more) {
      // Not in this file: say so, and read it from the top.
      setMissing(target);
      if (start !== 0) setPlace({ fileKey, start: 0, target, jumps });
      return;
    }
    const distance = after ? target - lastIndex : firstIndex - target;
    if (distance > NEAR_PAGES * pageSize && jumps < MAX_JUMPS) {
      // This file's entry `index` sits at offset `index - (firstIndex - firstOffset)`.
      const base = loaded > 0 ? firstIndex - firstOffset : 0;
      const to = align(Math.max(0, Math.min(target - base, Math.max(0, total - 1))));
      if (to !== start) {
        setPlace({ fileKey, start: to, target, jumps: jumps + 1 });
        return;
      }
    }
    void (after ? fetchNextPage(KEEP) : fetchPreviousPage(KEEP));
  }, [
    target,
    found,
    missing,
    settled,
    isFetching,
    isError,
    loaded,
    firstIndex,
    lastIndex,
    firstOffset,
    hasNext,
    hasPrevious,
    jumps,
    pageSize,
    total,
    start,
    fileKey,
    align,
    fetchNextPage,
    fetchPreviousPage,
  ]);
  const locating = target !== undefined && !found && missing !== target;

  const loadMore = useCallback(() => {
    if (canFetchNext && (underCeiling || rest)) void fetchNextPage(KEEP);
  }, [canFetchNext, underCeiling, rest, fetchNextPage]);

  // Earlier pages load as the reader scrolls up to them — once the reader has moved since the
  // pages started (landing on an entry shows it first, without loading above it at once).
  const moved = useRef(false);
  useEffect(() => {
    moved.current = false;
    const on = () => (moved.current = true);
    const events = ['wheel', 'touchmove', 'keydown', 'mousedown'] as const;
    for (const ev of events) window.addEventListener(ev, on, { passive: true });
    return () => {
      for (const ev of events) window.removeEventListener(ev, on);
    };
  }, [fileKey, start]);
  const loadEarlier = useCallback(
    (force = false) => {
      if (canFetchPrevious && !locating && (force || moved.current)) void fetchPreviousPage(KEEP);
    },
    [canFetchPrevious, locating, fetchPreviousPage],
  );

  // Background loading forward while the tab is visible, under the ceiling (both ways once the
  // rest was asked for).
  useEffect(() => {
    if (isFetching || isError || locating || !settled) return;
    if (rest && (hasNext || hasPrevious)) {
      const t = setTimeout(() => void (hasNext ? fetchNextPage(KEEP) : fetchPreviousPage(KEEP)), 0);
      return () => clearTimeout(t);
    }
    if (!hasNext || !visible || !underCeiling) return;
    const t = setTimeout(() => void fetchNextPage(KEEP), 30);
    return () => clearTimeout(t);
  }, [
    isFetching,
    isError,
    locating,
    settled,
    rest,
    hasNext,
    hasPrevious,
    visible,
    underCeiling,
    fetchNextPage,
    fetchPreviousPage,
    loaded,
  ]);

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

  const hasMore = hasNext || hasPrevious;
  return {
    entries,
    total,
    loaded,
    isLoading: query.isLoading,
    isFetching,
    error: query.error,
    hasMore,
    earlier: hasPrevious ? firstOffset : 0,
    loadingEarlier: isFetchingPreviousPage,
    showLoadRest: hasMore && !underCeiling && !rest && !locating,
    loadingRest: rest && hasMore,
    loadMore,
    loadEarlier,
    loadRest: () => setRest(true),
    retry: () => void query.refetch(),
    positionOf,
    targetMissing: target !== undefined && missing === target,
  };
}
