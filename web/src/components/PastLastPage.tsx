/**
 * The notice for a page past the end of a paged list (search hits, turns), reached by an old link
 * or a list that shrank: what the page asked for and how much there is (`children`), then links to
 * the last and the first page — each page's own, as its route types them.
 */
import { Alert, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export function PastLastPage({
  testId,
  children,
  lastPage,
  firstPage,
}: {
  testId: string;
  children: ReactNode;
  lastPage: ReactNode;
  firstPage: ReactNode;
}) {
  return (
    <Alert color="yellow" variant="light" title="Past the last page" data-testid={testId}>
      <Stack gap={4} align="flex-start">
        <Text size="sm">{children}</Text>
        <Group gap="md">
          {lastPage}
          {firstPage}
        </Group>
      </Stack>
    </Alert>
  );
}
