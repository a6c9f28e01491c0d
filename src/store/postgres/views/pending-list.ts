/**
 * When the search index's pending list is merged. GIN keeps new entries in an unsorted pending
 * list and merges it into the index once it holds `gin_pending_list_limit`; each merge costs about
 * the same whatever its size, so a larger list makes a bulk ingest cheaper (200 MB of history:
 * 15 % less server CPU at 4 MB than at 512 kB). But every search scans the whole list, about
 * 0.6 ms per MB. So the list may grow to 4 MB while writes keep coming, and is merged as soon as
 * they pause: a second after a process's last write, whether an ingest ended or a live session
 * went quiet, searches find it (nearly) empty again. A process that closes the store sooner (a
 * command that ingested and exits) merges before it closes.
 */
import type { PostgresDatabase } from '../postgres-database.js';

/** The pending list's limit, in kB (PostgreSQL's default). */
export const PENDING_LIST_KB = 4096;

/** How long after a write the pending list is merged, if no other write came meanwhile. */
export const MERGE_AFTER_MS = 1000;

export class PendingListMerger {
  readonly #db: PostgresDatabase;
  readonly #index: string;
  readonly #delayMs: number;
  #timer: NodeJS.Timeout | null = null;

  constructor(db: PostgresDatabase, index: string, delayMs = MERGE_AFTER_MS) {
    this.#db = db;
    this.#index = index;
    this.#delayMs = delayMs;
  }

  /** A write added entries: merge once writes have paused for the delay. */
  wrote(): void {
    if (this.#timer) this.#timer.refresh();
    else {
      this.#timer = setTimeout(() => void this.#merge(), this.#delayMs);
      // Never what keeps a process alive; one that exits without `close` leaves the list to the
      // next merge.
      this.#timer.unref();
    }
  }

  /** Merges now what this process's writes left waiting, if anything; before the pool closes. */
  async close(): Promise<void> {
    if (this.#timer) await this.#merge();
  }

  async #merge(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#db
      .query('SELECT gin_clean_pending_list($1::regclass)', [this.#index])
      // A closed pool, a dropped view, another process merging: the next write asks again.
      .catch(() => undefined);
  }
}
