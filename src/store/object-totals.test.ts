import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DirObjectStore } from './dir-objects/dir-object-store.js';
import { CachedObjectTotals, invalidatingWrites, type ObjectTotals } from './object-totals.js';

function counting(values: ObjectTotals[]) {
  const calls: Array<() => void> = [];
  let n = 0;
  return {
    get walks() {
      return n;
    },
    /** Resolves immediately with the next value, or waits for `finish` when `hold` is set. */
    hold: false,
    compute(): Promise<ObjectTotals> {
      const value = values[Math.min(n, values.length - 1)]!;
      n++;
      if (!this.hold) return Promise.resolve(value);
      return new Promise((resolve) => calls.push(() => resolve(value)));
    },
    finish() {
      for (const c of calls.splice(0)) c();
    },
  };
}

const A = { objects: 1, objectBytes: 10 };
const B = { objects: 2, objectBytes: 30 };

describe('CachedObjectTotals', () => {
  it('walks once, then answers from memory until a write', async () => {
    const c = counting([A, B]);
    const totals = new CachedObjectTotals(() => c.compute());
    expect(await totals.get()).toEqual(A);
    expect(await totals.get()).toEqual(A);
    expect(c.walks).toBe(1);
    totals.invalidate();
    expect(await totals.get()).toEqual(B);
    expect(c.walks).toBe(2);
  });

  it('shares one walk between callers that ask at once', async () => {
    const c = counting([A]);
    c.hold = true;
    const totals = new CachedObjectTotals(() => c.compute());
    const both = Promise.all([totals.get(), totals.get()]);
    c.finish();
    expect(await both).toEqual([A, A]);
    expect(c.walks).toBe(1);
  });

  it('does not keep figures from a walk that a write overtook', async () => {
    const c = counting([A, B]);
    c.hold = true;
    const totals = new CachedObjectTotals(() => c.compute());
    const first = totals.get();
    totals.invalidate(); // written while the walk was under way
    c.finish();
    await first;
    c.hold = false;
    expect(await totals.get()).toEqual(B);
    expect(c.walks).toBe(2);
  });

  it('walks again once the figures are older than maxAgeMs (a bucket other processes write)', async () => {
    let now = 1000;
    const c = counting([A, B]);
    const totals = new CachedObjectTotals(() => c.compute(), { maxAgeMs: 30_000, now: () => now });
    await totals.get();
    now += 29_999;
    expect(await totals.get()).toEqual(A);
    now += 1;
    expect(await totals.get()).toEqual(B);
  });

  it('walks again after a failed walk', async () => {
    let fail = true;
    const totals = new CachedObjectTotals(async () => {
      if (fail) throw new Error('bucket unreachable');
      return A;
    });
    await expect(totals.get()).rejects.toThrow('bucket unreachable');
    fail = false;
    expect(await totals.get()).toEqual(A);
  });
});

describe('invalidatingWrites over a real object directory', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('keeps the count and bytes exact across puts, appends and deletes', async () => {
    dir = await mkdtemp(join(tmpdir(), 'ct-totals-'));
    const store = await DirObjectStore.open({ root: join(dir, 'objects'), uploads: join(dir, 'uploads') });
    const totals = new CachedObjectTotals(() => store.totals());
    const objects = invalidatingWrites(store, totals);
    expect(await totals.get()).toEqual({ objects: 0, objectBytes: 0 });
    await objects.put('s1/transcript.jsonl', [Buffer.from('abc\n')]);
    expect(await totals.get()).toEqual({ objects: 1, objectBytes: 4 });
    await objects.put('s1/transcript.jsonl', [Buffer.from('def\n')], { offset: 4 });
    await objects.put('s2/transcript.jsonl', [Buffer.from('x')]);
    expect(await totals.get()).toEqual({ objects: 2, objectBytes: 9 });
    await objects.delete('s2/transcript.jsonl');
    expect(await totals.get()).toEqual({ objects: 1, objectBytes: 8 });
    // A failed put (a wrong offset) still leaves the figures right.
    await expect(objects.put('s1/transcript.jsonl', [Buffer.from('z')], { offset: 99 })).rejects.toThrow();
    expect(await totals.get()).toEqual({ objects: 1, objectBytes: 8 });
  });
});
