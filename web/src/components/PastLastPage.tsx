/**
 * The notice for a page past the end of a paged list (search hits, turns), reached by an old link
 * or a list that shrank: what the page asked for and how much there is (`children`), then links to
 * the last and the first page. `pageLink` makes a link to the page at an offset, as the page's own
 * route types it.
 */
import { Alert, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatCount } from '../lib/format.js';

export type PageLink = (offset: number | undefined, label: string, testId: string) => ReactNode;

export function PastLastPage({
  list,
  children,
  lastPage,
  pageSize,
  pageLink,
}: {
  /** Names its test ids: `<list>-past-end`, and `<list>-last-page` and `<list>-first-page` for the links. */
  list: string;
  children: ReactNode;
  /** The last page's number (from 1). */
  lastPage: number;
  pageSize: number;
  pageLink: PageLink;
}) {
  return (
    <Alert color="yellow" variant="light" title="Past the last page" data-testid={`${list}-past-end`}>
      <Stack gap={4} align="flex-start">
        <Text size="sm">{children}</Text>
        <Group gap="md">
          {pageLink(
            (lastPage - 1) * pageSize || undefined,
            `Go to the last page (${formatCount(lastPage)})`,
            `${list}-last-page`,
          )}
          {pageLink(undefined, 'Go to the first page', `${list}-first-page`)}
        </Group>
      </Stack>
    </Alert>
  );
}
