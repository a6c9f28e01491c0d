/**
 * `You` / `Claude`: one side of the conversation from `GET /api/sessions/{id}/turns`, paged as you
 * scroll. Each turn links to its place in the full transcript. An empty side is explained: turns
 * come from full-content chunks, and a session without them has none.
 */
import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import type { Virtualizer } from '@tanstack/react-virtual';
import { AnchorLink } from '../../components/AnchorLink.js';
import { useMemo, type RefObject } from 'react';
import { HighlightedText } from '../../components/HighlightedText.js';
import { WindowList } from '../../components/WindowList.js';
import { formatClock, formatCountOf, formatTimestamp, shortModel } from '../../lib/format.js';
import { describeError, type Turn } from '../../queries/api.js';
import { turnsInfiniteOptions, type TurnRole } from '../../queries/transcript.js';
import { MAIN_FILE, STICKY_OFFSET } from './ConversationReader.js';

function TurnRow({ turn, sessionId, re }: { turn: Turn; sessionId: string; re: RegExp | null }) {
  const you = turn.role === 'user';
  return (
    <div className="ct-spine" data-testid="turn" data-entry={turn.index}>
      <span
        className="ct-spine-dot"
        style={{ background: `var(--mantine-color-${you ? 'blue' : 'orange'}-6)` }}
      />
      <Stack gap={2} py={6}>
        <Group gap={8}>
          <Text size="sm" fw={700} c={you ? 'blue.3' : 'orange.3'}>
            {you ? 'You' : 'Claude'}
          </Text>
          {turn.model && (
            <Text size="xs" c="dimmed">
              {shortModel(turn.model)}
            </Text>
          )}
          <Text size="xs" c="dimmed" title={formatTimestamp(turn.timestamp)}>
            {formatClock(turn.timestamp)}
          </Text>
          <AnchorLink
            to="/sessions/$id"
            params={{ id: sessionId }}
            from="/sessions/$id"
            // The rest of the page's state (the terms highlighted, the reader) goes along.
            search={(old) => ({
              ...old,
              view: 'both',
              entry: turn.index,
              file: turn.file === MAIN_FILE ? undefined : turn.file,
            })}
            size="xs"
            c="dimmed"
          >
            #{turn.index} in the transcript
          </AnchorLink>
        </Group>
        <Text size="sm" className="ct-text">
          <HighlightedText text={turn.text} re={re} />
        </Text>
      </Stack>
    </div>
  );
}

export function TurnsList({
  sessionId,
  role,
  pageSize,
  re,
  virtualizerRef,
  activeIndex,
}: {
  sessionId: string;
  role: TurnRole;
  pageSize: number;
  re: RegExp | null;
  /** Receives the list's virtualizer, which j/k step through as in the readers. */
  virtualizerRef?: RefObject<Virtualizer<Window, Element> | null>;
  /** The turn marked current (j/k). */
  activeIndex?: number;
}) {
  const q = useInfiniteQuery(turnsInfiniteOptions(sessionId, role, pageSize));
  const turns = useMemo(() => q.data?.pages.flatMap((p) => p.turns) ?? [], [q.data]);
  const total = q.data?.pages[0]?.total ?? 0;
  const side = role === 'user' ? 'You' : 'Claude';
  if (q.isLoading) return <Loader size="sm" m="md" />;
  if (q.isError)
    return (
      <Alert color="red" title="Cannot load the turns" data-testid="turns-error">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{describeError(q.error).message}</Text>
          <Button size="compact-sm" variant="light" color="red" onClick={() => void q.refetch()}>
            Retry
          </Button>
        </Stack>
      </Alert>
    );
  if (total === 0)
    return (
      <Alert color="gray" variant="light" title={`No “${side}” turns`} data-testid="turns-empty">
        Turns are built from full-content chunks. This session has no full-content chunks
        {role === 'user' ? ' with a prompt of your own' : ' with an answer from Claude'}, so this side is
        empty. The full transcript is under <b>Both</b>.
      </Alert>
    );
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" mb={4} data-testid="turns-count">
        {formatCountOf(total, `“${side}” turn`)}
      </Text>
      <WindowList
        testId="turns-list"
        items={turns}
        getKey={(t) => `${t.file}:${t.index}`}
        estimateSize={() => 80}
        renderItem={(t) => <TurnRow turn={t} sessionId={sessionId} re={re} />}
        onNearEnd={() => {
          if (q.hasNextPage && !q.isFetchingNextPage) void q.fetchNextPage();
        }}
        gap={2}
        scrollPaddingStart={STICKY_OFFSET}
        virtualizerRef={virtualizerRef}
        activeIndex={activeIndex}
      />
      {q.isFetchingNextPage && <Loader size="xs" m="sm" />}
    </Stack>
  );
}
