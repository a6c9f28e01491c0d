/**
 * Session status, derived on read (DESIGN §4):
 * - `ended` when a SessionEnd was recorded, or when the session was never hook-recorded and its
 *   last activity is older than the live window;
 * - `running` when there is no SessionEnd and the last activity is within the live window;
 * - `abandoned` when hook-recorded, without SessionEnd, and silent for longer than the window.
 */
export type SessionStatus = 'running' | 'abandoned' | 'ended';

export interface StatusInput {
  hookRecorded: boolean;
  endedAt: string | null;
  lastActivity: string | null;
}

export function deriveStatus(input: StatusInput, nowMs: number, liveWindowMs: number): SessionStatus {
  if (input.endedAt) return 'ended';
  const last = input.lastActivity ? Date.parse(input.lastActivity) : Number.NaN;
  // No usable activity time: nothing says it is live.
  if (!Number.isFinite(last)) return input.hookRecorded ? 'abandoned' : 'ended';
  const silentFor = nowMs - last;
  if (silentFor <= liveWindowMs) return 'running';
  return input.hookRecorded ? 'abandoned' : 'ended';
}
