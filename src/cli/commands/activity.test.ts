import { describe, expect, it } from 'vitest';
import { densityBar } from './activity.js';

describe('densityBar', () => {
  it('scales to the busiest day in eighths of a cell; any activity shows a sliver', () => {
    expect(densityBar(100, 100, 20)).toBe('█'.repeat(20));
    expect(densityBar(50, 100, 20)).toBe('█'.repeat(10));
    expect(densityBar(1, 1000, 20)).toBe('▏');
    expect(densityBar(1, 100, 20)).toBe('▎');
    expect(densityBar(55, 100, 4)).toBe('██▎');
    expect(densityBar(0, 100)).toBe('');
    expect(densityBar(5, 0)).toBe('');
  });
});
