import { afterAll, describe, expect, it, vi } from 'vitest';

// The API client is made when api.ts loads: give it an origin and a fetch that records each call.
const asked: URL[] = [];
vi.stubGlobal('location', { origin: 'http://ui.test' });
vi.stubGlobal(
  'fetch',
  vi.fn(async (url: string) => {
    asked.push(new URL(url));
    return new Response(JSON.stringify({ total: 0, offset: 0, limit: 50, turns: [] }), {
      headers: { 'content-type': 'application/json' },
    });
  }),
);
const { turnsAcrossQueryOptions, turnsQueryParams } = await import('./turns.js');
afterAll(() => vi.unstubAllGlobals());

const cwds = [
  { value: '/a/happy', sessions: 3 },
  { value: '/b/happy', sessions: 1 },
];

describe('what the Turns page asks GET /api/turns', () => {
  it('asks for your prompts by default, one side as `role`, both as no role', () => {
    expect(turnsQueryParams({}, undefined)).toEqual({ role: 'user', limit: 50, offset: 0 });
    expect(turnsQueryParams({ role: 'assistant' }, undefined).role).toBe('assistant');
    expect(turnsQueryParams({ role: 'both' }, undefined)).toEqual({ limit: 50, offset: 0 });
  });
  it('passes the filters and the page, a project as the exact name the directories have', () => {
    expect(
      turnsQueryParams({ project: 'hap', model: 'opus', from: '2026-01-01', offset: 100 }, cwds),
    ).toEqual({ role: 'user', project: 'happy', model: 'opus', from: '2026-01-01', limit: 50, offset: 100 });
  });
  it('sends those parameters and nothing else, under its own key', async () => {
    const options = turnsAcrossQueryOptions(turnsQueryParams({ cwd: '/x', offset: 50 }, undefined));
    // Not a session's turns (['turns', id, …]), which a growing session invalidates.
    expect(options.queryKey[0]).toBe('turnsAcross');
    await options.queryFn!({ signal: new AbortController().signal } as never);
    const url = asked.at(-1)!;
    expect(url.pathname).toBe('/api/turns');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      cwd: '/x',
      role: 'user',
      limit: '50',
      offset: '50',
    });
  });
});
