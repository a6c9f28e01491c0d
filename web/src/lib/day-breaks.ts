/**
 * Where the reader shows a day separator: before the first item, and before each item whose UTC
 * day differs from the last item that had a time (two lines 137 days apart no longer read 23:52
 * and 01:56 with nothing between them).
 */
import type { ReaderItem } from './entry-groups.js';

/** When an item happened: its entry's time, or its first call's or line's. */
export function itemTime(item: ReaderItem): string | undefined {
  switch (item.type) {
    case 'message':
    case 'notice':
      return item.entry.timestamp ?? undefined;
    case 'tools':
      return item.calls[0]?.at ?? item.orphans[0]?.at;
    case 'meta':
    case 'subagent':
      return item.entries.find((e) => e.timestamp)?.timestamp ?? undefined;
  }
}

function utcDay(iso: string | undefined): string | undefined {
  if (!iso) return undefined;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString().slice(0, 10);
}

/**
 * For each item index that starts a new day, the time that day starts with (the item's). Items
 * without a time never start one. Computed over the whole list: cheap (one pass), and stable for
 * items already shown when pages arrive at the end.
 */
export function dayBreaks(items: readonly ReaderItem[]): Map<number, string> {
  const out = new Map<number, string>();
  let last: string | undefined;
  items.forEach((item, i) => {
    const t = itemTime(item);
    const day = utcDay(t);
    if (day && day !== last) {
      out.set(i, t!);
      last = day;
    }
  });
  return out;
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** `Tuesday 2025-09-02` (UTC, as every date the UI shows). */
export function dayLabel(iso: string): string {
  const d = new Date(Date.parse(iso));
  return `${WEEKDAYS[d.getUTCDay()]} ${d.toISOString().slice(0, 10)}`;
}
