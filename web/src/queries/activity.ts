/** Query factory for the daily activity rollup behind the calendar. */
import { queryOptions } from '@tanstack/react-query';
import type { SessionFilters } from '../lib/search-params.js';
import { api } from './api.js';

export const activityQueryOptions = (filters: SessionFilters, from: string, to: string) =>
  queryOptions({
    queryKey: ['activity', filters, from, to],
    queryFn: ({ signal }) =>
      api.GET('/api/activity', { params: { query: { ...filters, from, to } }, signal }),
  });
