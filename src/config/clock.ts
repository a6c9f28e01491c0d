/**
 * The clock the server (derived status) and the hook (event times) read. `CT_NOW` — an ISO 8601
 * instant — pins it, so tests and demos can play a recorded session "as it happened" and check
 * status transitions without sleeping. Unset (the normal case): the system clock.
 */
import { type Env, envValue } from './paths.js';

export interface Clock {
  now: () => number;
  /** The pinned instant (ISO), when `CT_NOW` pins it. */
  pinned: string | null;
  /** Why `CT_NOW` was ignored, when it was set but is not a time. */
  problem: string | null;
}

export function clockFromEnv(env: Env = process.env): Clock {
  const raw = envValue(env, 'CT_NOW');
  if (raw === undefined) return { now: Date.now, pinned: null, problem: null };
  const t = Date.parse(raw);
  if (!Number.isFinite(t))
    return {
      now: Date.now,
      pinned: null,
      problem: `CT_NOW="${raw}" is not an ISO 8601 time; using the system clock`,
    };
  return { now: () => t, pinned: new Date(t).toISOString(), problem: null };
}
