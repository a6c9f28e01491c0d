/**
 * The server's search catch-up over a real store: an import's deferral is left to the import while
 * it may still be running, and rebuilt by the next look once it has written nothing for
 * `ABANDONED_IMPORT_MS`; stopping ends the looks at once.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { SEARCH_STALE, type Store } from '../store/contract.js';
import { chunkDoc, entry } from '../store/contract/view-fixtures.js';
import { materializeAll } from '../store/contract/views-sessions.case.js';
import { openStore } from '../store/open-store.js';
import { ABANDONED_IMPORT_MS, deferredStale } from '../store/views-common/search-stale.js';
import { startSearchCatchUp } from './search-catch-up.js';

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function storeWithDeferredImport(lastWrite: number): Promise<Store> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ct-catch-up-'));
  const store = await openStore({ dataDir: dir, env: {} });
  cleanup.push(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });
  await materializeAll(store);
  await store.docs.commit([chunkDoc('s', [entry(0, 'user', 'zanzibar ferry times')])], [], {
    deferSearch: true,
  });
  await store.docs.putLocal(SEARCH_STALE, deferredStale(new Date(lastWrite).toISOString()));
  return store;
}

const hits = async (store: Store) => (await store.views.search({ q: 'zanzibar', limit: 5, offset: 0 })).total;

it("leaves a running import's deferral to it, and rebuilds once the import has stopped writing", async () => {
  const lastWrite = Date.parse('2026-01-01T12:00:00.000Z');
  const store = await storeWithDeferredImport(lastWrite);
  let now = lastWrite + ABANDONED_IMPORT_MS - 1;
  const lines: string[] = [];
  const catchUp = startSearchCatchUp(store, Promise.resolve(), (l) => lines.push(l), {
    now: () => now,
    everyMs: 20,
  });
  await new Promise((r) => setTimeout(r, 200)); // several looks
  expect(lines).toEqual([]);
  expect(await store.docs.getLocal(SEARCH_STALE)).toEqual(deferredStale(new Date(lastWrite).toISOString()));
  expect(await hits(store)).toBe(0);

  now = lastWrite + ABANDONED_IMPORT_MS + 1;
  await vi.waitFor(() => expect(lines.join('\n')).toMatch(/search: index rebuilt: 1 entries in 1 sessions/));
  expect(lines[0]).toBe(
    'search: an import left the index behind (last write 2026-01-01T12:00:00.000Z) and has written nothing since; rebuilding it in the background',
  );
  expect(await store.docs.getLocal(SEARCH_STALE)).toBeNull();
  expect(await hits(store)).toBe(1);
  catchUp.stop();
  await catchUp.done;
  expect(lines).toHaveLength(2); // looked again meanwhile: nothing more to do, nothing said
});

it('stops looking at once when stopped between looks', async () => {
  const store = await storeWithDeferredImport(Date.now());
  const catchUp = startSearchCatchUp(store, Promise.resolve(), () => undefined, { everyMs: 3_600_000 });
  await new Promise((r) => setTimeout(r, 50));
  catchUp.stop();
  const stopped = await Promise.race([
    catchUp.done.then(() => true),
    new Promise((r) => setTimeout(() => r(false), 2000)),
  ]);
  expect(stopped).toBe(true);
});
