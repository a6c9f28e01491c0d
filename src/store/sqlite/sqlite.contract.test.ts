import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { Store } from '../contract.js';
import { describeDocStoreContract } from '../contract/doc-store.case.js';
import { describeObjectStoreContract } from '../contract/object-store.case.js';
import { describeViewsContract } from '../contract/views.case.js';
import { openStore } from '../open-store.js';

const dirs: string[] = [];

/** A fresh embedded store in its own temp dir (SQLite file + object directory). */
async function open(): Promise<Store> {
  const dir = await mkdtemp(join(tmpdir(), 'ct-sqlite-'));
  dirs.push(dir);
  return openStore({ dataDir: dir });
}

// Runs after the suites' own afterEach has closed the store.
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

const engine = { name: 'sqlite', open };
describeDocStoreContract(engine);
describeObjectStoreContract(engine);
describeViewsContract(engine);
