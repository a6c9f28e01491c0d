/**
 * The raw reader: every entry one line (index, role, kind, time, a preview); a line opens to the
 * entry's raw JSON exactly as stored, fetched from `GET /api/sessions/{id}/raw/{index}`.
 * Virtualised like the conversation reader, over the same loaded pages.
 */
import { Anchor, Badge, Box, Code, CopyButton, Group, Loader, Text, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Virtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useState, type RefObject } from 'react';
import { HighlightedText } from '../../components/HighlightedText.js';
import { WindowList } from '../../components/WindowList.js';
import { formatClock, formatCountOf } from '../../lib/format.js';
import { describeError, type TranscriptEntry } from '../../queries/api.js';
import { rawEntryQueryOptions } from '../../queries/transcript.js';
import { STICKY_OFFSET } from './ConversationReader.js';
import { targetProps, useScrollToTarget } from './use-scroll-to-target.js';
import type { TranscriptState } from './use-transcript.js';

const ROLE_COLOR: Record<string, string> = {
  user: 'blue',
  assistant: 'orange',
  tool_result: 'teal',
  system: 'gray',
  other: 'gray',
};

/** One line of preview for an entry. */
export function entryPreview(e: TranscriptEntry): string {
  if (e.malformed) return `malformed: ${e.error ?? ''} ${e.text ?? ''}`;
  const parts: string[] = [];
  if (e.text) parts.push(e.text);
  if (e.thinking && !e.text) parts.push(`(thinking) ${e.thinking}`);
  if (e.toolUses?.length) parts.push(`→ ${e.toolUses.map((u) => u.name).join(', ')}`);
  if (e.toolResults?.length)
    parts.push(`← ${e.toolResults.map((r) => (r.isError ? `error: ${r.content}` : r.content)).join(' | ')}`);
  if (e.images?.length) parts.push(`[${formatCountOf(e.images.length, 'image')}]`);
  return parts.join(' ').replace(/\s+/g, ' ').slice(0, 300);
}

function prettyJson(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

function RawJson({ sessionId, file, index }: { sessionId: string; file: string; index: number }) {
  const raw = useQuery(rawEntryQueryOptions(sessionId, file, index));
  const [pretty, setPretty] = useState(true);
  if (raw.isLoading) return <Loader size="xs" m="xs" />;
  if (raw.isError) {
    return (
      <Group gap="xs" p="xs">
        <Text size="xs" c="red.4">
          {describeError(raw.error).message}
        </Text>
        <Anchor component="button" size="xs" onClick={() => void raw.refetch()}>
          Retry
        </Anchor>
      </Group>
    );
  }
  const text = raw.data ?? '';
  return (
    <Box p="xs" data-testid="raw-json">
      <Group gap="xs" mb={4}>
        <Anchor component="button" size="xs" onClick={() => setPretty((v) => !v)}>
          {pretty ? 'as stored' : 'pretty'}
        </Anchor>
        <CopyButton value={text}>
          {({ copied, copy }) => (
            <Anchor component="button" size="xs" onClick={copy}>
              {copied ? 'copied' : 'copy'}
            </Anchor>
          )}
        </CopyButton>
        <Text size="xs" c="dimmed">
          {text.length.toLocaleString('en')} characters
        </Text>
      </Group>
      <pre className="ct-pre" style={{ maxHeight: 600, overflow: 'auto' }}>
        {pretty ? prettyJson(text) : text}
      </pre>
    </Box>
  );
}

const RawRow = memo(function RawRow({
  e,
  sessionId,
  file,
  open,
  onToggle,
  re,
}: {
  e: TranscriptEntry;
  sessionId: string;
  file: string;
  open: boolean;
  onToggle: (index: number) => void;
  re: RegExp | null;
}) {
  return (
    <Box
      data-testid="raw-row"
      data-entry={e.index}
      style={{ borderBottom: '1px solid var(--mantine-color-dark-6)' }}
    >
      <UnstyledButton onClick={() => onToggle(e.index)} w="100%" py={3} aria-expanded={open}>
        <Group gap={8} wrap="nowrap">
          <Code style={{ flexShrink: 0, minWidth: 48, textAlign: 'right' }}>{e.index}</Code>
          <Badge
            size="xs"
            variant="light"
            color={e.malformed ? 'red' : (ROLE_COLOR[e.role] ?? 'gray')}
            tt="none"
            w={80}
            style={{ flexShrink: 0 }}
          >
            {e.role}
          </Badge>
          <Text size="xs" c="dimmed" w={150} truncate style={{ flexShrink: 0 }} visibleFrom="sm">
            {e.kind}
          </Text>
          <Text size="xs" c="dimmed" w={60} style={{ flexShrink: 0 }} visibleFrom="sm">
            {formatClock(e.timestamp)}
          </Text>
          <Text size="xs" truncate style={{ minWidth: 0, flex: 1 }} ff="monospace">
            <HighlightedText text={entryPreview(e)} re={re} />
          </Text>
        </Group>
      </UnstyledButton>
      {open && <RawJson sessionId={sessionId} file={file} index={e.index} />}
    </Box>
  );
});

const NONE_OPEN: ReadonlySet<number> = new Set();

export function RawReader({
  sessionId,
  file,
  t,
  re,
  target,
  virtualizerRef,
  activeIndex,
}: {
  sessionId: string;
  file: string;
  t: TranscriptState;
  re: RegExp | null;
  target?: number;
  virtualizerRef: RefObject<Virtualizer<Window, Element> | null>;
  activeIndex?: number;
}) {
  // The rows opened, per file: entry 5 of the main transcript is not entry 5 of a subagent's, and
  // a file shown again has its own rows open as they were (the reader stays mounted across files).
  const [openByFile, setOpenByFile] = useState<ReadonlyMap<string, ReadonlySet<number>>>(new Map());
  const fileKey = `${sessionId}\n${file}`;
  const open = openByFile.get(fileKey) ?? NONE_OPEN;
  const onToggle = useCallback(
    (i: number) =>
      setOpenByFile((prev) => {
        const next = new Set(prev.get(fileKey));
        if (next.has(i)) next.delete(i);
        else next.add(i);
        return new Map(prev).set(fileKey, next);
      }),
    [fileKey],
  );
  const targetPos = target === undefined ? -1 : t.positionOf(target);
  useScrollToTarget(
    targetPos < 0 ? undefined : `${sessionId}:${file}:${target}`,
    targetPos < 0 ? undefined : targetPos,
    virtualizerRef,
    STICKY_OFFSET,
  );
  const { loadEarlier } = t;
  const onNearStart = useCallback(() => loadEarlier(), [loadEarlier]);

  return (
    <WindowList
      testId="raw-reader"
      items={t.entries}
      getKey={(e) => e.index}
      estimateSize={() => 27}
      gap={0}
      renderItem={(e) => (
        <div
          {...targetProps(e.index === target)}
          data-testid={e.index === target ? 'target-item' : undefined}
          data-target-item={e.index === target ? '' : undefined}
        >
          <RawRow
            e={e}
            sessionId={sessionId}
            file={file}
            open={open.has(e.index)}
            onToggle={onToggle}
            re={re}
          />
        </div>
      )}
      onNearEnd={t.loadMore}
      onNearStart={onNearStart}
      keepPosition
      activeIndex={activeIndex}
      scrollPaddingStart={STICKY_OFFSET}
      virtualizerRef={virtualizerRef}
    />
  );
}
