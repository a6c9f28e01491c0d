/**
 * A search index that an earlier version made in an older form (the index marks itself stale when
 * the store opens: see entry-search-text.ts's `olderFormStale`) is rebuilt by the server itself,
 * in the background once the first-start import is done, so an upgrade needs no `transcripts
 * reindex`. Search answers from the old index, saying it is behind, until the rebuild commits.
 * Of several processes starting on one database, one rebuilds (`Views.reindexOlderForm`).
 */
import { SEARCH_STALE, type Store } from '../store/contract.js';
import { isOlderForm } from '../store/views-common/entry-search-text.js';

export interface SearchCatchUp {
  /** Settles when the rebuild has ended, was not needed, or will not start (stopped first). */
  done: Promise<void>;
  /** No rebuild starts after this (one already running is waited for by `done`). */
  stop(): void;
}

export function startSearchCatchUp(
  store: Store,
  after: Promise<void>,
  log: (line: string) => void,
): SearchCatchUp {
  let stopped = false;
  const done = (async () => {
    await after;
    if (stopped) return;
    const marker = await store.docs.getLocal(SEARCH_STALE).catch(() => null);
    if (!isOlderForm(marker)) return;
    log(
      `search: the index was made by an earlier version (${marker.olderForm}); rebuilding it in the background`,
    );
    const started = Date.now();
    try {
      const counts = await store.views.reindexOlderForm();
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      if (counts)
        log(`search: index rebuilt: ${counts.entries} entries in ${counts.sessions} sessions (${seconds}s)`);
      else log('search: index already rebuilt (by another process)');
    } catch (err) {
      log(`search: could not rebuild the index: ${(err as Error).message} — run \`transcripts reindex\``);
    }
  })();
  return {
    done,
    stop: () => {
      stopped = true;
    },
  };
}
