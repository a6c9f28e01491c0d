/** Query factories for sessions: the paged list, one session, the facets behind filter pickers. */
import {
  infiniteQueryOptions,
  keepPreviousData,
  queryOptions,
  useQuery,
  type QueryClient,
} from '@tanstack/react-query';
import { projectName, type FacetValue } from '../lib/facet-match.js';
import { pickFilters, type SessionFilters } from '../lib/search-params.js';
import type { SessionSortKey, SortDirection } from '../lib/session-sort.js';
import { api } from './api.js';

export interface SessionListParams extends SessionFilters {
  idPrefix?: string;
  /** Words each session must contain, case aside, in its title, project, directory or id (the API matches them). */
  text?: string;
  /** The list's order (the list only: facets and counts do not take it). */
  sort?: SessionSortKey;
  dir?: SortDirection;
  /** Stars, tags (every one must match) and notes (`annotationParams`). */
  starred?: 'true';
  tag?: string[];
  hasNote?: 'true';
}

export const sessionListInfiniteOptions = (params: SessionListParams, pageSize: number) =>
  infiniteQueryOptions({
    queryKey: ['sessions', 'list', params, pageSize],
    queryFn: ({ pageParam, signal }) =>
      api.GET('/api/sessions', {
        params: { query: { ...params, limit: pageSize, offset: pageParam } },
        signal,
      }),
    initialPageParam: 0,
    getNextPageParam: (last) => {
      const next = last.offset + last.sessions.length;
      return last.sessions.length > 0 && next < last.total ? next : undefined;
    },
    placeholderData: keepPreviousData,
  });

/**
 * The filters as the API is asked them: a `project` as typed becomes the exact project name
 * (`projectName`, from the `cwd` facet values; as written when they are not known).
 */
export function apiFilters<T extends SessionFilters>(
  filters: T,
  cwdValues: readonly FacetValue[] | undefined,
): T {
  return filters.project ? { ...filters, project: projectName(filters.project, cwdValues) } : filters;
}

/**
 * The list's API parameters for its URL state: the filters (a project resolved, `apiFilters`),
 * id prefix and free text, without empty values.
 */
export function listQueryParams(
  search: SessionFilters & { idPrefix?: string; text?: string },
  cwdValues: readonly FacetValue[] | undefined,
): SessionListParams {
  const { idPrefix, text, ...rest } = search;
  return {
    ...apiFilters(pickFilters(rest), cwdValues),
    ...(idPrefix ? { idPrefix } : {}),
    ...(text ? { text } : {}),
  };
}

/**
 * For a loader: the `cwd` facet values a `project` filter resolves against (undefined without a
 * project, or when the API cannot list them: the name is then asked as written).
 */
export async function projectCwds(
  queryClient: QueryClient,
  project: string | undefined,
): Promise<FacetValue[] | undefined> {
  if (!project) return undefined;
  return queryClient.ensureQueryData(facetsQueryOptions('cwd')).then(
    (r) => r.values,
    () => undefined,
  );
}

/** For a page: the `cwd` facet values a `project` filter resolves against (see `projectCwds`). */
export function useProjectCwds(project: string | undefined): FacetValue[] | undefined {
  return useQuery({ ...facetsQueryOptions('cwd'), enabled: Boolean(project) }).data?.values;
}

/**
 * How many sessions the instance holds, whatever the filters (tells "nothing recorded" apart), or
 * how many `filters` select (tells "the filters exclude every session" apart).
 */
export const sessionCountQueryOptions = (filters: SessionListParams = {}) =>
  queryOptions({
    queryKey: ['sessions', 'count', filters],
    queryFn: async ({ signal }) =>
      (await api.GET('/api/sessions', { params: { query: { ...filters, limit: 0 } }, signal })).total,
  });

/**
 * What the sessions `filters` select used, summed (`GET /api/totals`): the list's filters, id
 * prefix and free text (`listQueryParams`), never its order. The previous answer stays while the
 * next loads, so the list's totals line does not blank on each filter change.
 */
export const totalsQueryOptions = (filters: Omit<SessionListParams, 'sort' | 'dir'> = {}) =>
  queryOptions({
    queryKey: ['sessions', 'totals', filters],
    queryFn: ({ signal }) => api.GET('/api/totals', { params: { query: filters }, signal }),
    placeholderData: keepPreviousData,
  });

export const sessionQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['sessions', 'one', id],
    queryFn: ({ signal }) => api.GET('/api/sessions/{id}', { params: { path: { id } }, signal }),
  });

/** Sessions whose id starts with `prefix` (the omnibox's id jump), at most `limit`. */
export const idPrefixQueryOptions = (prefix: string, limit = 10) =>
  queryOptions({
    queryKey: ['sessions', 'idPrefix', prefix, limit],
    queryFn: ({ signal }) =>
      api.GET('/api/sessions', { params: { query: { idPrefix: prefix, limit } }, signal }),
  });

export type FacetAttribute = 'cwd' | 'model' | 'hostname' | 'source' | 'agent';

/**
 * One attribute's values with session counts, over the sessions `filters` select (the API ignores
 * the attribute's own filter). Without filters: every value, as name lookups (the omnibox, a
 * project's directories) need.
 */
export const facetsQueryOptions = (attribute: FacetAttribute, filters: SessionListParams = {}) =>
  queryOptions({
    queryKey: ['facets', attribute, filters],
    queryFn: ({ signal }) =>
      api.GET('/api/facets/{attribute}', { params: { path: { attribute }, query: filters }, signal }),
  });

/**
 * The tag facet (`GET /api/tags`): each tag with the number of sessions `filters` select that carry
 * it, most used first. The API counts over the other filters (a tag filter does not narrow its own
 * picker). Under `['sessions']`, so an edit of a session's tags reads it again.
 */
export const tagFacetQueryOptions = (filters: SessionListParams = {}) =>
  queryOptions({
    queryKey: ['sessions', 'tag-facet', filters],
    queryFn: ({ signal }) => api.GET('/api/tags', { params: { query: filters }, signal }),
  });
