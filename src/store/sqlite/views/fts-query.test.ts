import { describe, expect, it } from 'vitest';
import { ftsQuery } from './fts-query.js';

describe('ftsQuery', () => {
  it('quotes bare words, keeps phrases and prefixes', () => {
    expect(ftsQuery('connection pool')).toBe('"connection" "pool"');
    expect(ftsQuery('"connection pool" size')).toBe('"connection pool" "size"');
    expect(ftsQuery('conf* "pool si"*')).toBe('"conf"* "pool si"*');
  });

  it('takes operators, column filters and punctuation literally', () => {
    expect(ftsQuery('a OR b')).toBe('"a" "OR" "b"');
    expect(ftsQuery('NEAR(a b)')).toBe('"NEAR(a" "b)"');
    expect(ftsQuery('col:x -y ^z')).toBe('"col:x" "-y" "^z"');
    expect(ftsQuery('say "hi')).toBe('"say" "hi"');
    expect(ftsQuery('po*ol')).toBe('"po ol"');
  });

  it('escapes embedded quotes and control characters', () => {
    expect(ftsQuery('"a""b"')).toBe('"a" "b"');
    expect(ftsQuery("it's")).toBe('"it\'s"');
    expect(ftsQuery('a\u0000b')).toBe('"a b"');
  });

  it('drops terms without a letter or digit, and returns null when nothing is left', () => {
    expect(ftsQuery('')).toBeNull();
    expect(ftsQuery('  " * - ( ) 🚀 ')).toBeNull();
    expect(ftsQuery('"" pool')).toBe('"pool"');
    // A CJK word is the phrase of its characters, as the index holds them.
    expect(ftsQuery('日本語 café')).toBe('" 日  本  語 " "café"');
  });
});
