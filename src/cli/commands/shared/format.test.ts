import { describe, expect, it } from 'vitest';
import { shortIdLength } from '../sessions.js';
import { renderSnippet } from '../search.js';
import { formatTime, plural, statusLabel } from './format.js';
import { checkIsoOption, parseCount, parseIsoOption } from './options.js';
import { UsageError } from '../../errors.js';
import { readIsoTime } from '../../../core/iso-time.js';

describe('terminal formatting', () => {
  it('formats times in UTC to the minute', () => {
    expect(formatTime('2025-07-05T19:39:53.126Z')).toBe('2025-07-05 19:39');
    expect(formatTime(null)).toBe('—');
  });

  it('shows the seed status markers with a word', () => {
    expect(statusLabel('running')).toBe('● live');
    expect(statusLabel('abandoned')).toBe('○ incomplete');
    expect(statusLabel('ended')).toBe('■ ended');
  });

  it('plurals', () => {
    expect(plural(1, 'entry', 'entries')).toBe('1 entry');
    expect(plural(2, 'session')).toBe('2 sessions');
  });

  it('shortens ids only as far as they stay distinct', () => {
    expect(shortIdLength(['rate-limit', 'completed'])).toBe(12);
    expect(shortIdLength(['5c0375b4-57a5-4f26-aaaa', '5c0375b4-57a5-4f26-bbbb'])).toBe(20);
  });

  it('marks snippet matches and cuts by visible characters', () => {
    const hit = {
      snippet: [
        { text: 'a todo\nlist', mark: false },
        { text: 'todo', mark: true },
        { text: ' and more', mark: false },
      ],
    };
    const mark = { on: '<', off: '>' };
    expect(renderSnippet(hit as never, mark)).toBe('a todo list<todo> and more');
    expect(renderSnippet(hit as never)).toBe('a todo listtodo and more');
    expect(renderSnippet(hit as never, mark, 13)).toBe('a todo list<t…>');
  });

  it("neutralises the transcript's own codes in a snippet before adding the marks", () => {
    const esc = '\x1b';
    const hit = {
      snippet: [
        { text: `${esc}]52;c;aGk=\x07${esc}[31mbuild `, mark: false },
        { text: `fail${esc}[0m`, mark: true },
        { text: `ed\x07\rnow${esc}`, mark: false },
      ],
    };
    const mark = { on: `${esc}[1;33m`, off: `${esc}[0m` };
    expect(renderSnippet(hit as never, mark)).toBe(`build ${esc}[1;33mfail${esc}[0med␇ now␛`);
    expect(renderSnippet(hit as never, mark, 8)).toBe(`build ${esc}[1;33mf…${esc}[0m`);
  });
});

describe('option values', () => {
  it('parses counts and refuses the rest', () => {
    expect(parseCount('3', '--steps')).toBe(3);
    expect(parseCount(undefined, '--steps')).toBeUndefined();
    expect(() => parseCount('0', '--limit', 1)).toThrow(/--limit must be a positive integer/);
    expect(() => parseCount('2.5', '--to')).toThrow(/non-negative integer/);
  });

  it('normalises ISO times and keeps filter dates as typed', () => {
    expect(parseIsoOption('2025-07-01', '--since')).toBe('2025-07-01T00:00:00.000Z');
    expect(parseIsoOption('2025-07-01T12:00:00+02:00', '--since')).toBe('2025-07-01T10:00:00.000Z');
    expect(() => parseIsoOption('yesterday', '--since')).toThrow(/ISO 8601/);
    expect(() => parseIsoOption('2025-13-45', '--since')).toThrow(/ISO 8601/);
    expect(checkIsoOption('2025-07-01', '--to')).toBe('2025-07-01');
  });

  it('reads a time without a zone as UTC, whatever the local zone', () => {
    const tz = process.env.TZ;
    process.env.TZ = 'Asia/Tokyo';
    try {
      expect(new Date('2025-09-03T05:00').getUTCHours()).toBe(20); // the zone is in effect
      expect(parseIsoOption('2025-09-03T05:00', '--since')).toBe('2025-09-03T05:00:00.000Z');
      expect(parseIsoOption('2025-09-03 05:00:30', '--since')).toBe('2025-09-03T05:00:30.000Z');
      expect(parseIsoOption('2025-09-03T05:00+09:00', '--since')).toBe('2025-09-02T20:00:00.000Z');
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
  });

  it('refuses days that do not exist, naming the flag', () => {
    expect(() => parseIsoOption('2025-06-31', '--to')).toThrow(
      '--to must be a calendar date: 2025-06-31 does not exist, got "2025-06-31"',
    );
    expect(() => checkIsoOption('2025-02-30T10:00Z', '--from')).toThrow(/^--from must be a calendar date/);
    expect(() => parseIsoOption('2025-02-29', '--since')).toThrow(UsageError);
    expect(parseIsoOption('2024-02-29', '--since')).toBe('2024-02-29T00:00:00.000Z');
  });

  it('reads values as the API does', () => {
    for (const v of [
      '2025-07-01',
      '2025-09-03T05:00',
      '2025-09-03 05:00',
      '2025-09-03T05:00:00.250Z',
      '2025-09-03T05:00:00-0330',
      '2025-02-30',
      '2025-06-31T01:00',
      '2025-13-45',
    ]) {
      const api = readIsoTime(v);
      let cli: string | null;
      try {
        cli = parseIsoOption(v, '--since')!;
      } catch {
        cli = null;
      }
      expect(cli, v).toBe('ms' in api ? new Date(api.ms).toISOString() : null);
    }
  });
});
