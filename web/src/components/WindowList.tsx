/**
 * A window-scrolled virtual list (TanStack Virtual): only the rows near the viewport are in the
 * DOM, whatever the item count, and rows are measured as they render (heights vary). Calls
 * `onNearEnd` when the last rows come into view (and `onNearStart` for the first), which is how
 * lists page as you scroll.
 *
 * Positions are kept by row, not by pixel: rows not rendered yet have estimated heights, so a
 * pixel offset means a different row once they are measured. The list tracks the first row
 * visible below the sticky bars (its key and where its top sits) and
 * - with `keepPosition`, when rows are added above it (earlier pages of a transcript), scrolls so
 *   that row stays where it was;
 * - reports it through `onAnchor`, and given `restore` (such a row saved earlier) brings that row
 *   back to where it was — how Back returns to the same place in a long list.
 */
import { useWindowVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode, type Ref } from 'react';
import { settleScroll } from './settle-scroll.js';

/** The first row visible below the sticky bars: its key and its top in viewport pixels. */
export interface ListAnchor {
  key: string;
  top: number;
}

export interface WindowListProps<T> {
  items: readonly T[];
  getKey: (item: T, index: number) => string | number;
  estimateSize: (index: number) => number;
  renderItem: (item: T, index: number) => ReactNode;
  /** Called when a row within `nearEnd` of the end is rendered. */
  onNearEnd?: () => void;
  nearEnd?: number;
  /** Called when a row within `nearStart` of the start is rendered. */
  onNearStart?: () => void;
  nearStart?: number;
  gap?: number;
  overscan?: number;
  /** Space kept clear above an item scrolled to (sticky bars). */
  scrollPaddingStart?: number;
  /** Receives the virtualizer (scroll to an item, read the range). */
  virtualizerRef?: Ref<Virtualizer<Window, Element> | null>;
  /** Keep the first visible row in place when rows are added or regrouped above it. */
  keepPosition?: boolean;
  /** Where a row (by key) went when the items changed; default: the row with the same key. */
  anchorIndexOf?: (key: string) => number | undefined;
  /** A row to bring back to where it was, once it is among the items (see `onAnchor`). */
  restore?: ListAnchor | null;
  /** The first visible row, after the user (or anything) scrolled. */
  onAnchor?: (anchor: ListAnchor) => void;
  /** The row marked as the current one (j/k). */
  activeIndex?: number;
  testId?: string;
}

export function WindowList<T>({
  items,
  getKey,
  estimateSize,
  renderItem,
  onNearEnd,
  nearEnd = 8,
  onNearStart,
  nearStart = 4,
  gap = 6,
  overscan = 6,
  scrollPaddingStart = 0,
  virtualizerRef,
  keepPosition = false,
  anchorIndexOf,
  restore,
  onAnchor,
  activeIndex,
  testId,
}: WindowListProps<T>) {
  const parentRef = useRef<HTMLDivElement>(null);
  const [margin, setMargin] = useState(0);

  useLayoutEffect(() => {
    const update = () => {
      const el = parentRef.current;
      if (el) setMargin(Math.round(el.getBoundingClientRect().top + window.scrollY));
    };
    update();
    const ro = new ResizeObserver(update);
    ro.observe(document.body);
    return () => ro.disconnect();
  }, []);

  const virtualizer = useWindowVirtualizer({
    count: items.length,
    estimateSize,
    overscan,
    gap,
    scrollMargin: margin,
    scrollPaddingStart,
    getItemKey: (i) => getKey(items[i]!, i),
  });

  useEffect(() => {
    if (!virtualizerRef) return;
    if (typeof virtualizerRef === 'function') virtualizerRef(virtualizer);
    else (virtualizerRef as { current: unknown }).current = virtualizer;
  });
  // Unmounted, the list lets go of the ref: a virtualizer left in it would be stepped through
  // (j/k) by whatever list replaced this one, scrolling by the old list's rows.
  useEffect(() => {
    if (!virtualizerRef) return;
    return () => {
      if (typeof virtualizerRef === 'function') virtualizerRef(null);
      else (virtualizerRef as { current: unknown }).current = null;
    };
  }, [virtualizerRef]);

  const virtualItems = virtualizer.getVirtualItems();
  const firstIndex = virtualItems[0]?.index ?? -1;
  const lastIndex = virtualItems[virtualItems.length - 1]?.index ?? -1;
  useEffect(() => {
    if (onNearEnd && items.length > 0 && lastIndex >= items.length - nearEnd) onNearEnd();
  }, [lastIndex, items.length, nearEnd, onNearEnd]);
  useEffect(() => {
    if (onNearStart && items.length > 0 && firstIndex >= 0 && firstIndex <= nearStart) onNearStart();
  }, [firstIndex, items.length, nearStart, onNearStart]);

  // The rows visible below the sticky bars, top first, read from the DOM (rows render in index
  // order): the first is the anchor; the others stand in when a change regroups it away.
  const inset = scrollPaddingStart;
  const readVisible = (): Array<ListAnchor & { index: number }> => {
    const el = parentRef.current;
    const out: Array<ListAnchor & { index: number }> = [];
    if (!el) return out;
    for (const child of el.children) {
      const r = child.getBoundingClientRect();
      const key = (child as HTMLElement).dataset.key;
      if (key === undefined || r.bottom <= inset) continue;
      if (r.top >= window.innerHeight) break;
      out.push({ key, top: r.top, index: Number((child as HTMLElement).dataset.index) });
    }
    return out;
  };
  const visible = useRef<Array<ListAnchor & { index: number }>>([]);
  const holding = useRef<(() => void) | null>(null);
  useEffect(() => () => holding.current?.(), []);
  // While a button is held (dragging the scroll bar) the user places the page: rows added above
  // are compensated once, not followed.
  const pressed = useRef(false);
  useEffect(() => {
    const down = () => (pressed.current = true);
    const up = () => (pressed.current = false);
    window.addEventListener('pointerdown', down, { passive: true });
    window.addEventListener('pointerup', up, { passive: true });
    return () => {
      window.removeEventListener('pointerdown', down);
      window.removeEventListener('pointerup', up);
    };
  }, []);
  const shownItems = useRef(items);
  const restoring = useRef(false);
  const keyAt = (i: number) => (items[i] === undefined ? undefined : String(getKey(items[i]!, i)));
  // After every commit: when the items changed and the rows on screen moved (rows added or
  // regrouped above them), scroll so the first of them still there sits where it sat — the same
  // key, else (regrouped) the row `anchorIndexOf` names; then note the rows for next time.
  useLayoutEffect(() => {
    if (shownItems.current !== items) {
      shownItems.current = items;
      const rows = visible.current;
      if (keepPosition && rows.length > 0 && !restoring.current && keyAt(rows[0]!.index) !== rows[0]!.key) {
        let to: { index: number; top: number } | undefined;
        for (const r of rows) {
          const i =
            keyAt(r.index) === r.key ? r.index : items.findIndex((it, j) => String(getKey(it, j)) === r.key);
          if (i >= 0) {
            to = { index: i, top: r.top };
            break;
          }
        }
        if (!to) {
          const i = anchorIndexOf?.(rows[0]!.key);
          if (i !== undefined && i >= 0) to = { index: i, top: rows[0]!.top };
        }
        const m = to ? virtualizer.measurementsCache[to.index] : undefined;
        if (m && to) {
          // At once where the estimates put it, then after it as the rows above it are measured.
          window.scrollTo({ top: m.start - to.top, behavior: 'instant' });
          const key = keyAt(to.index);
          const top = to.top;
          const index = to.index;
          holding.current?.();
          holding.current = pressed.current
            ? null
            : settleScroll({
                virtualizer: () => virtualizer,
                index: () => index,
                find: () =>
                  key === undefined
                    ? null
                    : (parentRef.current?.querySelector(`:scope > [data-key="${CSS.escape(key)}"]`) ?? null),
                top: () => top,
              });
        }
      }
    }
    visible.current = readVisible();
  });
  // …and on scroll, reported (once a frame) to whoever remembers it. Scrolling at the start of
  // the list asks for what comes before it again (the first rows may have been in view all along).
  const onAnchorRef = useRef(onAnchor);
  onAnchorRef.current = onAnchor;
  const nearStartRef = useRef<(() => void) | undefined>(undefined);
  nearStartRef.current =
    onNearStart && firstIndex >= 0 && firstIndex <= nearStart && items.length > 0 ? onNearStart : undefined;
  useEffect(() => {
    let raf = 0;
    const onScroll = () => {
      if (raf) return;
      raf = requestAnimationFrame(() => {
        raf = 0;
        visible.current = readVisible();
        const a = visible.current[0];
        if (a && !restoring.current) onAnchorRef.current?.({ key: a.key, top: a.top });
        nearStartRef.current?.();
      });
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      cancelAnimationFrame(raf);
    };
    // readVisible reads refs and the inset only.
  }, [inset]);

  // Bring a remembered row back (once, when it is among the items).
  const restoreKey = restore?.key;
  const restoreIndex =
    restoreKey === undefined ? -1 : items.findIndex((it, i) => String(getKey(it, i)) === restoreKey);
  const restoreAt = useRef({ index: restoreIndex, top: restore?.top ?? 0 });
  restoreAt.current = { index: restoreIndex, top: restore?.top ?? 0 };
  const found = restoreIndex >= 0;
  useEffect(() => {
    if (restoreKey === undefined || !found) return;
    restoring.current = true;
    const stop = settleScroll({
      virtualizer: () => virtualizer,
      index: () => restoreAt.current.index,
      find: () => parentRef.current?.querySelector(`:scope > [data-key="${CSS.escape(restoreKey)}"]`) ?? null,
      top: () => restoreAt.current.top,
      onDone: () => {
        restoring.current = false;
        visible.current = readVisible();
      },
    });
    return () => {
      stop();
      restoring.current = false;
    };
    // Once per remembered row; where it is now is read through the ref.
  }, [restoreKey, found, virtualizer]);

  return (
    <div
      ref={parentRef}
      data-testid={testId}
      data-window-list
      style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}
    >
      {virtualItems.map((vi) => (
        <div
          key={vi.key}
          data-index={vi.index}
          data-key={String(vi.key)}
          data-current={vi.index === activeIndex ? '' : undefined}
          aria-current={vi.index === activeIndex ? 'true' : undefined}
          className={vi.index === activeIndex ? 'ct-active-row' : undefined}
          ref={virtualizer.measureElement}
          style={{
            position: 'absolute',
            top: 0,
            left: 0,
            width: '100%',
            transform: `translateY(${vi.start - virtualizer.options.scrollMargin}px)`,
          }}
        >
          {renderItem(items[vi.index]!, vi.index)}
        </div>
      ))}
    </div>
  );
}
