/**
 * The text a reader item shows, for finding which items hold a search term (n / N step from match
 * to match over the whole loaded transcript, not only the rows drawn).
 */
import type { ReaderItem } from './entry-groups.js';

function json(v: unknown): string {
  if (typeof v === 'string') return v;
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return '';
  }
}

export function itemText(item: ReaderItem): string {
  switch (item.type) {
    case 'message':
      return [item.prompt ?? item.entry.text ?? '', item.entry.thinking ?? ''].join('\n');
    case 'notice':
      return [item.entry.text ?? '', item.entry.error ?? ''].join('\n');
    case 'tools':
      return [
        ...item.calls.flatMap((c) => [c.name, json(c.input), c.result?.content ?? '']),
        ...item.orphans.map((o) => o.content),
      ].join('\n');
    case 'meta':
    case 'subagent':
      return item.entries
        .map((e) =>
          [e.text ?? '', e.thinking ?? '', ...(e.toolResults ?? []).map((r) => r.content)].join('\n'),
        )
        .join('\n');
  }
}

/** Indices of the items whose text matches `re`. */
export function matchingItems(items: readonly ReaderItem[], re: RegExp | null): number[] {
  if (!re) return [];
  const out: number[] = [];
  items.forEach((item, i) => {
    re.lastIndex = 0;
    if (re.test(itemText(item))) out.push(i);
  });
  re.lastIndex = 0;
  return out;
}
