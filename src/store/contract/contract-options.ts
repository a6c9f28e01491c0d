/**
 * How an engine's test file hands itself to the shared contract suites (Hono's `runTest`,
 * Kysely's `DIALECTS`): a name for the titles and a factory for a fresh, empty store.
 */
import { afterEach, beforeEach, describe } from 'vitest';
import type { Store } from '../contract.js';

export interface ContractOptions {
  /** Engine name; every describe title starts with it (`sqlite: bulk upsert conflicts`). */
  name: string;
  /** A fresh, empty store; the suite closes it after each test. */
  open: () => Promise<Store>;
  /** Why this engine cannot run the suite here (e.g. the server does not answer); skips it. */
  skip?: string;
}

/**
 * Declares a describe block whose tests each get a fresh store through `current()`.
 * A skipped suite keeps its reason in the title, so a run never passes it silently.
 */
export function describeWithStore(
  options: ContractOptions,
  topic: string,
  body: (current: () => Store) => void,
): void {
  const title = `${options.name}: ${topic}`;
  if (options.skip) {
    describe.skip(`${title} (skipped: ${options.skip})`, () => body(() => undefined as never));
    return;
  }
  describe(title, () => {
    let store: Store | undefined;
    beforeEach(async () => {
      store = await options.open();
    });
    afterEach(async () => {
      await store?.close();
      store = undefined;
    });
    body(() => {
      if (!store) throw new Error('store is only available inside a test');
      return store;
    });
  });
}
