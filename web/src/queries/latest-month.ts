/**
 * The month of the latest activity among the sessions `filters` select: where the calendar opens
 * when no month is asked for (an empty current month says nothing). The session list's default
 * order is last activity, newest first, so its first session has it; this month when there is none.
 */
import type { QueryClient } from '@tanstack/react-query';
import { monthOf } from '../lib/calendar.js';
import { api } from './api.js';
import type { SessionListParams } from './sessions.js';

export async function latestActivityMonth(
  queryClient: QueryClient,
  filters: SessionListParams,
): Promise<string> {
  const list = await queryClient.fetchQuery({
    queryKey: ['sessions', 'latest', filters],
    queryFn: ({ signal }) =>
      api.GET('/api/sessions', { params: { query: { ...filters, limit: 1 } }, signal }),
    staleTime: 30_000,
  });
  const last = list.sessions[0]?.lastActivity;
  const ms = last ? Date.parse(last) : NaN;
  return monthOf(Number.isNaN(ms) ? Date.now() : ms);
}
