/**
 * `forEachDoc`, the paging every PostgreSQL view build reads documents with. Against a real
 * PostgreSQL (skipped, with the reason, when none answers).
 */
import path from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { testEngine } from '../../../../test/support/engines.js';
import type { Store } from '../../contract.js';
import { chunkDoc, entry, putDocs } from '../../contract/view-fixtures.js';
import { openStore } from '../../open-store.js';
import { storeSettings } from '../../store-settings.js';
import { PostgresDatabase } from '../postgres-database.js';
import { postgresSettings } from '../postgres-settings.js';
import { forEachDoc } from './postgres-view.js';

const engine = testEngine('postgres');
const describePg = engine.skip ? describe.skip : describe;

let store: Store | undefined;
let db: PostgresDatabase | undefined;
afterEach(async () => {
  await db?.close();
  await store?.close();
  db = store = undefined;
  await engine.cleanup();
});
afterAll(() => engine.stop());

describePg(`postgres: forEachDoc${engine.skip ? ` (skipped: ${engine.skip})` : ''}`, () => {
  it('visits every document once, in key order, in pages bounded by rows and by bytes', async () => {
    const env = await engine.serverEnv();
    store = await openStore({ dataDir: path.join(tmpdir(), 'ct-unused'), env });
    const chunks = ['s1', 's2', 's3'].flatMap((session) =>
      [0, 1].map((n) => chunkDoc(session, [entry(n, 'user', `${session} entry ${n} ${'x'.repeat(1000)}`)])),
    );
    await putDocs(store, chunks);
    const database = storeSettings(env).database!;
    db = await PostgresDatabase.open(postgresSettings(database.url, database.schema));
    const expected = chunks.map((c) => c._id).sort();

    const visit = async (pageSize: number, maxBytes?: number) => {
      const pages: string[][] = [];
      await forEachDoc(
        db!.pool,
        'chunk',
        async (rows) => void pages.push(rows.map((r) => r.id)),
        pageSize,
        maxBytes,
      );
      return pages;
    };
    expect(await visit(200)).toEqual([expected]);
    expect(await visit(4)).toEqual([expected.slice(0, 4), expected.slice(4)]);
    // Each body is over 1 kB: a 1.5 kB bound closes a page after its second document.
    const byBytes = await visit(200, 1500);
    expect(byBytes).toEqual([expected.slice(0, 2), expected.slice(2, 4), expected.slice(4)]);
    // A page always holds one document, however small the bound.
    expect(await visit(200, 0)).toEqual(expected.map((id) => [id]));
  });
});
