import { afterAll, describe, expect, it, vi } from 'vitest';

// The API client is made when api.ts loads: give it an origin and a fetch that records each call.
const asked: URL[] = [];
vi.stubGlobal('location', { origin: 'http://ui.test' });
vi.stubGlobal(
  'fetch',
  vi.fn(async (href: string) => {
    const url = new URL(href);
    asked.push(url);
    const sessions = [{ id: 's-1', lastActivity: '2026-01-01T00:00:00.000Z' }];
    return new Response(
      JSON.stringify({ total: 3, offset: Number(url.searchParams.get('offset')), limit: 1, sessions }),
      {
        headers: { 'content-type': 'application/json' },
      },
    );
  }),
);
const { apiFilters, listQueryParams, sessionListInfiniteOptions } = await import('./sessions.js');
afterAll(() => vi.unstubAllGlobals());

const cwds = [
  { value: '/a/app', sessions: 3 },
  { value: '/b/app', sessions: 1 },
  { value: '/c/other', sessions: 5 },
];

describe('the list query: filters go to the API as they are, a project as its exact name', () => {
  it('keeps the words as `text` beside the other filters', () => {
    expect(listQueryParams({ text: 'timer state', model: 'opus' }, undefined)).toEqual({
      text: 'timer state',
      model: 'opus',
    });
    expect(listQueryParams({ text: '' }, undefined)).toEqual({});
  });

  it('sends a project as the name it resolves to, else as written', () => {
    expect(listQueryParams({ text: 'timer', project: 'app' }, cwds)).toEqual({
      text: 'timer',
      project: 'app',
    });
    expect(listQueryParams({ project: 'AP' }, cwds)).toEqual({ project: 'app' });
    expect(listQueryParams({ project: 'oth', cwd: '/c/other' }, cwds)).toEqual({
      project: 'other',
      cwd: '/c/other',
    });
    // Directories not known, or none matching: the API is asked the name as written.
    expect(listQueryParams({ project: 'ap' }, undefined)).toEqual({ project: 'ap' });
    expect(listQueryParams({ project: 'zzz' }, cwds)).toEqual({ project: 'zzz' });
    expect(apiFilters({ model: 'm' }, cwds)).toEqual({ model: 'm' });
    expect(apiFilters({ project: 'ot', from: '2026-01-01' }, cwds)).toEqual({
      project: 'other',
      from: '2026-01-01',
    });
  });

  it('asks one request per page, with project and the words and no cwd', async () => {
    asked.length = 0;
    const options = sessionListInfiniteOptions(listQueryParams({ text: 'timer', project: 'ap' }, cwds), 1);
    // Only what this queryFn reads of its context.
    const page = await options.queryFn!({ pageParam: 0, signal: new AbortController().signal } as never);
    const next = options.getNextPageParam!(page, [page], 0, [0]);
    expect(next).toBe(1);
    await options.queryFn!({ pageParam: next, signal: new AbortController().signal } as never);
    expect(
      asked.map((u) => [
        u.pathname,
        u.searchParams.get('project'),
        u.searchParams.get('text'),
        u.searchParams.get('offset'),
        u.searchParams.has('cwd'),
      ]),
    ).toEqual([
      ['/api/sessions', 'app', 'timer', '0', false],
      ['/api/sessions', 'app', 'timer', '1', false],
    ]);
    expect(page.total).toBe(3);
  });
});
