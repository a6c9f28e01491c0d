import { describe, expect, it } from 'vitest';
import { Slots } from './slots.js';

describe('Slots', () => {
  it('lets n holders in and the next one when a slot is given back, in order', async () => {
    const slots = new Slots(2);
    const order: string[] = [];
    await slots.take();
    await slots.take();
    const third = slots.take().then(() => order.push('third'));
    const fourth = slots.take().then(() => order.push('fourth'));
    await Promise.resolve();
    expect(order).toEqual([]);
    slots.give();
    await third;
    expect(order).toEqual(['third']);
    slots.give();
    await fourth;
    expect(order).toEqual(['third', 'fourth']);
    slots.give();
    slots.give();
    await slots.take(); // two free again
    await slots.take();
  });
});
