/**
 * Session status, derived on read (DESIGN §4):
 * - `ended` when a SessionEnd was recorded (and nothing happened well after it: a resumed session
 *   is going again), or when the session was never hook-recorded and its last activity is older
 *   than the live window;
 * - `running` when there is no SessionEnd and the last activity is within the live window;
 * - `abandoned` when hook-recorded, without SessionEnd, and silent for longer than the window.
 */
export type SessionStatus = 'running' | 'abandoned' | 'ended';

export interface StatusInput {
  hookRecorded: boolean;
  endedAt: string | null;
  lastActivity: string | null;
}

/**
 * Activity this long after the (latest) SessionEnd means the session was resumed: `claude --resume`
 * continues the same session id and transcript. Lines written while a session exits may carry
 * times a little after its SessionEnd; those do not count.
 */
export const RESUMED_AFTER_MS = 60_000;

/** True when activity came well after the recorded SessionEnd: the session is going again. */
export function resumedAfterEnd(input: StatusInput): boolean {
  if (!input.endedAt || !input.lastActivity) return false;
  return Date.parse(input.lastActivity) - Date.parse(input.endedAt) > RESUMED_AFTER_MS;
}

export function deriveStatus(input: StatusInput, nowMs: number, liveWindowMs: number): SessionStatus {
  if (input.endedAt && !resumedAfterEnd(input)) return 'ended';
  const last = input.lastActivity ? Date.parse(input.lastActivity) : Number.NaN;
  // No usable activity time: nothing says it is live.
  if (!Number.isFinite(last)) return input.hookRecorded ? 'abandoned' : 'ended';
  const silentFor = nowMs - last;
  if (silentFor <= liveWindowMs) return 'running';
  return input.hookRecorded ? 'abandoned' : 'ended';
}
