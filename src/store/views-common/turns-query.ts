/**
 * The cross-session view's query (`Views.allTurns`) split the way both engines read it: the session
 * filter without its range, and the range as bounds on the turns' own times. A turn's time is its
 * timestamp read as the session's activity reads it (`parseTimestamp`, kept in the view as
 * `at_ms`); a timestamp that does not read as a time (a transcript's own text, such as
 * `[trimmed]`) leaves the turn untimed: last, and outside every range.
 */
import type { SessionFilter, TurnsQuery } from '../contract.js';
import { checkPage, checkRole } from './view-args.js';
import { filterValues } from './session-filter.js';

export interface TurnsReading {
  role: 'user' | 'assistant' | undefined;
  /** The sessions the turns may come from (no range: the range bounds the turns). */
  sessions: SessionFilter;
  /** Inclusive bounds on a turn's time (epoch ms), or null. */
  fromMs: number | null;
  toMs: number | null;
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
    fromMs: fromMs ?? null,
    toMs: toMs ?? null,
    limit,
    offset,
  };
}
