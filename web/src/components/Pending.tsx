/**
 * Loading feedback. `PendingPage` stands in for a route whose data is still on its way (the
 * router shows it once a load takes longer than a moment, so a fast answer never flashes it);
 * `NavigationProgress` is the thin bar under the header while any navigation or query is
 * loading, so a slow API always shows that something is happening.
 */
import { Group, Loader, Stack, Text } from '@mantine/core';
import { useIsFetching } from '@tanstack/react-query';
import { useRouterState } from '@tanstack/react-router';

export function PendingPage() {
  return (
    <Stack p="md" maw={1200} mx="auto" data-testid="page-pending">
      <Group gap="xs">
        <Loader size="sm" />
        <Text size="sm" c="dimmed">
          Loading…
        </Text>
      </Group>
    </Stack>
  );
}

export function NavigationProgress() {
  const navigating = useRouterState({ select: (s) => s.status === 'pending' || s.isLoading });
  // Background refreshes and paging show in their own places; the bar is for what the page waits on.
  const fetching = useIsFetching({ predicate: (q) => q.state.data === undefined }) > 0;
  if (!navigating && !fetching) return null;
  return <div className="ct-progress" role="progressbar" aria-label="Loading" data-testid="nav-progress" />;
}
