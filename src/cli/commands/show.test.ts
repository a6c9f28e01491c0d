import { describe, expect, it } from 'vitest';
import { toolCounts } from './show.js';

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
