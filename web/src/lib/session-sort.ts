/**
 * The session list's orders, as `GET /api/sessions?sort&dir` takes them, with the labels the
 * list's sort picker shows. Absent from the URL: newest activity first.
 */
import type { paths } from '../../../src/client/api-schema.gen.js';

type ListQuery = NonNullable<paths['/api/sessions']['get']['parameters']['query']>;
export type SessionSortKey = NonNullable<ListQuery['sort']>;
export type SortDirection = NonNullable<ListQuery['dir']>;

export const SESSION_SORTS = [
  'lastActivity',
  'startedAt',
  'runtime',
  'tokens',
  'entries',
] as const satisfies readonly SessionSortKey[];

export const DEFAULT_SORT: SessionSortKey = 'lastActivity';

export const SORT_LABELS: Record<SessionSortKey, string> = {
  lastActivity: 'Last activity',
  startedAt: 'Started',
  runtime: 'Runtime',
  tokens: 'Tokens',
  entries: 'Entries',
};

/** What each direction means for a key, as the direction button says it. */
export function directionLabel(key: SessionSortKey, dir: SortDirection): string {
  const time = key === 'lastActivity' || key === 'startedAt';
  if (time) return dir === 'desc' ? 'newest first' : 'oldest first';
  return dir === 'desc' ? 'largest first' : 'smallest first';
}
