/**
 * The bookmark action of a session page (key `b`): the current item's first entry is bookmarked,
 * or its bookmark removed when it has one, with the annotation revision the page last read.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { components } from '../../../src/client/api-schema.gen.js';
import { api } from '../queries/api.js';
import { annotationQueryKey } from './AnnotationPanel.js';

type Annotation = components['schemas']['Annotation'];

/** The Bookmarks page's query: read again whenever a bookmark is set or removed. */
export const bookmarksQueryKey = ['bookmarks'] as const;

/** The entry index the row at `rowIndex` of the reader shows first, if any. */
export function entryOfRow(rowIndex: number | undefined): number | null {
  if (rowIndex === undefined) return null;
  const row = document.querySelector(`[data-window-list] > [data-index="${rowIndex}"]`);
  const el = row?.matches('[data-entry]') ? row : row?.querySelector('[data-entry]');
  // A folded run of tool calls shows no entry of its own: its first call is the one marked.
  const first = el
    ? el.getAttribute('data-entry')
    : row?.querySelector('[data-entries]')?.getAttribute('data-entries')?.split(',')[0];
  const n = first == null || first === '' ? NaN : Number(first);
  return Number.isInteger(n) && n >= 0 ? n : null;
}

export async function toggleBookmark(
  queryClient: QueryClient,
  sessionId: string,
  file: string,
  index: number,
): Promise<Annotation> {
  const key = annotationQueryKey(sessionId);
  const current = queryClient.getQueryData<Annotation>(key);
  const rev = current?.rev ?? null;
  const marked = current?.bookmarks.some((b) => b.file === file && b.index === index) === true;
  const path = { id: sessionId, index };
  const next = marked
    ? await api.DELETE('/api/sessions/{id}/bookmarks/{index}', {
        params: { path, query: { file, ...(rev ? { rev } : {}) } },
      })
    : await api.PUT('/api/sessions/{id}/bookmarks/{index}', { params: { path }, body: { file, rev } });
  queryClient.setQueryData(key, next);
  void queryClient.invalidateQueries({ queryKey: bookmarksQueryKey });
  return next;
}

/**
 * Sets the note of the bookmark on an entry (bookmarking it if it is not yet); a blank note removes
 * the note, not the bookmark. Based on the revision this page last read of the session's
 * annotation (read now when it has none), so an edit made meanwhile is refused, not overwritten.
 */
export async function setBookmarkNote(
  queryClient: QueryClient,
  sessionId: string,
  file: string,
  index: number,
  note: string,
): Promise<Annotation> {
  const key = annotationQueryKey(sessionId);
  const current =
    queryClient.getQueryData<Annotation>(key) ??
    (await api.GET('/api/sessions/{id}/annotations', { params: { path: { id: sessionId } } }));
  const next = await api.PUT('/api/sessions/{id}/bookmarks/{index}', {
    params: { path: { id: sessionId, index } },
    body: { file, note, rev: current.rev },
  });
  queryClient.setQueryData(key, next);
  void queryClient.invalidateQueries({ queryKey: bookmarksQueryKey });
  return next;
}
