/**
 * Brings one element of a virtual list to a given height in the viewport and keeps it there while
 * the rows around it are measured. A virtual list only knows estimated heights for rows it has
 * not rendered, so scrolling to an index lands near it, not on it; this first asks the list to
 * bring the index into range, then follows the element itself (found by `find`) frame by frame
 * until its top has rested at `top` for a few frames — or the page cannot scroll further — and
 * stops at once when the reader scrolls, clicks or types, so it never fights the user.
 *
 * Used to open at an entry (`?entry=N`), to step with j/k, and to put the session list back on
 * the row that was at the top when Back returns to it.
 */
import type { Virtualizer } from '@tanstack/react-virtual';

/** Frames the element must hold still to be done, and the most frames spent trying. */
const STABLE_FRAMES = 12;
const MAX_FRAMES = 240;

export interface SettleOptions {
  virtualizer: () => Virtualizer<Window, Element> | null | undefined;
  /** The list index holding the element (read each frame: it may shift). */
  index: () => number | undefined;
  /** The element to bring to `top`, when rendered. */
  find: () => Element | null;
  /** Where its top should rest, in viewport pixels (below the sticky bars). */
  top: () => number;
  /** Called once when it stops: `true` when it rests, `false` when the user or the frame limit stopped it. */
  onDone?: (settled: boolean) => void;
}

/** Starts settling; returns a function that stops it. */
export function settleScroll(o: SettleOptions): () => void {
  let frame = 0;
  let stable = 0;
  let raf = 0;
  let stopped = false;
  const userEvents = ['wheel', 'touchstart', 'keydown', 'mousedown'] as const;
  const finish = (settled: boolean) => {
    if (stopped) return;
    stopped = true;
    cancelAnimationFrame(raf);
    for (const ev of userEvents) window.removeEventListener(ev, stop);
    o.onDone?.(settled);
  };
  // The key or click that started this (j/k, a link) may still be on its way up to the window:
  // only what the user does afterwards stops it.
  const since = performance.now();
  const stop = (e?: Event) => {
    if (e && e.timeStamp <= since) return;
    finish(false);
  };
  for (const ev of userEvents) window.addEventListener(ev, stop, { passive: true });
  const bringIntoRange = () => {
    const i = o.index();
    if (i !== undefined) o.virtualizer()?.scrollToIndex(i, { align: 'start' });
  };
  if (!o.find()) bringIntoRange();
  const tick = () => {
    if (stopped) return;
    if (++frame > MAX_FRAMES) return finish(false);
    const el = o.find();
    if (!el) {
      // Not rendered yet: the list may still be bringing its item into range.
      bringIntoRange();
      stable = 0;
    } else {
      const delta = el.getBoundingClientRect().top - o.top();
      const before = window.scrollY;
      if (Math.abs(delta) > 2) window.scrollTo({ top: before + delta, behavior: 'instant' });
      // Settled, or as close as the page allows (an element near the end cannot reach the top).
      if (Math.abs(delta) <= 2 || window.scrollY === before) {
        if (++stable >= STABLE_FRAMES) return finish(true);
      } else stable = 0;
    }
    raf = requestAnimationFrame(tick);
  };
  raf = requestAnimationFrame(tick);
  return () => finish(false);
}

/**
 * Where content shows below the sticky bars (the header, the transcript toolbar) once they are
 * stuck: the toolbar's sticky `top` plus its height. (Not its bottom now: before the page has
 * scrolled far enough it sits lower, and moves with the content it is above.)
 */
export function stickyBottom(fallback: number): number {
  const bar = document.querySelector<HTMLElement>('[data-sticky-bar]');
  if (bar) {
    const top = parseFloat(getComputedStyle(bar).top);
    return Math.max(0, Math.round((Number.isFinite(top) ? top : 0) + bar.getBoundingClientRect().height));
  }
  const header = document.querySelector('header');
  return header ? Math.max(0, Math.round(header.getBoundingClientRect().bottom)) : fallback;
}
