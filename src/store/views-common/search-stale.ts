/**
 * The search-stale marker (`SEARCH_STALE`, a local document): why search is behind the stored
 * chunks, and who brings it up to date. Two writers set it:
 *
 * - an import, on every write it asks to leave out of the index (`deferSearch`), with the time of
 *   that write; the reindex that ends the import clears it;
 * - a store opening an index that an earlier version made in an older form (its rows stay as they
 *   are until rebuilt).
 *
 * The server rebuilds the index itself for an older form, and for an import that stopped writing
 * long ago without its reindex (killed, or its machine gone): `rebuildDue`.
 */
import { OLDER_FORM } from './entry-search-text.js';

/** The marker an import's deferred write leaves, at `nowIso`. */
export function deferredStale(nowIso: string): { deferredAt: string } {
  return { deferredAt: nowIso };
}

/** The marker for an index an earlier version made in an older form, noticed at `nowIso`. */
export function olderFormStale(nowIso: string): { olderForm: string; since: string } {
  return { olderForm: OLDER_FORM, since: nowIso };
}

/** Whether a marker is `olderFormStale`'s, not an import's. */
export function isOlderForm(marker: unknown): marker is { olderForm: string } {
  return typeof marker === 'object' && marker !== null && 'olderForm' in marker;
}

/** Whether a marker is an import's (`deferredStale`'s). */
export function isDeferral(marker: unknown): marker is { deferredAt: unknown } {
  return typeof marker === 'object' && marker !== null && 'deferredAt' in marker;
}

/**
 * An import writes a batch every few seconds while it runs, each renewing the marker's time; one
 * that has written nothing for this long has stopped without the reindex that ends it.
 */
export const ABANDONED_IMPORT_MS = 10 * 60_000;

/**
 * Whether the index waits for a rebuild nobody else will make: an older form, or an import's
 * deferral last renewed before `deferredBefore` (epoch ms; a marker whose time cannot be read
 * counts as old). A rebuild meanwhile is safe: an import that goes on sets the marker again and
 * still reindexes at its end.
 */
export function rebuildDue(marker: unknown, deferredBefore: number): boolean {
  if (isOlderForm(marker)) return true;
  if (!isDeferral(marker)) return false;
  const at = typeof marker.deferredAt === 'string' ? Date.parse(marker.deferredAt) : Number.NaN;
  return !(at >= deferredBefore);
}
