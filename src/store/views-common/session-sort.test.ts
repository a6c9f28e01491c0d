import { describe, expect, it } from 'vitest';
import { checkSessionSort, sessionOrderSql, sortValues } from './session-sort.js';

describe('session sort', () => {
  it('orders by the key either way, without the value last, ties by id', () => {
    expect(sessionOrderSql({ by: 'tokens', dir: 'asc' }, 'r')).toBe('r.tokens ASC NULLS LAST, r.session_id');
    expect(sessionOrderSql({ by: 'lastActivity', dir: 'desc' }, 'r')).toBe(
      'r.last_ms DESC NULLS LAST, r.session_id',
    );
    expect(checkSessionSort(undefined)).toEqual({ by: 'lastActivity', dir: 'desc' });
    expect(() => checkSessionSort({ by: 'title' as never, dir: 'asc' })).toThrow(/sort must be one of/);
    expect(() => checkSessionSort({ by: 'tokens', dir: 'up' as never })).toThrow(/asc" or "desc/);
  });

  it('reads the sort values of a summary defensively: a malformed one sorts last, never fails', () => {
    const tokens = { input: 100, output: 20, cacheWrite: 3, cacheRead: 4000 };
    expect(sortValues({ tokens, counts: { entries: 12 } }, [[0, 60_000]])).toEqual({
      runtimeMs: 60_000,
      tokens: 4123,
      entries: 12,
    });
    // What is known of the tokens counts; nothing known is no value.
    expect(sortValues({ tokens: { input: 5, output: 'many' } }, []).tokens).toBe(5);
    expect(sortValues({ tokens: 'lots', counts: [] }, [])).toEqual({
      runtimeMs: null,
      tokens: null,
      entries: null,
    });
    // Whole numbers a bigint column takes.
    expect(sortValues({ counts: { entries: 2.6 } }, []).entries).toBe(3);
    expect(sortValues({ counts: { entries: 1e300 } }, []).entries).toBeNull();
    expect(sortValues({ counts: { entries: Number.NaN } }, []).entries).toBeNull();
  });
});
