/** What the session list shows of each session's annotation (star, tags, whether it has a note). */
import { ViewMissingError, type Store } from '../store/contract.js';

export async function annotationSummaries(
  store: Store,
  ids: string[],
): Promise<Record<string, { starred: boolean; tags: string[]; hasNote: boolean; bookmarks: number }>> {
  let rows;
  try {
    rows = await store.views.annotations(ids);
  } catch (err) {
    // Before migration 11 the list still answers, without annotations.
    if (err instanceof ViewMissingError) return {};
    throw err;
  }
  const out: Record<string, { starred: boolean; tags: string[]; hasNote: boolean; bookmarks: number }> = {};
  for (const [id, a] of rows)
    out[id] = { starred: a.starred, tags: a.tags, hasNote: a.note !== '', bookmarks: a.bookmarks };
  return out;
}
