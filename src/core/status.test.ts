import { describe, expect, it } from 'vitest';
import { deriveStatus } from './status.js';

const DAY = 86_400_000;
const now = Date.parse('2026-03-02T12:00:00Z');
const ago = (ms: number) => new Date(now - ms).toISOString();

describe('deriveStatus', () => {
  it('is ended once a SessionEnd was recorded, whatever the activity', () => {
    expect(deriveStatus({ hookRecorded: true, endedAt: ago(10), lastActivity: ago(0) }, now, DAY)).toBe(
      'ended',
    );
  });
  it('is running while activity is within the live window', () => {
    expect(deriveStatus({ hookRecorded: true, endedAt: null, lastActivity: ago(DAY) }, now, DAY)).toBe(
      'running',
    );
    expect(deriveStatus({ hookRecorded: false, endedAt: null, lastActivity: ago(1000) }, now, DAY)).toBe(
      'running',
    );
  });
  it('is abandoned when hook-recorded and silent past the window', () => {
    expect(deriveStatus({ hookRecorded: true, endedAt: null, lastActivity: ago(DAY + 1) }, now, DAY)).toBe(
      'abandoned',
    );
  });
  it('is ended when never hook-recorded and silent past the window', () => {
    expect(deriveStatus({ hookRecorded: false, endedAt: null, lastActivity: ago(DAY + 1) }, now, DAY)).toBe(
      'ended',
    );
  });
  it('handles unparseable or missing activity', () => {
    expect(deriveStatus({ hookRecorded: false, endedAt: null, lastActivity: 'garbage' }, now, DAY)).toBe(
      'ended',
    );
    expect(deriveStatus({ hookRecorded: true, endedAt: null, lastActivity: null }, now, DAY)).toBe(
      'abandoned',
    );
  });
  it('goes back to running when a session resumes', () => {
    const before = { hookRecorded: true, endedAt: null, lastActivity: ago(2 * DAY) };
    expect(deriveStatus(before, now, DAY)).toBe('abandoned');
    expect(deriveStatus({ ...before, lastActivity: ago(5) }, now, DAY)).toBe('running');
  });
});
