/**
 * Brings the target entry (`?entry=N`) itself into view, not just the reader item holding it: a
 * tool run or a subagent thread can be thousands of pixels tall, and the entry sits somewhere
 * inside. The reader's list first brings the item into range; then the element marked
 * `data-target-entry` is followed until it rests just below the sticky bars (settle-scroll.ts).
 * It runs once per target (`mark`): when earlier pages load above later on, the item's index
 * moves, but the reader is not pulled back to the target.
 */
import type { Virtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type RefObject } from 'react';
import { settleScroll, stickyBottom } from '../../components/settle-scroll.js';
import { focusMark } from './use-match-keys.js';

/** Gap kept between the sticky bars and the entry's top. */
const MARGIN = 8;

/**
 * `mark` changes when there is a new entry to go to (undefined: none); `itemIndex` is the reader
 * item holding it; `offset` the height of the sticky bars when they cannot be measured.
 */
export function useScrollToTarget(
  mark: string | undefined,
  itemIndex: number | undefined,
  virtualizerRef: RefObject<Virtualizer<Window, Element> | null>,
  offset: number,
): void {
  const index = useRef(itemIndex);
  index.current = itemIndex;
  const ready = itemIndex !== undefined;
  useEffect(() => {
    if (mark === undefined || !ready) return;
    return settleScroll({
      virtualizer: () => virtualizerRef.current,
      index: () => index.current,
      find: () => document.querySelector('[data-target-entry]'),
      top: () => stickyBottom(offset) + MARGIN,
      // Arrived from search: the first match in the entry is the current one, and when the entry
      // is long enough to hold it off screen, it is brought to the middle of the view.
      onDone: (settled) => {
        const m = settled ? document.querySelector<HTMLElement>('[data-target-entry] mark.ct-mark') : null;
        if (!m) return;
        const r = m.getBoundingClientRect();
        if (r.top < stickyBottom(offset) || r.bottom > window.innerHeight) focusMark(m);
        else m.classList.add('ct-mark-current');
      },
    });
  }, [mark, ready, virtualizerRef, offset]);
}

/** Props marking the target entry's element (outlined, and found by useScrollToTarget). */
export function targetProps(isTarget: boolean): { className?: string; 'data-target-entry'?: string } {
  return isTarget ? { className: 'ct-target', 'data-target-entry': '' } : {};
}
