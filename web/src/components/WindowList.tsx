/**
 * A window-scrolled virtual list (TanStack Virtual): only the rows near the viewport are in the
 * DOM, whatever the item count, and rows are measured as they render (heights vary). Calls
 * `onNearEnd` when the last rows come into view, which is how lists page as you scroll.
 */
import { useWindowVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode, type Ref } from 'react';

export interface WindowListProps<T> {
  items: readonly T[];
  getKey: (item: T, index: number) => string | number;
  estimateSize: (index: number) => number;
  renderItem: (item: T, index: number) => ReactNode;
  /** Called when a row within `nearEnd` of the end is rendered. */
  onNearEnd?: () => void;
  nearEnd?: number;
  gap?: number;
  overscan?: number;
  /** Space kept clear above an item scrolled to (sticky bars). */
  scrollPaddingStart?: number;
  /** Receives the virtualizer (scroll to an item, read the range). */
  virtualizerRef?: Ref<Virtualizer<Window, Element> | null>;
  testId?: string;
}

export function WindowList<T>({
  items,
  getKey,
  estimateSize,
  renderItem,
  onNearEnd,
  nearEnd = 8,
  gap = 6,
  overscan = 6,
  scrollPaddingStart = 0,
  virtualizerRef,
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

  const virtualItems = virtualizer.getVirtualItems();
  const lastIndex = virtualItems[virtualItems.length - 1]?.index ?? -1;
  useEffect(() => {
    if (onNearEnd && items.length > 0 && lastIndex >= items.length - nearEnd) onNearEnd();
  }, [lastIndex, items.length, nearEnd, onNearEnd]);

  return (
    <div
      ref={parentRef}
      data-testid={testId}
      style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}
    >
      {virtualItems.map((vi) => (
        <div
          key={vi.key}
          data-index={vi.index}
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
