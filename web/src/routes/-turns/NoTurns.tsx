/**
 * Why the Turns page has no turn to show, found out with a session count or two: nothing is
 * recorded at all; the session filters exclude every session; the dates exclude every turn; or
 * the sessions selected hold no turn of this side (turns come from full-content chunks, and a
 * session stored without them has none).
 */
import { Alert, Button, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { formatCountOf } from '../../lib/format.js';
import type { SessionFilters, TurnRoleChoice } from '../../lib/search-params.js';
import { sessionCountQueryOptions, type SessionListParams } from '../../queries/sessions.js';
import { NothingMatches, NothingRecorded } from '../-list/EmptyList.js';

const SIDE: Record<TurnRoleChoice, string> = {
  user: 'prompt of yours',
  assistant: 'answer from Claude',
  both: 'turn',
};

export function NoTurns({
  role,
  filters,
  onClear,
}: {
  role: TurnRoleChoice;
  /** The filters as the API was asked them (a project resolved). */
  filters: SessionFilters;
  onClear: () => void;
}) {
  const { from, to, ...sessionFilters } = filters;
  const bySession = Object.keys(sessionFilters).length > 0;
  const recorded = useQuery(sessionCountQueryOptions()).data;
  // The filters that select sessions (from/to bound the turns' own time, not which sessions).
  const selected = useQuery({
    ...sessionCountQueryOptions(sessionFilters as SessionListParams),
    enabled: bySession && recorded !== undefined && recorded > 0,
  }).data;
  const filtered = bySession || from !== undefined || to !== undefined;

  if (recorded === undefined || (bySession && recorded > 0 && selected === undefined))
    return <Loader size="sm" />;
  if (recorded === 0) return <NothingRecorded filtered={filtered} />;
  if (bySession && selected === 0) return <NothingMatches onClear={onClear} />;

  const count = bySession ? (selected ?? 0) : recorded;
  const which = bySession ? 'these filters select' : 'recorded';
  const sessions =
    count === 1 ? `the one session ${which}` : `the ${formatCountOf(count, 'session')} ${which}`;
  const noneHas =
    count === 1 ? `The one session ${which} has no ${SIDE[role]}` : `None of ${sessions} has a ${SIDE[role]}`;
  const range =
    from && to ? `between ${from} and ${to}` : from ? `on or after ${from}` : to ? `on or before ${to}` : '';
  return (
    <Alert color="gray" variant="light" title="No turns" data-testid="turns-empty">
      <Stack gap="xs" align="flex-start">
        {range ? (
          <Text size="sm" data-testid="turns-empty-reason" data-reason="dates">
            No {SIDE[role]} in {sessions} is dated {range} (UTC days, by the turn&apos;s own time).
          </Text>
        ) : (
          <Text size="sm" data-testid="turns-empty-reason" data-reason="chunks">
            {noneHas}. Turns are built from full-content chunks: a session stored without them has none
            {role === 'both' ? '' : ', and the other side may have some (Both shows every turn)'}.
          </Text>
        )}
        {filtered && (
          <Button size="xs" variant="light" onClick={onClear}>
            Clear all filters
          </Button>
        )}
      </Stack>
    </Alert>
  );
}
