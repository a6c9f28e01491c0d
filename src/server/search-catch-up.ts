/**
 * A search index that waits for a rebuild nobody else will make is rebuilt by the server itself,
 * in the background (views-common/search-stale.ts's `rebuildDue`):
 *
 * - one an earlier version made in an older form, so an upgrade needs no `transcripts reindex`;
 * - one an import left behind, deferring its writes to the index, and then stopped (killed, or its
 *   machine gone) before the reindex that ends it.
 *
 * The server looks once the first-start import is done, then every minute. Search answers from
 * the index as it is, saying it is behind, until the rebuild commits. Of several processes on one
 * database, one rebuilds (`Views.reindexBehind` decides under the rebuild's lock).
 */
import { SEARCH_STALE, type Store } from '../store/contract.js';
import {
  ABANDONED_IMPORT_MS,
  isDeferral,
  isOlderForm,
  rebuildDue,
} from '../store/views-common/search-stale.js';

export interface SearchCatchUp {
  /** Settles when stopped and no rebuild is running. */
  done: Promise<void>;
  /** No look or rebuild starts after this (one already running is waited for by `done`). */
  stop(): void;
}

export interface SearchCatchUpOptions {
  /**
   * The clock the marker's times are read against: the system's, as the store writes them (not
   * the server's CT_NOW, which pins only derived status); tests pass their own.
   */
  now?: () => number;
  /** Between looks; a minute unless a test says otherwise. */
  everyMs?: number;
}

export function startSearchCatchUp(
  store: Store,
  after: Promise<void>,
  log: (line: string) => void,
  options: SearchCatchUpOptions = {},
): SearchCatchUp {
  const now = options.now ?? Date.now;
  let stopped = false;
  let wake: (() => void) | null = null;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const look = async () => {
    const marker = await store.docs.getLocal(SEARCH_STALE).catch(() => null);
    const deferredBefore = now() - ABANDONED_IMPORT_MS;
    if (!rebuildDue(marker, deferredBefore)) return;
    log(
      isOlderForm(marker)
        ? `search: the index was made by an earlier version (${marker.olderForm}); rebuilding it in the background`
        : `search: an import left the index behind (${describe(marker)}) and has written nothing since; rebuilding it in the background`,
    );
    const started = Date.now();
    try {
      const counts = await store.views.reindexBehind(deferredBefore);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      if (counts)
        log(`search: index rebuilt: ${counts.entries} entries in ${counts.sessions} sessions (${seconds}s)`);
      else log('search: index already rebuilt (by another process, or an import that went on)');
    } catch (err) {
      log(`search: could not rebuild the index: ${(err as Error).message} — run \`transcripts reindex\``);
    }
  };

  const done = (async () => {
    await after;
    while (!stopped) {
      await look();
      if (!stopped) await pause(options.everyMs ?? 60_000);
    }
  })();
  return {
    done,
    stop: () => {
      stopped = true;
      wake?.();
    },
  };
}

function describe(marker: unknown): string {
  return isDeferral(marker) && typeof marker.deferredAt === 'string'
    ? `last write ${marker.deferredAt}`
    : 'no time of its last write';
}
