/**
 * The session list's rows: the pages of `GET /api/sessions` loaded so far in a virtualised list
 * that asks for the next page near its end, the two empty states, and the "loading more" and
 * "all loaded" lines below.
 *
 * Its own component, observing the paged query on its own: each page that loads (and each
 * fetch starting and ending) renders this part only, not the filter bar, pickers and chips above,
 * which observe just the total (`SessionListPage`). Scrolling 328 sessions to the end (pages of
 * 50) took 0.74 s of script with the page drawn whole each time, 0.55 s so (production build,
 * medians of 4; 2.67 and 2.16 s with React's development build).
 */
import { Group, Loader, Text } from '@mantine/core';
import { useQuery, useSuspenseInfiniteQuery } from '@tanstack/react-query';
import type { Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useMemo, type RefObject } from 'react';
import type { AnnotationSummary } from '../../components/ListStar.js';
import { WindowList } from '../../components/WindowList.js';
import { formatCountOf } from '../../lib/format.js';
import type { SessionFact } from '../../lib/session-columns.js';
import type { SessionSortKey } from '../../lib/session-sort.js';
import {
  sessionCountQueryOptions,
  sessionListInfiniteOptions,
  type SessionListParams,
} from '../../queries/sessions.js';
import { NothingMatches, NothingRecorded } from './EmptyList.js';
import { SessionRow } from './SessionRow.js';
import { useListPosition } from './use-list-position.js';

export function SessionResults({
  params,
  pageSize,
  filtered,
  onClear,
  re,
  sortedBy,
  facts,
  compact,
  virtualizerRef,
}: {
  params: SessionListParams;
  pageSize: number;
  /** Filters are active: an empty answer may mean they match nothing rather than an empty instance. */
  filtered: boolean;
  onClear: () => void;
  /** The free text's words, marked in each row. */
  re: RegExp | null;
  sortedBy: SessionSortKey;
  facts: readonly SessionFact[];
  compact: boolean;
  virtualizerRef: RefObject<Virtualizer<Window, Element> | null>;
}) {
  const list = useSuspenseInfiniteQuery(sessionListInfiniteOptions(params, pageSize));
  const position = useListPosition();
  const all = useMemo(() => list.data.pages.flatMap((p) => p.sessions), [list.data]);
  const marks = useMemo(
    () =>
      Object.assign({}, ...list.data.pages.map((p) => p.annotations ?? {})) as Record<
        string,
        AnnotationSummary
      >,
    [list.data],
  );
  const total = list.data.pages[0]?.total ?? 0;
  // With filters and no match, ask whether anything is recorded at all: an empty instance says
  // so (and how to fill it) rather than blaming the filters.
  const recordedTotal = useQuery({
    ...sessionCountQueryOptions(),
    enabled: total === 0 && filtered,
  }).data;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  if (total === 0 && (!filtered || recordedTotal === 0)) return <NothingRecorded filtered={filtered} />;
  if (all.length === 0 && !hasNextPage) return <NothingMatches onClear={onClear} />;
  return (
    <>
      <WindowList
        testId="session-list"
        items={all}
        getKey={(s) => s.id}
        estimateSize={() => (compact ? 30 : 72)}
        gap={compact ? 2 : 6}
        renderItem={(s) => (
          <SessionRow s={s} re={re} sortedBy={sortedBy} facts={facts} mark={marks[s.id]} compact={compact} />
        )}
        onNearEnd={loadMore}
        virtualizerRef={virtualizerRef}
        scrollPaddingStart={56}
        restore={position.restore}
        onAnchor={position.onAnchor}
      />
      {isFetchingNextPage && (
        <Group justify="center" p="sm">
          <Loader size="sm" />
          <Text size="xs" c="dimmed">
            loading more sessions…
          </Text>
        </Group>
      )}
      {!hasNextPage && all.length > 0 && all.length === total && (
        <Text size="xs" c="dimmed" ta="center" data-testid="list-end">
          All {formatCountOf(total, 'session')} loaded.
        </Text>
      )}
    </>
  );
}
