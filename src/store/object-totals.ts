/**
 * Object count and bytes for `Store.stats()` (and so `GET /api/health`, which load balancers
 * poll) without walking every object on every call: a walk of the object directory or a listing
 * of the whole bucket grows with the history (1,662 objects: 150 ms; a bucket of 100,000: a
 * hundred list requests). The figures are kept until this process writes or deletes an object;
 * a shared bucket, which other processes write too, is walked again once they are `maxAgeMs` old.
 */
import type { ObjectStore } from './contract.js';

export interface ObjectTotals {
  objects: number;
  objectBytes: number;
}

export class CachedObjectTotals {
  readonly #compute: () => Promise<ObjectTotals>;
  readonly #maxAgeMs: number;
  readonly #now: () => number;
  /** Bumped by every write: figures computed under an older generation are stale. */
  #generation = 0;
  #value: { generation: number; at: number; totals: ObjectTotals } | null = null;
  #inFlight: { generation: number; promise: Promise<ObjectTotals> } | null = null;

  constructor(
    compute: () => Promise<ObjectTotals>,
    options: { maxAgeMs: number; now?: () => number } = { maxAgeMs: Number.POSITIVE_INFINITY },
  ) {
    this.#compute = compute;
    this.#maxAgeMs = options.maxAgeMs;
    this.#now = options.now ?? Date.now;
  }

  /** An object was written or deleted: the next read walks again. */
  invalidate(): void {
    this.#generation++;
  }

  get(): Promise<ObjectTotals> {
    const generation = this.#generation;
    const v = this.#value;
    if (v && v.generation === generation && this.#now() - v.at < this.#maxAgeMs)
      return Promise.resolve(v.totals);
    // Callers at the same generation share one walk.
    if (this.#inFlight?.generation === generation) return this.#inFlight.promise;
    const at = this.#now();
    const promise = this.#compute().then((totals) => {
      // A write during the walk leaves it stale (it may or may not have seen that write).
      if (this.#value === null || this.#value.at <= at) this.#value = { generation, at, totals };
      return totals;
    });
    const inFlight = { generation, promise };
    this.#inFlight = inFlight;
    const clear = () => {
      if (this.#inFlight === inFlight) this.#inFlight = null;
    };
    promise.then(clear, clear);
    return promise;
  }
}

/** The same object store, telling `totals` of every write and delete once it is done. */
export function invalidatingWrites(objects: ObjectStore, totals: CachedObjectTotals): ObjectStore {
  return {
    put: async (key, body, options) => {
      try {
        return await objects.put(key, body, options);
      } finally {
        // Also on failure: an append that failed part-way may have left bytes behind.
        totals.invalidate();
      }
    },
    putFile: async (key, source, options) => {
      try {
        return await objects.putFile(key, source, options);
      } finally {
        totals.invalidate();
      }
    },
    delete: async (key) => {
      try {
        return await objects.delete(key);
      } finally {
        totals.invalidate();
      }
    },
    get: (key, range) => objects.get(key, range),
    stat: (key) => objects.stat(key),
    list: (sessionId) => objects.list(sessionId),
    listPage: (options) => objects.listPage(options),
  };
}
