import { describe, expect, it } from 'vitest';
import { termParams } from './search-query.js';

describe('termParams', () => {
  it('reduces each term to its unicode61 tokens, accents removed, keeping prefixes', () => {
    expect(termParams('"pool si"* src/db.ts Café')).toMatchObject({
      terms: ['pool si', 'src db ts', 'Cafe'],
      prefixes: [true, false, false],
    });
    expect(termParams('a OR -b')?.terms).toEqual(['a', 'OR', ' b']);
  });

  it('is null when nothing is searchable', () => {
    expect(termParams('  " * 🚀')).toBeNull();
  });
});
