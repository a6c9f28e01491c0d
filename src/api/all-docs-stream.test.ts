import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../store/contract.js';
import { chunkDoc, deleteDoc, entry, putDocs, summaryDoc } from '../store/contract/view-fixtures.js';
import { openStore } from '../store/open-store.js';
import { allDocsJson, type AllDocsPage } from './all-docs-stream.js';

let dir: string;
let store: Store;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ct-all-docs-'));
  store = await openStore({ dataDir: dir, env: {} });
  // 48 documents: more than the first step's 20 rows.
  const sessions = Array.from({ length: 12 }, (_, i) => `s${String(i).padStart(2, '0')}`);
  const docs = sessions.flatMap((s) => [
    summaryDoc(s),
    ...[0, 1, 2].map((n) => chunkDoc(s, [entry(n, 'user', `${s} ${n} ${'y'.repeat(300 * (n + 1))}`)])),
  ]);
  await putDocs(store, docs);
});
afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

async function streamed(page: AllDocsPage, stepBytes?: number): Promise<{ json: string; pieces: number }> {
  let json = '';
  let pieces = 0;
  for await (const piece of allDocsJson(store.docs, page, stepBytes)) {
    json += piece;
    pieces++;
  }
  return { json, pieces };
}

describe('allDocsJson', () => {
  const pages: AllDocsPage[] = [
    { limit: 1000, skip: 0 },
    { limit: 5, skip: 0 },
    { limit: 7, skip: 3 },
    { startkey: 'chunk:s02', endkey: 'chunk:s07\uffff', limit: 1000, skip: 1 },
    { limit: 30, skip: 15 },
    { startkey: 'summary:', limit: 2, skip: 0 },
    { limit: 0, skip: 0 },
    { startkey: 'zzz', limit: 10, skip: 0 },
  ];

  it('writes the very page allDocs returns, read in small steps', async () => {
    for (const page of pages) {
      const expected = await store.docs.allDocs({ ...page, includeDocs: true });
      // After the first step, steps of one document each.
      const small = await streamed(page, 1);
      expect(JSON.parse(small.json), JSON.stringify(page)).toEqual(expected);
      const whole = await streamed(page);
      expect(whole.json).toBe(small.json);
    }
  });

  it('reads a large page in several steps', async () => {
    const { json, pieces } = await streamed({ limit: 1000, skip: 0 }, 2000);
    expect(JSON.parse(json).rows).toHaveLength(48);
    // The opening, several steps of rows, and the closing brackets.
    expect(pieces).toBeGreaterThan(4);
  });

  it('skips no document when the last one written is deleted before the next step', async () => {
    const before = await store.docs.allDocs({ limit: 1000 });
    let deleted: string | undefined;
    // The store as the stream sees it: right after the first step, that step's last document goes.
    const docs = Object.create(store.docs) as typeof store.docs;
    docs.allDocs = async (options) => {
      const result = await store.docs.allDocs(options);
      if (deleted === undefined) {
        deleted = result.rows[result.rows.length - 1]!.id;
        await deleteDoc(store, deleted);
      }
      return result;
    };
    let json = '';
    for await (const piece of allDocsJson(docs, { limit: 1000, skip: 0 }, 1)) json += piece;
    const ids = (JSON.parse(json) as { rows: Array<{ id: string }> }).rows.map((r) => r.id);
    expect(ids).toEqual(before.rows.map((r) => r.id));
    expect(ids).toContain(deleted);
  });
});
