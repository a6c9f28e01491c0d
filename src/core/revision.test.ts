import { describe, expect, it } from 'vitest';
import { canonicalJson, contentHash, nextRev, parseRev } from './revision.js';

describe('revision', () => {
  it('hashes content independent of key order and ignores _id/_rev', () => {
    expect(canonicalJson({ b: 1, a: { d: 2, c: 3 } })).toBe('{"a":{"c":3,"d":2},"b":1}');
    expect(contentHash({ _id: 'x', _rev: '1-a', a: 1, b: 2 })).toBe(contentHash({ b: 2, a: 1 }));
    expect(contentHash({ a: 1 })).not.toBe(contentHash({ a: 2 }));
  });
  it('bumps the revision number', () => {
    expect(nextRev(undefined, 'ab')).toBe('1-ab');
    expect(nextRev('7-ff', 'cd')).toBe('8-cd');
    expect(parseRev('nonsense')).toBeNull();
  });
});
