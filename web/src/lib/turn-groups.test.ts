import { describe, expect, it } from 'vitest';
import { groupTurns } from './turn-groups.js';

const t = (sessionId: string, index: number) => ({ sessionId, index });

describe('groupTurns', () => {
  it('puts consecutive turns of one session together, in order', () => {
    expect(groupTurns([t('a', 5), t('a', 3), t('b', 9), t('a', 1)])).toEqual([
      { sessionId: 'a', turns: [t('a', 5), t('a', 3)] },
      { sessionId: 'b', turns: [t('b', 9)] },
      { sessionId: 'a', turns: [t('a', 1)] },
    ]);
  });

  it('gives nothing for nothing', () => {
    expect(groupTurns([])).toEqual([]);
  });
});
