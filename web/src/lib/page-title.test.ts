import { describe, expect, it } from 'vitest';
import { pageTitle } from './page-title.js';

describe('pageTitle', () => {
  it('puts the page before the app name', () => {
    expect(pageTitle('Search: timer')).toBe('Search: timer · transcripts');
    expect(pageTitle('Calendar, August 2025')).toBe('Calendar, August 2025 · transcripts');
  });
  it('is the app name alone without a part', () => {
    expect(pageTitle(undefined)).toBe('transcripts');
    expect(pageTitle('  ')).toBe('transcripts');
  });
  it('keeps a long title on one line, shortened', () => {
    const t = pageTitle(`first line\nsecond ${'x'.repeat(200)}`);
    expect(t).not.toContain('\n');
    expect(t.endsWith('… · transcripts')).toBe(true);
    expect(t.length).toBeLessThan(100);
  });
});
