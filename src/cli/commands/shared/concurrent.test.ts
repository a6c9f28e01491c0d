import { describe, expect, it } from 'vitest';
import { mapConcurrent } from './concurrent.js';

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
