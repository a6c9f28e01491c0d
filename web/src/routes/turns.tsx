/**
 * Turns across sessions (`/app/turns`): what you typed (the default), what Claude said, or both,
 * in every session the filters select, newest first, from `GET /api/turns`. The side and the
 * filters are chips and pickers as on the list, held in the URL with the page; each turn links
 * to its session and opens the transcript at its entry.
 */
import { Group, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { AnchorLink } from '../components/AnchorLink.js';
import { PastLastPage } from '../components/PastLastPage.js';
import { useListCursor } from '../components/use-list-cursor.js';
import { FilterChips } from '../components/FilterChips.js';
import { Pager } from '../components/Pager.js';
import { SpeakerToggle } from '../components/SpeakerToggle.js';
import { formatCount, formatCountOf } from '../lib/format.js';
import { groupTurns } from '../lib/turn-groups.js';
import {
  DEFAULT_TURN_ROLE,
  filterChips,
  pickFilters,
  roleOfSpeaker,
  speakerOfRole,
  TURNS_PAGE_SIZE,
  turnsSearchSchema,
  type SessionFilters,
  type TurnRoleChoice,
  type TurnsSearch,
} from '../lib/search-params.js';
import { apiFilters, projectCwds, useProjectCwds } from '../queries/sessions.js';
import { turnsAcrossQueryOptions, turnsQueryParams } from '../queries/turns.js';
import { ListFilters } from './-list/ListFilters.js';
import { ProjectDirs } from './-list/ProjectDirs.js';
import { usePageKeys } from './-root/Shortcuts.js';
import { NoTurns } from './-turns/NoTurns.js';
import { SessionTurns } from './-turns/SessionTurns.js';
import { usePageTitle } from '../lib/page-title.js';
import { QueryErrorAlert } from '../components/QueryErrorAlert.js';

const PAGE = TURNS_PAGE_SIZE;

/** The count's noun for each side, as the session page names them. */
const NOUN: Record<TurnRoleChoice, string> = {
  user: '“You” turn',
  assistant: '“Claude” turn',
  both: 'turn',
};

export const Route = createFileRoute('/turns')({
  validateSearch: turnsSearchSchema,
  loaderDeps: ({ search }) => ({ search }),
  loader: async ({ context: { queryClient }, deps }) => {
    const cwds = await projectCwds(queryClient, deps.search.project);
    await queryClient.ensureQueryData(turnsAcrossQueryOptions(turnsQueryParams(deps.search, cwds)));
  },
  component: TurnsPage,
});

function TurnsPage() {
  const search = Route.useSearch();
  usePageTitle('Turns');
  const navigate = Route.useNavigate();
  const role = search.role ?? DEFAULT_TURN_ROLE;
  const offset = search.offset ?? 0;
  const filters = pickFilters(search);
  const cwds = useProjectCwds(search.project);
  const result = useQuery(turnsAcrossQueryOptions(turnsQueryParams(search, cwds)));
  // Each change is a history entry: Back undoes it. A new side or filter starts at the first page.
  const set = (patch: Partial<TurnsSearch>) =>
    navigate({ search: (old: TurnsSearch) => ({ ...old, ...patch }) });
  const setRole = (r: TurnRoleChoice) =>
    set({ role: r === DEFAULT_TURN_ROLE ? undefined : r, offset: undefined });
  const clearAll = () => navigate({ search: { role: search.role } });
  const step = useListCursor({ items: '[data-testid="turn-row"]' });
  usePageKeys({
    '1': () => setRole('both'),
    '2': () => setRole('user'),
    '3': () => setRole('assistant'),
    j: () => step(1),
    k: () => step(-1),
  });

  const data = result.data;
  const pages = data ? Math.ceil(data.total / PAGE) : 0;
  const lastPage = Math.max(1, pages);
  const shownTo = data ? offset + data.turns.length : 0;

  return (
    <Stack gap="sm" p="sm" maw={1200} mx="auto" data-testid="turns-page">
      <Group gap="xs">
        <SpeakerToggle
          value={speakerOfRole(role)}
          onChange={(v) => setRole(roleOfSpeaker(v) ?? DEFAULT_TURN_ROLE)}
          testId="turns-toggle"
        />
        {data && (
          <Text size="sm" c="dimmed" data-testid="turns-total">
            {formatCountOf(data.total, NOUN[role])}
            {data.total > 1 ? ', newest first' : ''}
            {data.turns.length > 0 && data.total > data.turns.length
              ? ` · ${formatCount(offset + 1)}–${formatCount(shownTo)}`
              : ''}
            {result.isFetching ? ' …' : ''}
          </Text>
        )}
      </Group>
      <FilterChips
        chips={filterChips(filters)}
        onRemove={(key) => set({ [key]: undefined, offset: undefined })}
      />
      <ProjectDirs project={search.project} cwds={cwds} />
      <ListFilters
        filters={filters}
        onChange={(patch: Partial<SessionFilters>) => set({ ...patch, offset: undefined })}
      />
      {result.isError ? (
        <QueryErrorAlert error={result.error} retry={() => void result.refetch()} testId="turns-error" />
      ) : !data ? (
        <Loader size="sm" />
      ) : data.total === 0 ? (
        <NoTurns role={role} filters={apiFilters(filters, cwds)} onClear={clearAll} />
      ) : (
        <>
          {data.turns.length === 0 && offset > 0 && (
            <PastLastPage
              list="turns"
              lastPage={lastPage}
              pageSize={PAGE}
              pageLink={(to, label, testId) => (
                <AnchorLink
                  to="/turns"
                  size="sm"
                  search={(old: TurnsSearch) => ({ ...old, offset: to })}
                  data-testid={testId}
                >
                  {label}
                </AnchorLink>
              )}
            >
              This page starts at turn {formatCount(offset + 1)}, but there are {formatCount(data.total)} (
              {formatCountOf(lastPage, 'page')} of {PAGE}).
            </PastLastPage>
          )}
          <Stack gap={6} data-testid="turns-list">
            {groupTurns(data.turns).map((g) => (
              <SessionTurns key={`${g.sessionId}:${g.turns[0]!.file}:${g.turns[0]!.index}`} group={g} />
            ))}
          </Stack>
          <Pager
            pages={pages}
            offset={offset}
            pageSize={PAGE}
            onChange={(o) => void set({ offset: o })}
            testId="turns-pagination"
          />
        </>
      )}
    </Stack>
  );
}
