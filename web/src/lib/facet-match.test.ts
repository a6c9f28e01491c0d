import { describe, expect, it } from 'vitest';
import { projectOf, resolveFacet, resolveProject } from './facet-match.js';

const models = [
  { value: 'claude-sonnet-4-20250514', sessions: 12 },
  { value: 'claude-opus-4-1-20250805', sessions: 2 },
  { value: 'claude-opus-4-5-20251101', sessions: 3 },
];

describe('resolveFacet', () => {
  it('prefers the exact value', () => {
    expect(resolveFacet('claude-opus-4-1-20250805', models)).toEqual({
      value: 'claude-opus-4-1-20250805',
      alternatives: [],
    });
  });
  it('falls back to a unique or most-used substring match', () => {
    expect(resolveFacet('sonnet', models)).toMatchObject({
      value: 'claude-sonnet-4-20250514',
      alternatives: [],
    });
    expect(resolveFacet('OPUS', models)).toMatchObject({
      value: 'claude-opus-4-5-20251101',
      alternatives: ['claude-opus-4-1-20250805'],
    });
  });
  it('says when nothing matches', () => {
    expect(resolveFacet('gpt', models)).toEqual({ alternatives: [], note: 'no value matches "gpt"' });
    expect(resolveFacet('  ', models)).toEqual({ alternatives: [] });
  });
});

describe('resolveProject', () => {
  const cwds = [
    { value: '/Users/dev/Projects/happy', sessions: 2 },
    { value: '/tmp/happy-hour', sessions: 5 },
    { value: 'C:\\work\\demo', sessions: 1 },
  ];
  it('matches the last path segment', () => {
    expect(projectOf('/a/b/c/')).toBe('c');
    expect(projectOf('C:\\work\\demo')).toBe('demo');
    expect(resolveProject('happy', cwds)).toEqual({ value: '/Users/dev/Projects/happy', alternatives: [] });
    expect(resolveProject('demo', cwds).value).toBe('C:\\work\\demo');
    expect(resolveProject('hap', cwds)).toMatchObject({
      value: '/tmp/happy-hour',
      alternatives: ['/Users/dev/Projects/happy'],
    });
  });
});

import { resolveOmniboxFilters } from './facet-match.js';

describe('resolveOmniboxFilters', () => {
  const facets = {
    cwd: [{ value: '/Users/dev/Projects/happy', sessions: 2 }],
    model: [{ value: 'claude-opus-4-5-20251101', sessions: 3 }],
    hostname: [{ value: 'vm', sessions: 9 }],
  };
  it('turns project into cwd and resolves typed values', () => {
    expect(
      resolveOmniboxFilters({ project: 'happy', model: 'opus', hostname: 'vm', from: '2026-03-01' }, facets),
    ).toEqual({
      filters: {
        cwd: '/Users/dev/Projects/happy',
        model: 'claude-opus-4-5-20251101',
        hostname: 'vm',
        from: '2026-03-01',
      },
      notes: ['project:happy → /Users/dev/Projects/happy', 'model:opus → claude-opus-4-5-20251101'],
    });
  });
  it('keeps values literally without facets, and says when nothing matches', () => {
    expect(resolveOmniboxFilters({ source: 'live' }, facets)).toEqual({
      filters: { source: 'live' },
      notes: [],
    });
    expect(resolveOmniboxFilters({ model: 'gpt' }, facets)).toEqual({
      filters: { model: 'gpt' },
      notes: ['model: no value matches "gpt"'],
    });
    expect(resolveOmniboxFilters({ project: 'x', cwd: '/Users/dev/Projects/happy' }, facets).notes).toEqual([
      'project:x ignored: cwd: is given',
    ]);
  });
});
