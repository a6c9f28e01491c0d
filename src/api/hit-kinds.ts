/**
 * What each search hit's entry is, named as the reader names the entry it opens (`entryKind`): the index
 * holds only the role, which calls a compaction summary "user". Read from the transcript view (a
 * hit's entry and the one before it, which names a slash command's prompt) at answer time, so
 * an index made by any version answers the same; a page of hits reads at most two entries each.
 */
import { entryKind } from '../core/transcript/entry-kind.js';
import { ViewMissingError, type SearchHit, type Views } from '../store/contract.js';

/**
 * The kind of each hit's entry, in the hits' order: the role when its entry cannot be read, null
 * for a session's note (it is on no entry).
 */
export async function hitKinds(views: Views, hits: readonly SearchHit[]): Promise<Array<string | null>> {
  return Promise.all(
    hits.map(async (h) => {
      if (h.kind === 'note') return null;
      const from = Math.max(0, h.index - 1);
      const page = await views
        .transcriptPage(h.sessionId, h.file, { offset: from, limit: h.index - from + 1 })
        .catch((err: unknown) => {
          if (err instanceof ViewMissingError) return null;
          throw err;
        });
      const entry = page?.entries.find((e) => e.index === h.index);
      if (!entry) return h.role;
      return entryKind(
        entry,
        page!.entries.find((e) => e.index === h.index - 1),
      );
    }),
  );
}
