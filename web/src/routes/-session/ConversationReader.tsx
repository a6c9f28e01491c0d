/**
 * The conversation reader: the loaded entries grouped (entry-groups.ts) into dialogue on a
 * spine, folded tool runs, notices and bookkeeping, in a virtualised list so the DOM stays
 * bounded however long the transcript is. Opens at a target entry (search, permalink).
 */
import type { Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { WindowList } from '../../components/WindowList.js';
import { EntryGrouper, type ReaderItem, type SubagentFileHead } from '../../lib/entry-groups.js';
import type { TranscriptEntry } from '../../queries/api.js';
import { itemRenderers, type ItemContext } from './conversation-items.js';
import type { TranscriptState } from './use-transcript.js';
import { useScrollToTarget } from './use-scroll-to-target.js';

export const MAIN_FILE = 'transcript.jsonl';
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
}

export function ConversationReader({
  sessionId,
  file,
  t,
  re,
  target,
  subagentHeads,
  virtualizerRef,
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
  // into view (it may sit deep inside a tool run or a subagent thread).
  const targetItem = target === undefined ? undefined : grouper.itemOf(target);
  const mark = targetItem === undefined ? undefined : `${key}:${target}`;
  const targetKey = targetItem === undefined ? undefined : items[targetItem]?.key;
  useEffect(() => {
    if (targetKey !== undefined)
      setOpen((prev) => (prev.has(targetKey) ? prev : new Set(prev).add(targetKey)));
  }, [mark, targetKey]);
  useScrollToTarget(mark, targetItem, virtualizerRef, STICKY_OFFSET);

  const renderItem = (item: ReaderItem, i: number) => {
    const ctx: ItemContext = {
      sessionId,
      file,
      re,
      target: i === targetItem ? target : undefined,
      open: open.has(item.key),
      toggle: () => toggle(item.key),
      subagentHeads,
    };
    const Render = itemRenderers[item.type];
    return (
      <div
        data-testid={i === targetItem ? 'target-item' : undefined}
        data-target-item={i === targetItem ? '' : undefined}
        data-item={item.type}
      >
        <Render item={item} ctx={ctx} />
      </div>
    );
  };

  return (
    <WindowList
      testId="conversation-reader"
      items={items}
      getKey={(item) => item.key}
      estimateSize={(i) => (items[i]?.type === 'message' ? 90 : 30)}
      renderItem={renderItem}
      onNearEnd={t.loadMore}
      gap={2}
      scrollPaddingStart={STICKY_OFFSET}
      virtualizerRef={virtualizerRef}
    />
  );
}
