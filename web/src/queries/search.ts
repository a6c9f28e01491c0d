/** Query factories for full-text search (the results page and the omnibox preview). */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { SessionFilters } from '../lib/search-params.js';
import { api } from './api.js';

export interface SearchParams extends SessionFilters {
  q: string;
  limit?: number;
  offset?: number;
}

export const searchQueryOptions = (params: SearchParams) =>
  queryOptions({
    queryKey: ['search', params],
    queryFn: ({ signal }) => api.GET('/api/search', { params: { query: params }, signal }),
    placeholderData: keepPreviousData,
  });
