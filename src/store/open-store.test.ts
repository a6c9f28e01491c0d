import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from './contract.js';
import { openStore } from './open-store.js';

let dir: string;
let store: Store;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ct-open-store-'));
  store = await openStore({ dataDir: join(dir, 'nested', 'data'), env: {} });
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('openStore', () => {
  it('opens the embedded engine in a fresh data directory', async () => {
    expect(store.capabilities).toEqual({ engine: 'sqlite', multiProcess: false, exactSearchTotals: true });
    expect(await store.stats()).toEqual({ documents: 0, sessions: 0, objects: 0, objectBytes: 0 });
  });

  it('counts live session documents (not design documents), sessions and objects', async () => {
    const written = await store.docs.bulkUpsert([
      { _id: 'summary:a', sessionId: 'a', type: 'summary' },
      { _id: 'chunk:a:1', sessionId: 'a', type: 'chunk' },
      { _id: 'summary:b', sessionId: 'b', type: 'summary' },
      { _id: '_design/x', language: 'transcripts-view' },
    ]);
    await store.docs.delete('summary:b', written[2]!.rev!);
    await store.objects.put('a/transcript.jsonl', [Buffer.from('0123456789')]);
    await store.objects.put('a/subagents/s.jsonl', [Buffer.from('01')]);
    expect(await store.stats()).toEqual({ documents: 2, sessions: 1, objects: 2, objectBytes: 12 });
    expect((await store.docs.allDocs()).total_rows).toBe(3);
  });

  it('runs migration-locked work one caller at a time, past failures', async () => {
    const order: string[] = [];
    const first = store.withMigrationLock(async () => {
      order.push('first:start');
      await sleep(20);
      order.push('first:end');
      throw new Error('step failed');
    });
    const second = store.withMigrationLock(async () => {
      order.push('second');
      return 42;
    });
    await expect(first).rejects.toThrow('step failed');
    expect(await second).toBe(42);
    expect(order).toEqual(['first:start', 'first:end', 'second']);
  });

  it('fails at once, naming it, on a data directory that cannot be made (under /proc)', async () => {
    await expect(openStore({ dataDir: '/proc/ct-no/data', env: {} })).rejects.toThrow(/\/proc\/ct-no/);
  });

  it('closes idempotently', async () => {
    await store.close();
    await store.close();
    store = await openStore({ dataDir: join(dir, 'nested', 'data'), env: {} });
  });
});
