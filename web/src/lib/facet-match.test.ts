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

import { projectDirs, resolveOmniboxFilters } from './facet-match.js';

describe('projectDirs', () => {
  const cwds = [
    { value: '/Users/devdvlive/Projects/happy', sessions: 1 },
    { value: '/Users/steve/Develop/hitosea/happy', sessions: 1 },
    { value: '/tmp/happy-hour', sessions: 5 },
    { value: '/home/me/API', sessions: 2 },
  ];
  it('is every directory whose name is the project, else every one whose name contains it', () => {
    expect(projectDirs('happy', cwds)).toEqual([
      '/Users/devdvlive/Projects/happy',
      '/Users/steve/Develop/hitosea/happy',
    ]);
    expect(projectDirs('HAPPY', cwds)).toHaveLength(2);
    expect(projectDirs('hap', cwds)).toEqual([
      '/tmp/happy-hour',
      '/Users/devdvlive/Projects/happy',
      '/Users/steve/Develop/hitosea/happy',
    ]);
    expect(projectDirs('api', cwds)).toEqual(['/home/me/API']);
    expect(projectDirs('my app', cwds)).toEqual([]);
    expect(projectDirs(' ', cwds)).toEqual([]);
  });
});

describe('resolveOmniboxFilters', () => {
  const facets = {
    cwd: [
      { value: '/Users/dev/Projects/happy', sessions: 2 },
      { value: '/Users/steve/hitosea/happy', sessions: 1 },
    ],
    model: [{ value: 'claude-opus-4-5-20251101', sessions: 3 }],
    hostname: [{ value: 'vm', sessions: 9 }],
  };
  it('keeps a project for the list (every directory it names) and resolves typed values', () => {
    expect(
      resolveOmniboxFilters({ project: 'happy', model: 'opus', hostname: 'vm', from: '2026-03-01' }, facets),
    ).toEqual({
      filters: { project: 'happy', model: 'claude-opus-4-5-20251101', hostname: 'vm', from: '2026-03-01' },
      notes: [
        'project:happy → 2 directories: /Users/dev/Projects/happy, /Users/steve/hitosea/happy',
        'model:opus → claude-opus-4-5-20251101',
      ],
      problems: [],
    });
  });
  it('gives search the most-used directory of a project, saying it takes one', () => {
    expect(resolveOmniboxFilters({ project: 'happy' }, facets, 'search')).toEqual({
      filters: { cwd: '/Users/dev/Projects/happy' },
      notes: [
        'project:happy → /Users/dev/Projects/happy (search takes one directory; also /Users/steve/hitosea/happy)',
      ],
      problems: [],
    });
  });
  it('does not apply a project no directory matches: it is a problem, for the list and for search', () => {
    for (const target of ['list', 'search'] as const) {
      const r = resolveOmniboxFilters({ project: 'my app', model: 'opus' }, facets, target);
      expect(r.filters).toEqual({ model: 'claude-opus-4-5-20251101' });
      expect(r.problems).toEqual([
        'project:my app: no directory\'s name is or contains "my app"; not applied',
      ]);
    }
  });
  it('keeps values literally without facets, and says when nothing matches', () => {
    expect(resolveOmniboxFilters({ source: 'live' }, facets)).toEqual({
      filters: { source: 'live' },
      notes: [],
      problems: [],
    });
    expect(resolveOmniboxFilters({ project: 'x' }, {})).toEqual({
      filters: { project: 'x' },
      notes: [],
      problems: [],
    });
    expect(resolveOmniboxFilters({ model: 'gpt' }, facets)).toEqual({
      filters: { model: 'gpt' },
      notes: ['model: no value matches "gpt"'],
      problems: [],
    });
    expect(resolveOmniboxFilters({ project: 'x', cwd: '/Users/dev/Projects/happy' }, facets).notes).toEqual([
      'project:x ignored: cwd: is given',
    ]);
  });
});
