/** Query factories for sessions: the paged list, one session, the facets behind filter pickers. */
import { infiniteQueryOptions, keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { SessionFilters } from '../lib/search-params.js';
import { api, unwrap, type SessionList } from './api.js';

export interface SessionListParams extends SessionFilters {
  idPrefix?: string;
}

export const sessionListInfiniteOptions = (params: SessionListParams, pageSize: number) =>
  infiniteQueryOptions({
    queryKey: ['sessions', 'list', params, pageSize],
    queryFn: ({ pageParam, signal }) =>
      unwrap<SessionList>(
        api.GET('/api/sessions', {
          params: { query: { ...params, limit: pageSize, offset: pageParam } },
          signal,
        }),
      ),
    initialPageParam: 0,
    getNextPageParam: (last) => {
      const next = last.offset + last.sessions.length;
      return last.sessions.length > 0 && next < last.total ? next : undefined;
    },
    placeholderData: keepPreviousData,
  });

/** How many sessions the instance holds, whatever the filters (tells "nothing recorded" apart). */
export const sessionCountQueryOptions = () =>
  queryOptions({
    queryKey: ['sessions', 'count'],
    queryFn: async ({ signal }) =>
      (await unwrap<SessionList>(api.GET('/api/sessions', { params: { query: { limit: 1 } }, signal })))
        .total,
  });

export const sessionQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['sessions', 'one', id],
    queryFn: ({ signal }) => unwrap(api.GET('/api/sessions/{id}', { params: { path: { id } }, signal })),
  });

/** Sessions whose id starts with `prefix` (the omnibox's id jump), at most `limit`. */
export const idPrefixQueryOptions = (prefix: string, limit = 10) =>
  queryOptions({
    queryKey: ['sessions', 'idPrefix', prefix, limit],
    queryFn: ({ signal }) =>
      unwrap<SessionList>(
        api.GET('/api/sessions', { params: { query: { idPrefix: prefix, limit } }, signal }),
      ),
  });

export type FacetAttribute = 'cwd' | 'model' | 'hostname' | 'source';

export const facetsQueryOptions = (attribute: FacetAttribute) =>
  queryOptions({
    queryKey: ['facets', attribute],
    queryFn: ({ signal }) =>
      unwrap(api.GET('/api/facets/{attribute}', { params: { path: { attribute } }, signal })),
    staleTime: 60_000,
  });
