/**
 * Query factories for one session's transcript: entries paged in blocks of
 * `userSettings.transcriptPageSize` (an infinite query, so the readers share the pages), the
 * You/Claude turns, one entry's raw JSON line, and the first entry of each subagent file.
 */
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { api } from './api.js';

/**
 * The entries of one file, paged from `start` (a page boundary): forward to the end, and back to
 * the first entry as the reader scrolls up — so opening deep in a long transcript fetches the
 * page holding the entry first instead of every page before it.
 */
export const transcriptInfiniteOptions = (id: string, file: string, pageSize: number, start = 0) =>
  infiniteQueryOptions({
    queryKey: ['transcript', id, file, pageSize, start],
    queryFn: ({ pageParam, signal }) =>
      api.GET('/api/sessions/{id}/transcript', {
        params: { path: { id }, query: { file, offset: pageParam, limit: pageSize } },
        signal,
      }),
    initialPageParam: start,
    getNextPageParam: (last) => {
      const next = last.offset + last.entries.length;
      return last.entries.length > 0 && next < last.total ? next : undefined;
    },
    getPreviousPageParam: (first) => (first.offset > 0 ? Math.max(0, first.offset - pageSize) : undefined),
  });

export type TurnRole = 'user' | 'assistant';

export const turnsInfiniteOptions = (id: string, role: TurnRole, pageSize: number) =>
  infiniteQueryOptions({
    queryKey: ['turns', id, role, pageSize],
    queryFn: ({ pageParam, signal }) =>
      api.GET('/api/sessions/{id}/turns', {
        params: { path: { id }, query: { role, offset: pageParam, limit: pageSize } },
        signal,
      }),
    initialPageParam: 0,
    getNextPageParam: (last) => {
      const next = last.offset + last.turns.length;
      return last.turns.length > 0 && next < last.total ? next : undefined;
    },
  });

/** The raw JSON line of one entry, byte for byte, as text. */
export const rawEntryQueryOptions = (id: string, file: string, index: number) =>
  queryOptions({
    queryKey: ['raw', id, file, index],
    queryFn: ({ signal }) =>
      api.GET('/api/sessions/{id}/raw/{index}', {
        params: { path: { id, index }, query: { file } },
        parseAs: 'text',
        signal,
      }),
    // A recorded line never changes (transcripts are append-only): asking again could only repeat it.
    staleTime: Infinity,
  });

export interface SubagentHead {
  file: string;
  agentId?: string;
  prompt?: string;
}

const HEAD_ENTRIES = 3;

/** First entries of each subagent file: the first user entry's prompt ties it to the Task call that started it. */
export const subagentHeadsQueryOptions = (
  id: string,
  files: Array<{ name: string; entries: number; agentId?: string }>,
) =>
  queryOptions({
    // The answer depends on a file's first few entries only: a live subagent file that had fewer
    // (its prompt not written yet) is asked again as it grows, and never again after.
    queryKey: ['subagentHeads', id, files.map((f) => [f.name, Math.min(f.entries, HEAD_ENTRIES)])],
    queryFn: async ({ signal }): Promise<SubagentHead[]> =>
      Promise.all(
        files.map(async (f) => {
          const page = await api.GET('/api/sessions/{id}/transcript', {
            params: { path: { id }, query: { file: f.name, limit: HEAD_ENTRIES } },
            signal,
          });
          const first = page.entries.find((e) => e.role === 'user' && e.text);
          return { file: f.name, agentId: f.agentId, prompt: first?.text };
        }),
      ),
    // Entries are only ever appended, so the first few of a file, once there, never change.
    staleTime: Infinity,
  });
