import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../api/app.js';
import type { Store } from '../store/contract.js';
import { deleteDoc, putDocs, summaryDoc } from '../store/contract/view-fixtures.js';
import { openStore } from '../store/open-store.js';
import { ApiClient } from './api-client.js';
import { docRows } from './bundle-client.js';

// The real API over a real store, called in-process: paging is what is under test, not sockets.
let dir: string;
let store: Store;
let client: ApiClient;
/** Runs before the API serves request number n (1-based): a change between two pages. */
let beforeRequest: (n: number) => Promise<void> = async () => undefined;
let requests = 0;
// More than the first page's 100 rows with documents.
const ids = Array.from({ length: 130 }, (_, i) => `summary:s${String(i).padStart(3, '0')}`);
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ct-doc-rows-'));
  store = await openStore({ dataDir: dir, env: {} });
  await putDocs(
    store,
    ids.map((id) => summaryDoc(id.slice('summary:'.length))),
  );
  const app = createApp({ store, logError: () => undefined });
  client = new ApiClient({
    baseUrl: 'http://127.0.0.1:7650',
    fetch: async (input, init) => {
      await beforeRequest(++requests);
      return app.request(String(input), init);
    },
  });
});
afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

async function listed(includeDocs: boolean): Promise<string[]> {
  const seen: string[] = [];
  // targetPageBytes 1: after the first, pages of the smallest size (10 rows), so many pages.
  for await (const row of docRows(client, {
    startkey: 'summary:',
    endkey: 'summary:\uffff',
    includeDocs,
    targetPageBytes: 1,
  })) {
    if (includeDocs) expect(row.doc?._id).toBe(row.id);
    seen.push(row.id);
  }
  return seen;
}

describe('docRows', () => {
  it('lists every document once, across pages, with and without documents', async () => {
    expect(await listed(false)).toEqual(ids);
    expect(await listed(true)).toEqual(ids);
  });

  it('skips nothing when the last row of a page is deleted before the next page is read', async () => {
    // The first page ends at ids[99]; the second, of 11 rows from there, at ids[110]. Each was
    // listed before it went, so the listing is whole.
    const gone = [ids[99]!, ids[110]!];
    requests = 0;
    beforeRequest = async (n) => {
      if (n === 2) await deleteDoc(store, gone[0]!);
      if (n === 3) await deleteDoc(store, gone[1]!);
    };
    try {
      expect(await listed(true)).toEqual(ids);
      expect([...(await store.docs.getRevs(gone)).keys()]).toEqual([]);
    } finally {
      beforeRequest = async () => undefined;
    }
  });
});
