import { describe, expect, it } from 'vitest';
import { pairsQuery, UNPAIRED } from './phrase-pairs.js';

const term = (words: string, prefix = false) => ({
  tokens: words.split(' ').map((w) => (w === '-' ? null : w)),
  prefix,
});

describe('pairsQuery', () => {
  it('asks for each two adjacent tokens of which one is a pair word, or for an unpaired row', () => {
    expect(pairsQuery([term('read the file')])).toBe(`('read the' & 'the file') | ${UNPAIRED}`);
    expect(pairsQuery([term('does not exist')])).toBe(`('does not' & 'not exist') | ${UNPAIRED}`);
  });

  it('is null when no term has such a pair', () => {
    expect(pairsQuery([])).toBeNull();
    expect(pairsQuery([term('the')])).toBeNull();
    expect(pairsQuery([term('cannot find module')])).toBeNull();
    expect(pairsQuery([null])).toBeNull();
  });

  it('joins the pairs of every term, each once; a term left to the server adds none', () => {
    expect(pairsQuery([term('read the'), null, term('the file read the')])).toBe(
      `('read the' & 'the file') | ${UNPAIRED}`,
    );
  });

  it('pairs a prefix only through its exact neighbour', () => {
    expect(pairsQuery([term('read the fi', true)])).toBe(`('read the' & 'the fi':*) | ${UNPAIRED}`);
    // `th*` may be any word: nothing says its neighbour was paired.
    expect(pairsQuery([term('read th', true)])).toBeNull();
    expect(pairsQuery([term('the', true)])).toBeNull();
  });

  it('never pairs across a token the server skips; a prefix moves to the last one kept', () => {
    expect(pairsQuery([term('read the - file')])).toBe(`('read the') | ${UNPAIRED}`);
    expect(pairsQuery([term('read the fi -', true)])).toBe(`('read the' & 'the fi':*) | ${UNPAIRED}`);
  });
});
