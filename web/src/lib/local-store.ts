/**
 * This browser's localStorage as the source of a React external store (`useSyncExternalStore`):
 * the storage itself, or none where the browser refuses it, and a subscription to some of its
 * keys that hears writes made in this page (`changed()`) and in other tabs (the storage event,
 * which names no key when a tab cleared the whole storage).
 */

export function browserStorage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

export interface KeyedSubscription {
  subscribe(fn: () => void): () => void;
  /** Tells this page's subscribers that a value was written here. */
  changed(): void;
}

export function keyedSubscription(keys: readonly string[]): KeyedSubscription {
  const listeners = new Set<() => void>();
  return {
    subscribe(fn) {
      listeners.add(fn);
      const onStorage = (e: StorageEvent) => {
        if (e.key === null || keys.includes(e.key)) fn();
      };
      window.addEventListener('storage', onStorage);
      return () => {
        listeners.delete(fn);
        window.removeEventListener('storage', onStorage);
      };
    },
    changed() {
      for (const fn of listeners) fn();
    },
  };
}
