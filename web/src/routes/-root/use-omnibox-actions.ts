/**
 * What the omnibox does: Enter filters the session list, Shift+Enter searches, an id prefix
 * jumps to its session, `>` commands navigate. Each action returns a problem in words (shown in
 * the dropdown) or null when it navigated.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useMatchRoute, useNavigate, useRouterState } from '@tanstack/react-router';
import { useCallback } from 'react';
import { resolveOmniboxFilters, type FacetLists, type ResolvedFilters } from '../../lib/facet-match.js';
import type { OmniboxCommand, OmniboxFilters, OmniboxQuery } from '../../lib/omnibox-grammar.js';
import { sessionListSearchSchema } from '../../lib/search-params.js';
import { facetsQueryOptions, idPrefixQueryOptions, type FacetAttribute } from '../../queries/sessions.js';
import { describeError } from '../../queries/api.js';
import { useShortcuts } from './Shortcuts.js';
import { useRecentSearches } from './use-saved-items.js';

/** The facet attributes a set of typed filters needs to resolve. */
export function facetsNeeded(f: OmniboxFilters): FacetAttribute[] {
  const out: FacetAttribute[] = [];
  if (f.cwd || f.project) out.push('cwd');
  if (f.model) out.push('model');
  if (f.hostname) out.push('hostname');
  if (f.source) out.push('source');
  if (f.agent) out.push('agent');
  return out;
}

export function useOmniboxActions() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useRouterState({ select: (s) => s.location });
  const matchRoute = useMatchRoute();
  const { openHelp } = useShortcuts();
  const [, addRecent] = useRecentSearches();

  const resolve = useCallback(
    async (typed: OmniboxFilters): Promise<{ filters: ResolvedFilters; problems: string[] }> => {
      const facets: FacetLists = {};
      await Promise.all(
        facetsNeeded(typed).map(async (attr) => {
          try {
            facets[attr] = (await queryClient.fetchQuery(facetsQueryOptions(attr))).values;
          } catch {
            // Without facets the typed value is used as is.
          }
        }),
      );
      const r = resolveOmniboxFilters(typed, facets);
      return { filters: r.filters, problems: r.problems };
    },
    [queryClient],
  );

  const openId = useCallback(
    async (prefix: string): Promise<string | null> => {
      let found;
      try {
        found = await queryClient.fetchQuery(idPrefixQueryOptions(prefix, 2));
      } catch (err) {
        return describeError(err).message;
      }
      if (found.total === 0) return `no session id starts with "${prefix}"`;
      if (found.total === 1) {
        await navigate({ to: '/sessions/$id', params: { id: found.sessions[0]!.id } });
        return null;
      }
      await navigate({ to: '/', search: { idPrefix: prefix } });
      return null;
    },
    [navigate, queryClient],
  );

  const filterList = useCallback(
    async (q: OmniboxQuery): Promise<string | null> => {
      if (q.idPrefix && q.text === '' && Object.keys(q.filters).length === 0) return openId(q.idPrefix);
      const { filters: resolved, problems } = await resolve(q.filters);
      const onList = Boolean(matchRoute({ to: '/' }));
      const current = onList ? sessionListSearchSchema.parse(location.search) : {};
      const hasDates = q.filters.from !== undefined || q.filters.to !== undefined;
      // A directory typed (project: or cwd:) replaces the directory filter in force.
      const hasDir = resolved.project !== undefined || resolved.cwd !== undefined;
      const next = {
        ...current,
        ...resolved,
        ...(hasDir ? { project: resolved.project, cwd: resolved.cwd } : {}),
        ...(hasDates ? { from: resolved.from, to: resolved.to } : {}),
        text: q.text || undefined,
        idPrefix: q.idPrefix ?? (onList ? current.idPrefix : undefined),
        ...(q.filters.starred ? { starred: 'true' as const } : {}),
        ...(q.filters.tags?.length ? { tag: q.filters.tags.join(',') } : {}),
        ...(q.filters.hasNote ? { hasNote: 'true' as const } : {}),
        ...(q.filters.hasSecrets ? { hasSecrets: 'true' as const } : {}),
      };
      await navigate({ to: '/', search: next });
      // The rest is applied; what was not stays explained in the dropdown.
      return problems.length ? problems.join('; ') : null;
    },
    [location, matchRoute, navigate, openId, resolve],
  );

  const search = useCallback(
    async (q: OmniboxQuery): Promise<string | null> => {
      if (q.text === '') return 'type words to search for (Shift+Enter searches transcripts)';
      const { filters: resolved, problems } = await resolve(q.filters);
      addRecent(q.text);
      await navigate({ to: '/search', search: { ...resolved, q: q.text } });
      return problems.length ? problems.join('; ') : null;
    },
    [addRecent, navigate, resolve],
  );

  const runCommand = useCallback(
    async (c: OmniboxCommand): Promise<string | null> => {
      if (c.name === null || c.problems.length > 0) return c.problems[0] ?? 'choose a command';
      switch (c.name) {
        case 'list':
          await navigate({ to: '/' });
          return null;
        case 'calendar':
          await navigate({ to: '/calendar', search: c.arg ? { month: c.arg } : {} });
          return null;
        case 'turns': {
          const side = c.arg.toLowerCase();
          const role = side === 'claude' ? 'assistant' : side === 'both' ? 'both' : undefined;
          await navigate({ to: '/turns', search: role ? { role } : {} });
          return null;
        }
        case 'search':
          addRecent(c.arg);
          await navigate({ to: '/search', search: { q: c.arg } });
          return null;
        case 'open':
          return openId(c.arg);
        case 'shortcuts':
          openHelp();
          return null;
      }
    },
    [addRecent, navigate, openHelp, openId],
  );

  return { filterList, search, openId, runCommand };
}
