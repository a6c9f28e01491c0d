/**
 * The conversation reader: the loaded entries grouped (entry-groups.ts) into dialogue on a
 * spine, folded tool runs, notices and bookkeeping, in a virtualised list so the DOM stays
 * bounded however long the transcript is. Opens at a target entry (search, permalink).
 */
import type { Virtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { WindowList } from '../../components/WindowList.js';
import { EntryGrouper, type ReaderItem, type SubagentFileHead } from '../../lib/entry-groups.js';
import type { TranscriptEntry } from '../../queries/api.js';
import { itemRenderers, type ItemContext } from './conversation-items.js';
import { dayBreaks } from '../../lib/day-breaks.js';
import { DaySeparator } from './DaySeparator.js';
import { matchingItems } from '../../lib/item-text.js';
import { useMatchKeys } from './use-match-keys.js';
import type { TranscriptState } from './use-transcript.js';
import { useScrollToTarget } from './use-scroll-to-target.js';

export const MAIN_FILE = 'transcript.jsonl';
/** Earlier pages loaded, at most, to give a target its call or Task before landing on it. */
const MAX_CONTEXT_PAGES = 10;
/** Header (56) + the sticky toolbar: kept clear when scrolling to an item. */
export const STICKY_OFFSET = 120;

interface GrouperRef {
  key: string;
  first: TranscriptEntry | undefined;
  grouper: EntryGrouper;
}

export interface ConversationReaderProps {
  sessionId: string;
  file: string;
  t: TranscriptState;
  re: RegExp | null;
  target?: number;
  subagentHeads: SubagentFileHead[];
  virtualizerRef: RefObject<Virtualizer<Window, Element> | null>;
  /** The item marked current (j/k). */
  activeIndex?: number;
}

interface ReaderRowProps extends Omit<ItemContext, 'toggle'> {
  item: ReaderItem;
  isTarget: boolean;
  onToggle: (key: string) => void;
  /** The item starts a new day: its time, for the separator above it. */
  dayStart?: string;
}

/** Whether item `i` goes on the API message the item before it began (streamed as more lines). */
function continuesMessage(items: readonly ReaderItem[], i: number): boolean {
  const a = items[i - 1];
  const b = items[i];
  return (
    a?.type === 'message' &&
    b?.type === 'message' &&
    b.entry.role === 'assistant' &&
    a.entry.role === 'assistant' &&
    !!b.entry.messageId &&
    a.entry.messageId === b.entry.messageId
  );
}

/**
 * One item of the reader. Memoised: a page of entries arriving regroups only the items at the end
 * (the grouper keeps unchanged items' identity), so the rows on screen need not render again —
 * rendering them all on every page was most of what loading a long transcript cost.
 */
const ReaderRow = memo(function ReaderRow({ item, isTarget, onToggle, dayStart, ...rest }: ReaderRowProps) {
  const { sessionId, file, re, target, open, subagentHeads, earlierUnloaded, continues } = rest;
  const key = item.key;
  const ctx = useMemo<ItemContext>(
    () => ({
      sessionId,
      file,
      re,
      target,
      open,
      toggle: () => onToggle(key),
      subagentHeads,
      earlierUnloaded,
      continues,
    }),
    [sessionId, file, re, target, open, onToggle, key, subagentHeads, earlierUnloaded, continues],
  );
  const Render = itemRenderers[item.type];
  return (
    <div
      data-testid={isTarget ? 'target-item' : undefined}
      data-target-item={isTarget ? '' : undefined}
      data-item={item.type}
    >
      {dayStart && <DaySeparator at={dayStart} />}
      <Render item={item} ctx={ctx} />
    </div>
  );
});

export function ConversationReader({
  sessionId,
  file,
  t,
  re,
  target,
  subagentHeads,
  virtualizerRef,
  activeIndex,
}: ConversationReaderProps) {
  const ref = useRef<GrouperRef | null>(null);
  const key = `${sessionId}\u0000${file}`;
  const { items, grouper } = useMemo(() => {
    let cur = ref.current;
    if (!cur || cur.key !== key || cur.grouper.count > t.entries.length || cur.first !== t.entries[0]) {
      cur = { key, first: t.entries[0], grouper: new EntryGrouper({ groupSidechains: file === MAIN_FILE }) };
      ref.current = cur;
    }
    const items: ReaderItem[] = cur.grouper.append(t.entries.slice(cur.grouper.count));
    return { items, grouper: cur.grouper };
  }, [key, file, t.entries]);

  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => setOpen(new Set()), [key]);
  const toggle = useCallback(
    (k: string) =>
      setOpen((prev) => {
        const next = new Set(prev);
        if (next.has(k)) next.delete(k);
        else next.add(k);
        return next;
      }),
    [],
  );

  // Open at the target entry once it is loaded: expand its item, then bring the entry itself
  // into view (it may sit deep inside a tool run or a subagent thread). Opened deep in a
  // transcript, the pages start at the target's: when its item lacks what comes before it — a
  // subagent's work whose Task call is earlier, a tool result whose call is — the earlier pages
  // load first (a few at most), so it opens inside its call as it would from the top.
  const targetItem = target === undefined ? undefined : grouper.itemOf(target);
  const held = targetItem === undefined ? undefined : items[targetItem];
  const lacksContext =
    t.earlier > 0 &&
    held !== undefined &&
    (held.type === 'subagent' || (held.type === 'tools' && held.orphans.some((o) => o.index === target)));
  // For this target: the entries before the first loaded when last asked, the pages that have
  // come in above since it began, and what was loaded when last asked. Only pages that arrived
  // count: an ask the query could not take (another page on its way) is made again once
  // something has loaded, without using up the allowance.
  const [context, setContext] = useState({ for: '', earlier: -1, back: 0, at: '' });
  const contextFor = `${key}:${target}`;
  const { loadEarlier, isFetching } = t;
  const mine =
    context.for === contextFor ? context : { for: contextFor, earlier: t.earlier, back: 0, at: '' };
  const wantContext = lacksContext && mine.back < MAX_CONTEXT_PAGES;
  const loadedNow = `${t.earlier}:${t.loaded}`;
  useEffect(() => {
    if (!wantContext || isFetching) return;
    const back = mine.back + (t.earlier < mine.earlier ? 1 : 0);
    if (mine.at === loadedNow && back === mine.back) return;
    setContext({ for: contextFor, earlier: t.earlier, back, at: loadedNow });
    if (back < MAX_CONTEXT_PAGES) loadEarlier(true);
  }, [
    wantContext,
    isFetching,
    loadedNow,
    t.earlier,
    mine.earlier,
    mine.back,
    mine.at,
    contextFor,
    loadEarlier,
  ]);
  const mark = targetItem === undefined || wantContext ? undefined : `${key}:${target}`;
  const targetKey = targetItem === undefined ? undefined : items[targetItem]?.key;
  useEffect(() => {
    if (targetKey !== undefined)
      setOpen((prev) => (prev.has(targetKey) ? prev : new Set(prev).add(targetKey)));
  }, [mark, targetKey]);
  useScrollToTarget(mark, targetItem, virtualizerRef, STICKY_OFFSET);

  // Earlier pages regroup the items above (a tool run may grow upward): the row that was at the
  // top is found again by the first entry its key names (m12, t12, n12, x12, s12).
  const anchorIndexOf = useCallback(
    (itemKey: string) => {
      const n = Number(itemKey.slice(1));
      return Number.isInteger(n) ? grouper.itemOf(n) : undefined;
    },
    [grouper],
  );
  const onNearStart = useCallback(() => loadEarlier(), [loadEarlier]);

  const earlierUnloaded = t.earlier > 0;
  const breaks = useMemo(() => dayBreaks(items), [items]);
  const matches = useMemo(() => matchingItems(items, re), [items, re]);
  const openItem = useCallback(
    (k: string) => setOpen((prev) => (prev.has(k) ? prev : new Set(prev).add(k))),
    [],
  );
  useMatchKeys(items, matches, virtualizerRef, openItem);
  const renderItem = (item: ReaderItem, i: number) => (
    <ReaderRow
      item={item}
      isTarget={i === targetItem}
      dayStart={breaks.get(i)}
      continues={!breaks.has(i) && continuesMessage(items, i)}
      target={i === targetItem ? target : undefined}
      open={open.has(item.key)}
      onToggle={toggle}
      sessionId={sessionId}
      file={file}
      re={re}
      subagentHeads={subagentHeads}
      earlierUnloaded={earlierUnloaded}
    />
  );

  return (
    <WindowList
      testId="conversation-reader"
      items={items}
      getKey={(item) => item.key}
      estimateSize={(i) => (items[i]?.type === 'message' ? 90 : 30)}
      renderItem={renderItem}
      onNearEnd={t.loadMore}
      onNearStart={onNearStart}
      keepPosition
      anchorIndexOf={anchorIndexOf}
      activeIndex={activeIndex}
      gap={2}
      scrollPaddingStart={STICKY_OFFSET}
      virtualizerRef={virtualizerRef}
    />
  );
}
