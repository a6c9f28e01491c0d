import { describe, expect, it } from 'vitest';
import {
  calendarSearchSchema,
  filterChips,
  parseSearchString,
  pickFilters,
  roleOfSpeaker,
  searchPageSearchSchema,
  sessionListSearchSchema,
  sessionSearchSchema,
  speakerOfRole,
  stringifySearchObject,
  turnsSearchSchema,
  validRange,
} from './search-params.js';

describe('search-param schemas fall back instead of failing', () => {
  it('keeps valid list filters', () => {
    expect(
      sessionListSearchSchema.parse({
        cwd: '/tmp/x',
        model: 'opus',
        hostname: 'vm',
        source: 'backfill',
        from: '2026-03-01',
        to: '2026-03-31',
      }),
    ).toEqual({
      cwd: '/tmp/x',
      model: 'opus',
      hostname: 'vm',
      source: 'backfill',
      from: '2026-03-01',
      to: '2026-03-31',
    });
  });
  it('drops invalid values, keeping the rest', () => {
    const s = sessionListSearchSchema.parse({
      model: ['a'],
      from: '2026-02-30',
      to: 'soon',
      cwd: '',
      hostname: { x: 1 },
      source: 'ok',
    });
    expect(s).toEqual({ source: 'ok' });
  });
  it("keeps the list's order when it is one the API sorts by, and drops it otherwise", () => {
    expect(sessionListSearchSchema.parse({ sort: 'tokens', dir: 'asc' })).toMatchObject({
      sort: 'tokens',
      dir: 'asc',
    });
    const bad = sessionListSearchSchema.parse({ sort: 'cost', dir: 'up', cwd: '/x' });
    expect(bad).toMatchObject({ sort: undefined, dir: undefined, cwd: '/x' });
    // An order is not a filter: no chip.
    expect(filterChips({ sort: 'tokens', dir: 'asc' })).toEqual([]);
  });

  it('turns numbers (the router parses ?q=42 as a number) back into text', () => {
    expect(searchPageSearchSchema.parse({ q: 42, offset: '20' })).toEqual({ q: '42', offset: 20 });
    expect(searchPageSearchSchema.parse({ q: null, offset: -3 })).toEqual({});
  });
  it('starts the search page at the page an offset falls in', () => {
    expect(searchPageSearchSchema.parse({ q: 'a', offset: '7' }).offset).toBeUndefined();
    expect(searchPageSearchSchema.parse({ q: 'a', offset: '47' }).offset).toBe(40);
    expect(searchPageSearchSchema.parse({ q: 'a', offset: '60' }).offset).toBe(60);
  });
  it('validates the calendar month and day', () => {
    expect(calendarSearchSchema.parse({ month: '2026-03', day: '2026-03-05' })).toEqual({
      month: '2026-03',
      day: '2026-03-05',
    });
    expect(calendarSearchSchema.parse({ month: '2026-13', day: 'x' })).toEqual({});
  });
  it('validates the session view state', () => {
    expect(
      sessionSearchSchema.parse({
        view: 'you',
        reader: 'raw',
        entry: 12,
        q: 'deploy',
        file: 'subagents/a.jsonl',
      }),
    ).toEqual({
      view: 'you',
      reader: 'raw',
      entry: 12,
      q: 'deploy',
      file: 'subagents/a.jsonl',
    });
    expect(sessionSearchSchema.parse({ view: 'everyone', reader: 'html', entry: 'x' })).toEqual({});
  });
});

describe('the Turns page', () => {
  it('keeps a side, the session filters and a page start', () => {
    expect(
      turnsSearchSchema.parse({
        role: 'assistant',
        project: 'hap',
        model: 'opus',
        from: '2026-03-01',
        to: '2026-03-31',
        offset: '100',
      }),
    ).toEqual({
      role: 'assistant',
      project: 'hap',
      model: 'opus',
      from: '2026-03-01',
      to: '2026-03-31',
      offset: 100,
    });
    expect(turnsSearchSchema.parse({ role: 'both' })).toEqual({ role: 'both' });
  });
  it('shows your prompts by default: no side, `user` and anything else are the same state, one URL', () => {
    expect(turnsSearchSchema.parse({})).toEqual({});
    expect(turnsSearchSchema.parse({ role: 'user' }).role).toBeUndefined();
    expect(turnsSearchSchema.parse({ role: 'everyone', cwd: '/x' })).toEqual({ cwd: '/x' });
    expect(turnsSearchSchema.parse({ role: 42 }).role).toBeUndefined();
  });
  it('drops what is invalid, keeping the rest: a bad page, a bad date, an inverted range', () => {
    expect(turnsSearchSchema.parse({ offset: 'x', from: '2026-02-30', hostname: 'vm' })).toEqual({
      hostname: 'vm',
    });
    expect(turnsSearchSchema.parse({ offset: -50 }).offset).toBeUndefined();
    expect(turnsSearchSchema.parse({ from: '2025-09-01', to: '2025-08-01', role: 'both' })).toEqual({
      role: 'both',
    });
  });
  it('starts at the page an offset falls in (pages of 50)', () => {
    expect(turnsSearchSchema.parse({ offset: '49' }).offset).toBeUndefined();
    expect(turnsSearchSchema.parse({ offset: '75' }).offset).toBe(50);
    expect(turnsSearchSchema.parse({ offset: 150 }).offset).toBe(150);
  });
  it('maps the side to the toggle the session page shows, and back, the default as no parameter', () => {
    expect(speakerOfRole(undefined)).toBe('you');
    expect(speakerOfRole('user')).toBe('you');
    expect(speakerOfRole('assistant')).toBe('claude');
    expect(speakerOfRole('both')).toBe('both');
    expect(roleOfSpeaker('you')).toBeUndefined();
    expect(roleOfSpeaker('claude')).toBe('assistant');
    expect(roleOfSpeaker('both')).toBe('both');
  });
  it('has a chip for each session filter, none for the side or the page', () => {
    const s = turnsSearchSchema.parse({ role: 'both', offset: 50, model: 'opus', from: '2026-01-01' });
    expect(filterChips(s).map((c) => `${c.label}:${c.value}`)).toEqual(['model:opus', 'from:2026-01-01']);
  });
});

describe('filters and chips', () => {
  it('picks only API filters, without empty values', () => {
    expect(pickFilters({ model: 'a', text: 'x', idPrefix: 'y', from: '', to: undefined })).toEqual({
      model: 'a',
    });
  });
  it('holds a project (as typed) on the list, the search page and the calendar, an API filter on each', () => {
    expect(pickFilters(sessionListSearchSchema.parse({ project: 'happy', text: 'x' }))).toEqual({
      project: 'happy',
    });
    expect(searchPageSearchSchema.parse({ q: 'x', project: 'hap' })).toEqual({ q: 'x', project: 'hap' });
    expect(calendarSearchSchema.parse({ project: 'happy', month: '2025-08' })).toEqual({
      project: 'happy',
      month: '2025-08',
    });
  });
  it('makes one chip per active filter in a fixed order', () => {
    expect(
      filterChips({ to: '2026-03-31', model: 'opus', text: 'fix' }).map((c) => `${c.label}:${c.value}`),
    ).toEqual(['text:fix', 'model:opus', 'to:2026-03-31']);
    expect(filterChips({ project: 'happy', cwd: '/a' }).map((c) => `${c.label}:${c.value}`)).toEqual([
      'project:happy',
      'cwd:/a',
    ]);
    expect(filterChips({})).toEqual([]);
  });
});

describe('date ranges', () => {
  it('falls back to no range when it ends before it starts, on the list and the search page', () => {
    expect(sessionListSearchSchema.parse({ from: '2025-09-01', to: '2025-08-01', model: 'm' })).toEqual({
      model: 'm',
    });
    expect(searchPageSearchSchema.parse({ q: 'x', from: '2025-09-01', to: '2025-08-01' })).toEqual({
      q: 'x',
    });
    // A one-day range and open ranges stay.
    expect(sessionListSearchSchema.parse({ from: '2025-08-01', to: '2025-08-01' })).toMatchObject({
      from: '2025-08-01',
      to: '2025-08-01',
    });
    expect(validRange({ from: '2025-09-01' })).toEqual({ from: '2025-09-01' });
  });
});

describe('the query string', () => {
  it('keeps values as written: a quoted phrase keeps its quotes, numbers come back through the schemas', () => {
    expect(parseSearchString('?q=%22timer%20state%22&entry=6400')).toEqual({
      q: '"timer state"',
      entry: '6400',
    });
    expect(parseSearchString('q="timer state"')).toEqual({ q: '"timer state"' });
    expect(sessionSearchSchema.parse(parseSearchString('?entry=6400'))).toEqual({ entry: 6400 });
    expect(stringifySearchObject({ q: '"timer state"', entry: 12, view: undefined })).toBe(
      '?q=%22timer+state%22&entry=12',
    );
    expect(stringifySearchObject({})).toBe('');
    const round = { q: '"a b" c*', cwd: '/x/[...lang]/y', text: '42' };
    expect(parseSearchString(stringifySearchObject(round))).toEqual(round);
  });
});
