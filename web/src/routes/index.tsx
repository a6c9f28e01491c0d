/**
 * The session list (`/app/`): filters held in the URL and passed to `GET /api/sessions` (the
 * free text as `text`, matched by the API over every session, not over the pages loaded), one
 * removable chip per filter, a virtualised list that loads the next page as you scroll, and the
 * two empty states (nothing recorded yet / nothing matches these filters). Above it, the count and
 * what those sessions used and cost (`GET /api/totals`, same filters; `-list/ListTotals.tsx`).
 */
import { annotationParams } from '../lib/annotation-params.js';
import { Button, Group, Menu, Stack, Text, Tooltip } from '@mantine/core';
import { useQuery, useQueryClient, useSuspenseInfiniteQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import type { Virtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef } from 'react';
import { FilterChips } from '../components/FilterChips.js';
import { useListCursor } from '../components/use-list-cursor.js';
import { formatCountOf } from '../lib/format.js';
import { termsRegExp } from '../lib/highlight.js';
import { formatFilters, parseOmnibox } from '../lib/omnibox-grammar.js';
import { DEFAULT_SORT } from '../lib/session-sort.js';
import {
  filterChips,
  pickFilters,
  sessionListSearchSchema,
  type SessionFilters,
  type SessionListSearch,
} from '../lib/search-params.js';
import { blueprintQueryOptions, defaultBlueprint } from '../queries/blueprint.js';
import {
  listQueryParams,
  projectCwds,
  sessionCountQueryOptions,
  sessionListInfiniteOptions,
  useProjectCwds,
  type SessionListParams,
} from '../queries/sessions.js';
import type { FacetValue } from '../lib/facet-match.js';
import { ListError } from './-list/ListError.js';
import { ListFilters } from './-list/ListFilters.js';
import { TagFacet } from './-list/TagFacet.js';
import { ListTotals } from './-list/ListTotals.js';
import { ProjectDirs } from './-list/ProjectDirs.js';
import { SessionResults } from './-list/SessionResults.js';
import { SortControl } from './-list/SortControl.js';
import { ColumnsControl } from './-list/ColumnsControl.js';
import { DensityControl, useCompactList } from './-list/DensityControl.js';
import { useRowFacts, useSessionColumns } from './-list/use-session-columns.js';
import { usePageKeys } from './-root/Shortcuts.js';
import { useSavedFilters } from './-root/use-saved-items.js';
import { usePageTitle } from '../lib/page-title.js';

/** The API parameters of the list's URL state (a project resolves against the directories the API knows). */
function listParams(search: SessionListSearch, cwds?: readonly FacetValue[]): SessionListParams {
  return {
    ...listFilterParams(search, cwds),
    ...(search.sort ? { sort: search.sort } : {}),
    ...(search.dir ? { dir: search.dir } : {}),
  };
}

/** The filters, id prefix and free text of the list's API parameters: what its totals are asked. */
function listFilterParams(search: SessionListSearch, cwds?: readonly FacetValue[]): SessionListParams {
  return {
    ...listQueryParams({ ...pickFilters(search), idPrefix: search.idPrefix, text: search.text }, cwds),
    ...annotationParams(search),
  };
}

/** The words of the free text, marked in each row's title and project. */
function textRegExp(text: string | undefined): RegExp | null {
  return termsRegExp((text ?? '').split(/\s+/).flatMap((w) => (w ? [{ text: w, prefix: false }] : [])));
}

export const Route = createFileRoute('/')({
  validateSearch: sessionListSearchSchema,
  // Every parameter, the free text included, is part of what the list asks the API.
  loaderDeps: ({ search }) => ({ search }),
  loader: async ({ context: { queryClient }, deps }) => {
    const bp = await queryClient.ensureQueryData(blueprintQueryOptions()).catch(() => defaultBlueprint);
    const cwds = await projectCwds(queryClient, deps.search.project);
    await queryClient.ensureInfiniteQueryData(
      sessionListInfiniteOptions(listParams(deps.search, cwds), bp.userSettings.sessionListPageSize),
    );
  },
  component: SessionListPage,
  // A refused filter (more words than the API takes) is said with the API's message, chips kept.
  errorComponent: ListError,
});

function SessionListPage() {
  const search = Route.useSearch();
  usePageTitle('Sessions');
  const navigate = Route.useNavigate();
  const bp = useQuery(blueprintQueryOptions()).data ?? defaultBlueprint;
  const pageSize = bp.userSettings.sessionListPageSize;
  const cwds = useProjectCwds(search.project);
  const params = listParams(search, cwds);
  const totalsFilters = listFilterParams(search, cwds);
  // The tag facet counts over the other filters: the API leaves the tag filter out anyway, and
  // leaving it out here keeps the facet's query the same as tags are picked.
  const { tag: _tags, ...tagCounted } = totalsFilters;
  // Only the total, which stays the same as more pages load: the rows observe the pages
  // themselves (SessionResults), so loading one does not render the filter bar again.
  const total = useSuspenseInfiniteQuery({
    ...sessionListInfiniteOptions(params, pageSize),
    select: (data) => data.pages[0]?.total ?? 0,
  }).data;
  const [, saveFilter] = useSavedFilters();
  const queryClient = useQueryClient();
  const sortedBy = search.sort ?? DEFAULT_SORT;
  // Which facts the rows show: this browser's choice, plus the one the list is sorted by.
  const [columns, setColumns] = useSessionColumns();
  const facts = useRowFacts(columns, sortedBy);
  const [compact, toggleCompact] = useCompactList();

  const re = useMemo(() => textRegExp(search.text), [search.text]);
  const chips = filterChips(search);
  // The unfiltered list's total is the count the empty states need: filters that then match
  // nothing are answered by the list's one request.
  const unfiltered = chips.length === 0;
  useEffect(() => {
    if (unfiltered) queryClient.setQueryData(sessionCountQueryOptions().queryKey, total);
  }, [unfiltered, total, queryClient]);
  const virtualizerRef = useRef<Virtualizer<Window, Element> | null>(null);
  const step = useListCursor({ items: '[data-testid="session-row"]', virtualizer: virtualizerRef });
  usePageKeys({ j: () => step(1), k: () => step(-1) });

  // Each filter change is a history entry: Back undoes it.
  const setFilters = (patch: Partial<SessionListSearch>) =>
    navigate({ search: (old: SessionListSearch) => ({ ...old, ...patch }) });
  // Clearing the filters keeps the order.
  const clearAll = () => navigate({ search: { sort: search.sort, dir: search.dir } });
  const filterText = formatFilters({
    ...pickFilters(search),
    text: search.text,
    idPrefix: search.idPrefix,
  });

  return (
    <Stack gap="sm" p="sm" maw={1200} mx="auto" data-testid="session-list-page">
      <Group justify="space-between" gap="xs">
        <ListTotals
          filters={totalsFilters}
          count={
            search.text
              ? `${formatCountOf(total, 'session')} ${total === 1 ? 'matches' : 'match'} “${search.text}”`
              : formatCountOf(total, 'session')
          }
        />
        <Group gap="xs">
          <SortControl sort={search.sort} dir={search.dir} onChange={setFilters} />
          <ColumnsControl columns={columns} onChange={setColumns} sortedBy={sortedBy} />
          <DensityControl compact={compact} onToggle={toggleCompact} />
          {chips.length > 0 && (
            <Group gap={4}>
              <Tooltip label="Save these filters (they appear in the omnibox)" position="bottom">
                <Button
                  size="compact-xs"
                  variant="subtle"
                  onClick={() => saveFilter({ name: filterText, query: filterText })}
                  data-testid="save-filters"
                >
                  Save filters
                </Button>
              </Tooltip>
              <Button size="compact-xs" variant="subtle" color="gray" onClick={clearAll}>
                Clear
              </Button>
            </Group>
          )}
        </Group>
      </Group>
      <FilterChips chips={chips} onRemove={(key) => setFilters({ [key]: undefined })} />
      <ProjectDirs project={search.project} cwds={cwds} />
      <ListFilters
        filters={pickFilters(search)}
        text={search.text}
        idPrefix={search.idPrefix}
        onChange={(patch: Partial<SessionFilters>) => setFilters(patch)}
      />
      <TagFacet
        tags={annotationParams(search).tag ?? []}
        counted={tagCounted}
        onChange={(tags) => setFilters({ tag: tags.length ? tags.join(',') : undefined })}
      />
      <SavedFiltersMenu />
      <SessionResults
        params={params}
        pageSize={pageSize}
        filtered={chips.length > 0}
        onClear={clearAll}
        re={re}
        sortedBy={sortedBy}
        facts={facts}
        compact={compact}
        virtualizerRef={virtualizerRef}
      />
    </Stack>
  );
}

function SavedFiltersMenu() {
  const [saved, , remove] = useSavedFilters();
  const navigate = Route.useNavigate();
  if (saved.length === 0) return null;
  return (
    <Group gap={4}>
      <Text size="xs" c="dimmed">
        Saved:
      </Text>
      {saved.slice(0, 6).map((s) => (
        <Menu key={s.query} withinPortal>
          <Menu.Target>
            <Button size="compact-xs" variant="light" color="gray" maw={260}>
              <Text size="xs" truncate>
                {s.name}
              </Text>
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item
              onClick={() => {
                const p = parseOmnibox(s.query, Date.now());
                if (p.kind !== 'query') return;
                const { starred, tags, hasNote, hasSecrets, ...filters } = p.filters;
                void navigate({
                  search: {
                    ...filters,
                    text: p.text || undefined,
                    idPrefix: p.idPrefix,
                    starred: starred ? 'true' : undefined,
                    tag: tags?.join(','),
                    hasNote: hasNote ? 'true' : undefined,
                    hasSecrets: hasSecrets ? 'true' : undefined,
                  },
                });
              }}
            >
              Apply
            </Menu.Item>
            <Menu.Item color="red" onClick={() => remove(s.query)}>
              Remove
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      ))}
    </Group>
  );
}
