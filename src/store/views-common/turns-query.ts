/**
 * The cross-session view's query (`Views.allTurns`) split the way both engines read it: the session
 * filter without its range, and the range as bounds on the turns' own timestamps. A turn's
 * timestamp is ISO 8601 text as Claude Code writes it (`2025-07-01T09:30:00.000Z`), so the bounds
 * are that text too and compare as strings (byte order), like the index that orders them.
 */
import type { SessionFilter, TurnsQuery } from '../contract.js';
import { checkPage, checkRole } from './view-args.js';
import { filterValues } from './session-filter.js';

export interface TurnsReading {
  role: 'user' | 'assistant' | undefined;
  /** The sessions the turns may come from (no range: the range bounds the turns). */
  sessions: SessionFilter;
  /** Inclusive bounds on a turn's timestamp, or null. */
  from: string | null;
  to: string | null;
  limit: number;
  offset: number;
}

export function readTurnsQuery(query: TurnsQuery): TurnsReading {
  const { limit, offset } = checkPage(query);
  checkRole(query.role);
  // filterValues checks every filter and reads `to` as a bare date's whole day.
  const { fromMs, toMs } = filterValues(query);
  const { from: _from, to: _to, role: _role, limit: _limit, offset: _offset, ...sessions } = query;
  return {
    role: query.role,
    sessions,
    from: fromMs === undefined ? null : new Date(fromMs).toISOString(),
    to: toMs === undefined ? null : new Date(toMs).toISOString(),
    limit,
    offset,
  };
}
