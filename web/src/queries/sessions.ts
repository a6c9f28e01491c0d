/** Query factories for sessions: the paged list, one session, the facets behind filter pickers. */
import { infiniteQueryOptions, keepPreviousData, queryOptions } from '@tanstack/react-query';
import { projectDirs, type FacetValue } from '../lib/facet-match.js';
import { pickFilters, type SessionFilters } from '../lib/search-params.js';
import { api, unwrap, type Session, type SessionList } from './api.js';

export interface SessionListParams extends SessionFilters {
  idPrefix?: string;
  /** Words each session must contain, case aside, in its title, project, directory or id (the API matches them). */
  text?: string;
  /**
   * Several working directories (a `project:` that names more than one): `GET /api/sessions`
   * takes one `cwd`, so each is paged on its own and the pages are merged in the API's order.
   * An empty list matches nothing.
   */
  cwds?: string[];
}

/** A page of the list; `next` carries where each directory's paging stands when merging. */
export type SessionListPage = SessionList & { next?: number[] };

type PageParam = number | number[];

/** The API's order: last activity, newest first (none last), then id. */
function newestFirst(a: Session, b: Session): number {
  const ta = a.lastActivity ? Date.parse(a.lastActivity) : -Infinity;
  const tb = b.lastActivity ? Date.parse(b.lastActivity) : -Infinity;
  if (ta !== tb) return tb - ta;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * One page of the sessions of several directories: a page from each directory at its own offset,
 * merged, the first `limit` kept; each directory's offset moves on by what it gave. The total is
 * the sum (a session has one directory).
 */
async function mergedPage(
  params: SessionListParams,
  cwds: string[],
  offsets: number[],
  limit: number,
  signal: AbortSignal,
): Promise<SessionListPage> {
  const { cwds: _cwds, cwd: _cwd, ...rest } = params;
  const answers = await Promise.all(
    cwds.map((cwd, i) =>
      unwrap<SessionList>(
        api.GET('/api/sessions', { params: { query: { ...rest, cwd, limit, offset: offsets[i] } }, signal }),
      ),
    ),
  );
  const heads = answers.map(() => 0);
  const sessions: Session[] = [];
  while (sessions.length < limit) {
    let pick = -1;
    answers.forEach((a, i) => {
      const s = a.sessions[heads[i]!];
      if (s && (pick < 0 || newestFirst(s, answers[pick]!.sessions[heads[pick]!]!) < 0)) pick = i;
    });
    if (pick < 0) break;
    sessions.push(answers[pick]!.sessions[heads[pick]!]!);
    heads[pick]!++;
  }
  const next = offsets.map((o, i) => o + heads[i]!);
  const total = answers.reduce((n, a) => n + a.total, 0);
  const done = answers.every((a, i) => next[i]! >= a.total);
  return {
    total,
    offset: offsets.reduce((n, o) => n + o, 0),
    limit,
    sessions,
    ...(done ? {} : { next }),
  };
}

export const sessionListInfiniteOptions = (params: SessionListParams, pageSize: number) =>
  infiniteQueryOptions({
    queryKey: ['sessions', 'list', params, pageSize],
    queryFn: async ({ pageParam, signal }): Promise<SessionListPage> => {
      const cwds = params.cwds;
      if (cwds && cwds.length === 0) return { total: 0, offset: 0, limit: pageSize, sessions: [] };
      if (cwds && cwds.length > 1) {
        const offsets = Array.isArray(pageParam) ? pageParam : cwds.map(() => 0);
        return mergedPage(params, cwds, offsets, pageSize, signal);
      }
      const { cwds: _cwds, ...rest } = params;
      const query = cwds ? { ...rest, cwd: cwds[0] } : rest;
      return unwrap<SessionList>(
        api.GET('/api/sessions', {
          params: {
            query: { ...query, limit: pageSize, offset: typeof pageParam === 'number' ? pageParam : 0 },
          },
          signal,
        }),
      );
    },
    initialPageParam: 0 as PageParam,
    getNextPageParam: (last): PageParam | undefined => {
      if (params.cwds && params.cwds.length > 1) return last.next;
      const next = last.offset + last.sessions.length;
      return last.sessions.length > 0 && next < last.total ? next : undefined;
    },
    placeholderData: keepPreviousData,
  });

/**
 * The list's API parameters for its URL state: the filters, id prefix and free text as they are,
 * and a `project` as the directories it names (`projectDirs`, from the `cwd` facet values) —
 * within `cwd` when both are given.
 */
export function listQueryParams(
  search: SessionFilters & { idPrefix?: string; project?: string; text?: string },
  cwdValues: readonly FacetValue[] | undefined,
): SessionListParams {
  const { project, idPrefix, text, ...rest } = search;
  const base: SessionListParams = {
    ...pickFilters(rest),
    ...(idPrefix ? { idPrefix } : {}),
    ...(text ? { text } : {}),
  };
  if (!project) return base;
  const dirs = projectDirs(project, cwdValues ?? []);
  const { cwd, ...others } = base;
  return { ...others, cwds: cwd ? dirs.filter((d) => d === cwd) : dirs };
}

/** How many sessions the instance holds, whatever the filters (tells "nothing recorded" apart). */
export const sessionCountQueryOptions = () =>
  queryOptions({
    queryKey: ['sessions', 'count'],
    queryFn: async ({ signal }) =>
      (await unwrap<SessionList>(api.GET('/api/sessions', { params: { query: { limit: 0 } }, signal })))
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
  });
