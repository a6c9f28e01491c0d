/**
 * Whether the API answers, as the header shows it ("API unreachable"). Every query the UI runs
 * reports here through the query cache: a failure that means nothing answered (isUnreachable)
 * marks the API down, any success marks it up again. While a page sits idle a light probe of
 * `GET /api/health` keeps the marker honest — every 30 s while the tab is visible, every 5 s once
 * the API is down so the marker clears soon after it comes back.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, isUnreachable } from './api.js';

export interface Reachability {
  down: boolean;
  /** The last failure that marked it down. */
  error?: unknown;
}

export function useApiReachability(): Reachability {
  const client = useQueryClient();
  const [state, setState] = useState<Reachability>({ down: false });
  useEffect(
    () =>
      client.getQueryCache().subscribe((event) => {
        if (event.type !== 'updated') return;
        const action = event.action;
        if (action.type === 'error' && isUnreachable(action.error))
          setState({ down: true, error: action.error });
        else if (action.type === 'success') setState((s) => (s.down ? { down: false } : s));
      }),
    [client],
  );
  useQuery({
    queryKey: ['health-probe'],
    queryFn: ({ signal }) => api.GET('/api/health', { signal }),
    refetchInterval: state.down ? 5_000 : 30_000,
    refetchIntervalInBackground: false,
    // The probe is its own repetition (every 5 s while down): a retry would only delay the marker.
    retry: false,
  });
  return state;
}
