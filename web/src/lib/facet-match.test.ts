import { describe, expect, it } from 'vitest';
import {
  projectDirs,
  projectFacets,
  projectName,
  projectOf,
  resolveFacet,
  resolveOmniboxFilters,
  resolveProject,
} from './facet-match.js';

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
    { value: '/Users/steve/hitosea/happy', sessions: 2 },
    { value: '/tmp/happy-hour', sessions: 3 },
    { value: '/srv/Happy', sessions: 1 },
    { value: 'C:\\work\\demo', sessions: 1 },
  ];
  it('takes the last path segment as the project name', () => {
    expect(projectOf('/a/b/c/')).toBe('c');
    expect(projectOf('C:\\work\\demo')).toBe('demo');
  });
  it('adds up the sessions of the directories that share a name', () => {
    expect(projectFacets(cwds)).toEqual([
      { value: 'happy', sessions: 4 },
      { value: 'happy-hour', sessions: 3 },
      { value: 'Happy', sessions: 1 },
      { value: 'demo', sessions: 1 },
    ]);
  });
  it('resolves to an exact project name: exact, else case aside, else contained', () => {
    expect(resolveProject('happy', cwds)).toEqual({ value: 'happy', alternatives: [] });
    expect(resolveProject('Happy', cwds)).toEqual({ value: 'Happy', alternatives: [] });
    expect(resolveProject('HAPPY', cwds)).toMatchObject({ value: 'happy', alternatives: ['Happy'] });
    expect(resolveProject('demo', cwds).value).toBe('demo');
    // Contained: the name with most sessions (both happy directories together outweigh happy-hour).
    expect(resolveProject('hap', cwds)).toMatchObject({
      value: 'happy',
      alternatives: ['happy-hour', 'Happy'],
    });
    expect(resolveProject('hour', cwds)).toEqual({
      value: 'happy-hour',
      alternatives: [],
      note: '"hour" → happy-hour',
    });
    expect(resolveProject('my app', cwds)).toEqual({ alternatives: [], note: 'no value matches "my app"' });
  });
  it('asks the API for the resolved name, or the name as written when it cannot be resolved', () => {
    expect(projectName('hour', cwds)).toBe('happy-hour');
    expect(projectName('my app', cwds)).toBe('my app');
    expect(projectName(' hap ', undefined)).toBe('hap');
  });
});

describe('projectDirs', () => {
  const cwds = [
    { value: '/Users/devdvlive/Projects/happy', sessions: 1 },
    { value: '/Users/steve/Develop/hitosea/happy', sessions: 1 },
    { value: '/tmp/happy-hour', sessions: 5 },
    { value: '/srv/Happy', sessions: 3 },
  ];
  it('is every directory the API matches for a project name: those whose last segment is it', () => {
    expect(projectDirs('happy', cwds)).toEqual([
      '/Users/devdvlive/Projects/happy',
      '/Users/steve/Develop/hitosea/happy',
    ]);
    expect(projectDirs('Happy', cwds)).toEqual(['/srv/Happy']);
    expect(projectDirs('hap', cwds)).toEqual([]);
  });
});

describe('resolveOmniboxFilters', () => {
  const facets = {
    cwd: [
      { value: '/Users/dev/Projects/happy', sessions: 2 },
      { value: '/Users/steve/hitosea/happy', sessions: 1 },
      { value: '/home/me/api', sessions: 1 },
    ],
    model: [{ value: 'claude-opus-4-5-20251101', sessions: 3 }],
    hostname: [{ value: 'vm', sessions: 9 }],
  };
  it('sends a project as its exact name, saying which directories it covers, and resolves typed values', () => {
    expect(
      resolveOmniboxFilters({ project: 'happy', model: 'opus', hostname: 'vm', from: '2026-03-01' }, facets),
    ).toEqual({
      filters: { project: 'happy', model: 'claude-opus-4-5-20251101', hostname: 'vm', from: '2026-03-01' },
      notes: [
        'project:happy → 2 directories: /Users/dev/Projects/happy, /Users/steve/hitosea/happy',
        'model:opus → claude-opus-4-5-20251101',
      ],
      problems: [],
      ambiguous: [],
    });
    expect(resolveOmniboxFilters({ project: 'api' }, facets).notes).toEqual(['project:api → /home/me/api']);
  });
  it('resolves a partial or differently cased name to the project name', () => {
    expect(resolveOmniboxFilters({ project: 'hap' }, facets)).toEqual({
      filters: { project: 'happy' },
      notes: ['project:hap → happy; 2 directories: /Users/dev/Projects/happy, /Users/steve/hitosea/happy'],
      problems: [],
      ambiguous: [],
    });
    expect(resolveOmniboxFilters({ project: 'API' }, facets)).toEqual({
      filters: { project: 'api' },
      notes: ['project:API → api; /home/me/api'],
      problems: [],
      ambiguous: [],
    });
    // Two names contain it: asked, not picked.
    expect(resolveOmniboxFilters({ project: 'p' }, facets)).toMatchObject({
      filters: {},
      problems: ['project:p matches 2 projects (happy (3), api (1)); pick one: not applied'],
      ambiguous: [
        {
          key: 'project',
          typed: 'p',
          candidates: [
            { value: 'happy', sessions: 3 },
            { value: 'api', sessions: 1 },
          ],
        },
      ],
    });
  });
  it('does not apply a project no directory matches: it is a problem', () => {
    const r = resolveOmniboxFilters({ project: 'my app', model: 'opus' }, facets);
    expect(r.filters).toEqual({ model: 'claude-opus-4-5-20251101' });
    expect(r.problems).toEqual([
      'project:my app: no value matches "my app" (no directory\'s name is or contains it); not applied',
    ]);
  });
  it('keeps values literally without facets, and says when nothing matches', () => {
    expect(resolveOmniboxFilters({ source: 'live' }, facets)).toEqual({
      filters: { source: 'live' },
      notes: [],
      problems: [],
      ambiguous: [],
    });
    expect(resolveOmniboxFilters({ project: 'x' }, {})).toEqual({
      filters: { project: 'x' },
      notes: [],
      problems: [],
      ambiguous: [],
    });
    expect(resolveOmniboxFilters({ model: 'gpt' }, facets)).toEqual({
      filters: { model: 'gpt' },
      notes: ['model: no value matches "gpt"'],
      problems: [],
      ambiguous: [],
    });
    expect(resolveOmniboxFilters({ project: 'x', cwd: '/Users/dev/Projects/happy' }, facets).notes).toEqual([
      'project:x ignored: cwd: is given',
    ]);
  });
  it('never picks one of several directories a cwd: contains: it asks which one', () => {
    expect(resolveOmniboxFilters({ cwd: '/Users', model: 'opus' }, facets)).toMatchObject({
      filters: { model: 'claude-opus-4-5-20251101' },
      notes: ['model:opus → claude-opus-4-5-20251101'],
      problems: [
        'cwd:/Users matches 2 directories (/Users/dev/Projects/happy (2), /Users/steve/hitosea/happy (1)); pick one: not applied',
      ],
    });
    // One directory containing it, or the directory itself, is no guess.
    expect(resolveOmniboxFilters({ cwd: '/home' }, facets)).toEqual({
      filters: { cwd: '/home/me/api' },
      notes: ['cwd:/home → /home/me/api'],
      problems: [],
      ambiguous: [],
    });
    expect(resolveOmniboxFilters({ cwd: '/Users/dev/Projects/happy' }, facets).filters).toEqual({
      cwd: '/Users/dev/Projects/happy',
    });
  });
  it('never picks one of several models, hosts or sources: it asks which one, with their counts', () => {
    const many = {
      model: [
        { value: 'claude-opus-4-1-20250805', sessions: 2 },
        { value: 'claude-opus-4-5-20251101', sessions: 3 },
        { value: 'claude-sonnet-4-20250514', sessions: 12 },
      ],
      hostname: [
        { value: 'laptop', sessions: 4 },
        { value: 'Laptop', sessions: 1 },
        { value: 'build-01', sessions: 7 },
        { value: 'build-02', sessions: 2 },
      ],
      source: [
        { value: 'live', sessions: 5 },
        { value: 'backfill', sessions: 9 },
        { value: 'live-import', sessions: 1 },
      ],
    };
    const r = resolveOmniboxFilters(
      { model: 'opus', hostname: 'build', source: 'liv', from: '2026-01-01' },
      many,
    );
    expect(r.filters).toEqual({ from: '2026-01-01' });
    expect(r.ambiguous).toEqual([
      {
        key: 'model',
        typed: 'opus',
        candidates: [
          { value: 'claude-opus-4-5-20251101', sessions: 3 },
          { value: 'claude-opus-4-1-20250805', sessions: 2 },
        ],
      },
      {
        key: 'hostname',
        typed: 'build',
        candidates: [
          { value: 'build-01', sessions: 7 },
          { value: 'build-02', sessions: 2 },
        ],
      },
      {
        key: 'source',
        typed: 'liv',
        candidates: [
          { value: 'live', sessions: 5 },
          { value: 'live-import', sessions: 1 },
        ],
      },
    ]);
    expect(r.problems).toEqual([
      'model:opus matches 2 models (claude-opus-4-5-20251101 (3), claude-opus-4-1-20250805 (2)); pick one: not applied',
      'host:build matches 2 hosts (build-01 (7), build-02 (2)); pick one: not applied',
      'source:liv matches 2 sources (live (5), live-import (1)); pick one: not applied',
    ]);
    // Equal but for case is as ambiguous; an exact value, a unique match or the literal value is not.
    expect(resolveOmniboxFilters({ hostname: 'LAPTOP' }, many).ambiguous[0]?.candidates).toHaveLength(2);
    expect(resolveOmniboxFilters({ hostname: 'laptop', source: 'live', model: 'sonnet' }, many)).toEqual({
      filters: { hostname: 'laptop', source: 'live', model: 'claude-sonnet-4-20250514' },
      notes: ['model:sonnet → claude-sonnet-4-20250514'],
      problems: [],
      ambiguous: [],
    });
  });
});
