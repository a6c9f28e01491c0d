import { describe, expect, it } from 'vitest';
import { modelCosts, toolCounts } from './show.js';

describe('toolCounts (show)', () => {
  it('lists every tool, most used first, ties by name', () => {
    expect(toolCounts({ Write: 1, Bash: 100, LS: 1, Edit: 60, KillBash: 1 })).toEqual([
      'Bash 100',
      'Edit 60',
      'KillBash 1',
      'LS 1',
      'Write 1',
    ]);
    expect(toolCounts({ Read: 1234 })).toEqual(['Read 1,234']);
    expect(toolCounts({})).toEqual([]);
  });
});

describe('modelCosts (show)', () => {
  it('lists each model dearest first, one without a price last', () => {
    expect(modelCosts({ cheap: 0.004, 'claude-fable-5': null, dear: 1234.5, '': null })).toEqual([
      'dear $1,234.50',
      'cheap <$0.01',
      'no model named no price',
      'claude-fable-5 no price',
    ]);
  });
});
