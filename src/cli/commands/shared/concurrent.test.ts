import { describe, expect, it } from 'vitest';
import { mapConcurrent, SessionWrites } from './concurrent.js';

const tick = () => new Promise((r) => setTimeout(r, 1));

describe('mapConcurrent', () => {
  it('keeps input order and never runs more than the limit at once', async () => {
    let running = 0;
    let peak = 0;
    const out = await mapConcurrent([5, 4, 3, 2, 1, 0], 2, async (n, i) => {
      running++;
      peak = Math.max(peak, running);
      for (let k = 0; k < n; k++) await tick();
      running--;
      return `${i}:${n}`;
    });
    expect(out).toEqual(['0:5', '1:4', '2:3', '3:2', '4:1', '5:0']);
    expect(peak).toBe(2);
    expect(await mapConcurrent([], 4, async () => 1)).toEqual([]);
  });

  it('rejects with the first failure and starts nothing after it', async () => {
    const started: number[] = [];
    await expect(
      mapConcurrent([0, 1, 2, 3, 4, 5], 2, async (n) => {
        started.push(n);
        await tick();
        if (n === 1) throw new Error('boom 1');
        return n;
      }),
    ).rejects.toThrow('boom 1');
    expect(started.length).toBeLessThan(6);
  });
});

describe('SessionWrites', () => {
  /** A write that ends (or fails) when told to. */
  const pending = () => {
    let end!: (err?: Error) => void;
    const done = new Promise<void>((resolve, reject) => {
      end = (err) => (err ? reject(err) : resolve());
    });
    return { done, end };
  };
  const settled = async (p: Promise<unknown>) => {
    let state = 'pending';
    p.then(
      () => (state = 'resolved'),
      () => (state = 'rejected'),
    );
    await tick();
    return state;
  };

  it('lets writes of other sessions overlap up to the limit, and waits for one of the same session', async () => {
    const writes = new SessionWrites(2);
    const a = pending();
    const b = pending();
    writes.add(new Set(['s1']), a.done);
    expect(await settled(writes.clear(new Set(['s2'])))).toBe('resolved');
    writes.add(new Set(['s2', 's3']), b.done);
    // Same session as the second write: waits for it, not for the first.
    const third = writes.clear(new Set(['s3']));
    expect(await settled(third)).toBe('pending');
    b.end();
    expect(await settled(third)).toBe('resolved');
    // Full: the next write of a new session waits for the oldest.
    writes.add(new Set(['s4']), pending().done);
    const fourth = writes.clear(new Set(['s5']));
    expect(await settled(fourth)).toBe('pending');
    a.end();
    expect(await settled(fourth)).toBe('resolved');
  });

  it('rejects the wait for a failed write, and drain waits for all', async () => {
    const writes = new SessionWrites(2);
    const a = pending();
    writes.add(new Set(['s1']), a.done);
    a.end(new Error('HTTP 500'));
    await expect(writes.clear(new Set(['s1']))).rejects.toThrow('HTTP 500');
    const b = pending();
    writes.add(new Set(['s2']), b.done);
    const drained = writes.drain();
    expect(await settled(drained)).toBe('pending');
    b.end();
    expect(await settled(drained)).toBe('resolved');
  });
});
