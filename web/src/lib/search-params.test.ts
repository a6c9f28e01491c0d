import { describe, expect, it } from 'vitest';
import {
  calendarSearchSchema,
  filterChips,
  pickFilters,
  searchPageSearchSchema,
  sessionListSearchSchema,
  sessionSearchSchema,
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
  it('turns numbers (the router parses ?q=42 as a number) back into text', () => {
    expect(searchPageSearchSchema.parse({ q: 42, offset: '20' })).toEqual({ q: '42', offset: 20 });
    expect(searchPageSearchSchema.parse({ q: null, offset: -3 })).toEqual({});
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

describe('filters and chips', () => {
  it('picks only API filters, without empty values', () => {
    expect(pickFilters({ model: 'a', text: 'x', idPrefix: 'y', from: '', to: undefined })).toEqual({
      model: 'a',
    });
  });
  it('makes one chip per active filter in a fixed order', () => {
    expect(
      filterChips({ to: '2026-03-31', model: 'opus', text: 'fix' }).map((c) => `${c.label}:${c.value}`),
    ).toEqual(['title:fix', 'model:opus', 'to:2026-03-31']);
    expect(filterChips({})).toEqual([]);
  });
});
