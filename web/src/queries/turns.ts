/** Query factory for the turns across sessions (`GET /api/turns`), the Turns page's one request. */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { FacetValue } from '../lib/facet-match.js';
import {
  DEFAULT_TURN_ROLE,
  pickFilters,
  TURNS_PAGE_SIZE,
  type SessionFilters,
  type TurnsSearch,
} from '../lib/search-params.js';
import { api } from './api.js';
import { apiFilters } from './sessions.js';

export interface TurnsAcrossParams extends SessionFilters {
  /** One side; both when absent (as the API takes it). */
  role?: 'user' | 'assistant';
  limit?: number;
  offset?: number;
}

// Not under `['turns', …]`: that is one session's turns, invalidated by session id as it grows.
export const turnsAcrossQueryOptions = (params: TurnsAcrossParams) =>
  queryOptions({
    queryKey: ['turnsAcross', params],
    queryFn: ({ signal }) => api.GET('/api/turns', { params: { query: params }, signal }),
    // The page shown stays while the next one loads (the pager, the toggle), as on the search page.
    placeholderData: keepPreviousData,
  });

/**
 * What the Turns page asks the API for its URL state: the side (both as no `role`), the filters
 * (a project resolved against the directories the API lists, `apiFilters`), one page.
 */
export function turnsQueryParams(
  search: TurnsSearch,
  cwds: readonly FacetValue[] | undefined,
): TurnsAcrossParams {
  const role = search.role ?? DEFAULT_TURN_ROLE;
  return {
    ...apiFilters(pickFilters(search), cwds),
    ...(role === 'both' ? {} : { role }),
    limit: TURNS_PAGE_SIZE,
    offset: search.offset ?? 0,
  };
}
