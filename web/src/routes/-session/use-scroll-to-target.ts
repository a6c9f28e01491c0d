/**
 * Brings the target entry (`?entry=N`) itself into view, not just the reader item holding it: a
 * tool run or a subagent thread can be thousands of pixels tall, and the entry sits somewhere
 * inside. The reader first scrolls its virtual list to the item; this then follows the element
 * marked `data-target-entry` until it rests just below the sticky bars. Rows above may still be
 * measured (or open) after the first scroll and push it down, so it keeps correcting for a short
 * while, until the position has held for a few frames — and stops at once when the reader scrolls
 * or types, so it never fights the user.
 */
import type { Virtualizer } from '@tanstack/react-virtual';
import { useEffect, type RefObject } from 'react';

/** Gap kept between the sticky bars and the entry's top. */
const MARGIN = 8;
/** Frames the entry must hold still to be done, and the most frames spent trying. */
const STABLE_FRAMES = 12;
const MAX_FRAMES = 240;

/**
 * `mark` changes when there is a new entry to go to (undefined: none); `itemIndex` is the reader
 * item holding it; `offset` the height of the sticky bars.
 */
export function useScrollToTarget(
  mark: string | undefined,
  itemIndex: number | undefined,
  virtualizerRef: RefObject<Virtualizer<Window, Element> | null>,
  offset: number,
): void {
  useEffect(() => {
    if (mark === undefined || itemIndex === undefined) return;
    let frame = 0;
    let stable = 0;
    let raf = 0;
    let stopped = false;
    const stop = () => {
      stopped = true;
      cancelAnimationFrame(raf);
    };
    const userEvents = ['wheel', 'touchstart', 'keydown', 'mousedown'] as const;
    for (const ev of userEvents) window.addEventListener(ev, stop, { passive: true, once: true });
    virtualizerRef.current?.scrollToIndex(itemIndex, { align: 'start' });
    const tick = () => {
      if (stopped || ++frame > MAX_FRAMES) return;
      const el = document.querySelector<HTMLElement>('[data-target-entry]');
      if (!el) {
        // Not rendered yet: the list may still be bringing its item into range.
        if (!document.querySelector('[data-target-item]'))
          virtualizerRef.current?.scrollToIndex(itemIndex, { align: 'start' });
        stable = 0;
      } else {
        const delta = el.getBoundingClientRect().top - (offset + MARGIN);
        const before = window.scrollY;
        if (Math.abs(delta) > 2) window.scrollTo({ top: before + delta, behavior: 'instant' });
        // Settled, or as close as the page allows (an entry near the end cannot reach the top).
        if (Math.abs(delta) <= 2 || window.scrollY === before) {
          if (++stable >= STABLE_FRAMES) return;
        } else stable = 0;
      }
      raf = requestAnimationFrame(tick);
    };
    raf = requestAnimationFrame(tick);
    return () => {
      stop();
      for (const ev of userEvents) window.removeEventListener(ev, stop);
    };
  }, [mark, itemIndex, virtualizerRef, offset]);
}

/** Props marking the target entry's element (outlined, and found by useScrollToTarget). */
export function targetProps(isTarget: boolean): { className?: string; 'data-target-entry'?: string } {
  return isTarget ? { className: 'ct-target', 'data-target-entry': '' } : {};
}
