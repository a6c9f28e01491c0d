import { afterAll, describe, expect, it, vi } from 'vitest';

// The API client is made when api.ts loads: give it an origin and a fetch that records each call.
const asked: URL[] = [];
vi.stubGlobal('location', { origin: 'http://ui.test' });
vi.stubGlobal(
  'fetch',
  vi.fn(async (req: Request) => {
    const url = new URL(req.url);
    asked.push(url);
    const cwd = url.searchParams.get('cwd') ?? '';
    const sessions = [{ id: `${cwd}-1`, lastActivity: '2026-01-01T00:00:00.000Z' }];
    return new Response(JSON.stringify({ total: 1, offset: 0, limit: 50, sessions }), {
      headers: { 'content-type': 'application/json' },
    });
  }),
);
const { listQueryParams, sessionListInfiniteOptions } = await import('./sessions.js');
afterAll(() => vi.unstubAllGlobals());

const cwds = [
  { value: '/a/app', sessions: 3 },
  { value: '/b/app', sessions: 1 },
  { value: '/c/other', sessions: 5 },
];

describe('the list query: free text goes to the API', () => {
  it('keeps the words as `text`, with a project as its directories', () => {
    expect(listQueryParams({ text: 'timer state', model: 'opus' }, undefined)).toEqual({
      text: 'timer state',
      model: 'opus',
    });
    expect(listQueryParams({ text: 'timer', project: 'app' }, cwds)).toEqual({
      text: 'timer',
      cwds: ['/a/app', '/b/app'],
    });
    expect(listQueryParams({ text: '' }, undefined)).toEqual({});
  });

  it('asks each directory of a project with the words', async () => {
    asked.length = 0;
    const options = sessionListInfiniteOptions(listQueryParams({ text: 'timer', project: 'app' }, cwds), 50);
    // Only what this queryFn reads of its context.
    const page = await options.queryFn!({ pageParam: 0, signal: new AbortController().signal } as never);
    expect(asked.map((u) => [u.searchParams.get('cwd'), u.searchParams.get('text')])).toEqual([
      ['/a/app', 'timer'],
      ['/b/app', 'timer'],
    ]);
    expect(page.total).toBe(2);
  });
});
