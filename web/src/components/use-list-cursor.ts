/**
 * j/k through a list of links — the session list, search hits, the Turns page's turns. The next
 * or previous item's link takes the focus, so the focus ring shows where you are and Enter opens
 * it, as it would after tabbing there; it is scrolled just into view below the sticky bars. A step
 * goes from the focused item while it is on screen, else from the first item on screen (after
 * scrolling with the wheel, j starts where you are looking).
 *
 * In a window list (virtualised, see WindowList), items far from the viewport are not rendered:
 * given the list's virtualizer, an item not rendered yet is first brought into range, then focused.
 */
import type { Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, type RefObject } from 'react';
import { settleScroll, stickyBottom } from './settle-scroll.js';

/** Space kept between the focused item and the sticky bars or the window's bottom edge. */
const MARGIN = 8;

export interface ListCursorOptions {
  /** Each item (a link, or an element holding one), in list order. */
  items: string;
  /** The virtualizer of the window list holding them, when the list is one. */
  virtualizer?: RefObject<Virtualizer<Window, Element> | null>;
}

/** Returns `step(delta)`: +1 for the next item, -1 for the previous. */
export function useListCursor({ items, virtualizer }: ListCursorOptions): (delta: number) => void {
  const stopSettling = useRef<(() => void) | null>(null);
  useEffect(() => () => stopSettling.current?.(), []);

  return useCallback(
    (delta: number) => {
      const shown = [...document.querySelectorAll<HTMLElement>(items)];
      const v = virtualizer?.current ?? null;
      const count = v ? v.options.count : shown.length;
      if (count === 0) return;
      const top = stickyBottom(0);
      // An item's place in the whole list: in a window list, its row's index.
      const placeOf = (el: HTMLElement) =>
        v ? Number(el.closest('[data-index]')?.getAttribute('data-index') ?? NaN) : shown.indexOf(el);
      const onScreen = (el: HTMLElement) => {
        const r = el.getBoundingClientRect();
        return r.bottom > top && r.top < window.innerHeight;
      };
      const focused = shown.find((el) => el.contains(document.activeElement));
      const from = focused && onScreen(focused) ? focused : undefined;
      const first = shown.find(onScreen) ?? shown[0];
      const start = from ? placeOf(from) + delta : first ? placeOf(first) : 0;
      const target = Math.min(count - 1, Math.max(0, Number.isFinite(start) ? start : 0));
      const find = (): HTMLElement | null =>
        v
          ? document.querySelector<HTMLElement>(`[data-window-list] > [data-index="${target}"] ${items}`)
          : (shown[target] ?? null);

      stopSettling.current?.();
      const el = find();
      if (el) {
        focusLink(el);
        scrollJustIntoView(el, top);
        return;
      }
      // Not rendered yet (far down a window list): brought into range, then focused.
      stopSettling.current = settleScroll({
        virtualizer: () => virtualizer?.current,
        index: () => target,
        find,
        top: () => stickyBottom(0) + MARGIN,
        onDone: () => {
          const found = find();
          if (found) focusLink(found);
        },
      });
    },
    [items, virtualizer],
  );
}

function focusLink(el: HTMLElement): void {
  const link = el.matches('a[href]') ? el : el.querySelector<HTMLElement>('a[href]');
  (link ?? el).focus({ preventScroll: true });
}

/** Scrolls the least that shows all of `el` (or its top, when taller than the window) below `top`. */
function scrollJustIntoView(el: HTMLElement, top: number): void {
  const r = el.getBoundingClientRect();
  if (r.top < top + MARGIN) window.scrollBy({ top: r.top - top - MARGIN, behavior: 'instant' });
  else if (r.bottom > window.innerHeight - MARGIN) {
    const down = Math.min(r.bottom - window.innerHeight + MARGIN, r.top - top - MARGIN);
    window.scrollBy({ top: down, behavior: 'instant' });
  }
}
