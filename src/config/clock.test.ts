import { describe, expect, it } from 'vitest';
import { clockFromEnv } from './clock.js';

describe('clockFromEnv', () => {
  it('is the system clock unless CT_NOW pins it', () => {
    const c = clockFromEnv({});
    expect(c.pinned).toBeNull();
    expect(Math.abs(c.now() - Date.now())).toBeLessThan(1000);
    const p = clockFromEnv({ CT_NOW: '2025-07-01T10:00:00+02:00' });
    expect(p.pinned).toBe('2025-07-01T08:00:00.000Z');
    expect(p.now()).toBe(Date.parse('2025-07-01T08:00:00Z'));
  });

  it('ignores nonsense, saying why', () => {
    const c = clockFromEnv({ CT_NOW: 'tomorrow' });
    expect(c.pinned).toBeNull();
    expect(c.problem).toMatch(/CT_NOW="tomorrow"/);
  });
});
