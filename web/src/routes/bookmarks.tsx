/**
 * Bookmarks (`/app/bookmarks`): every bookmarked entry across sessions, newest bookmark first,
 * from `GET /api/bookmarks` — the session's title, the entry's time, the bookmark's note, each
 * linking to the entry in the session reader (its permalink); its note can be written or edited
 * here. Bookmarks are set on an entry with its bookmark button or the `b` key.
 */
import { ActionIcon, Alert, Group, Loader, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconBookmarkOff } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import type { components } from '../../../src/client/api-schema.gen.js';
import { AnchorLink } from '../components/AnchorLink.js';
import { annotationQueryKey } from '../components/AnnotationPanel.js';
import { bookmarksQueryKey } from '../components/bookmark-entry.js';
import { BookmarkNote } from '../components/BookmarkNote.js';
import { formatCountOf, formatUtc } from '../lib/format.js';
import { usePageTitle } from '../lib/page-title.js';
import { api, describeError } from '../queries/api.js';
import { QueryErrorAlert } from '../components/QueryErrorAlert.js';

type BookmarkRow = components['schemas']['BookmarkList']['bookmarks'][number];

/** The API's page bound; more bookmarks than this are counted, not listed. */
const LIMIT = 500;
const MAIN = 'transcript.jsonl';

const bookmarksQueryOptions = () => ({
  queryKey: bookmarksQueryKey,
  queryFn: () => api.GET('/api/bookmarks', { params: { query: { limit: LIMIT } } }),
});

export const Route = createFileRoute('/bookmarks')({
  loader: async ({ context: { queryClient } }) => {
    await queryClient.ensureQueryData(bookmarksQueryOptions());
  },
  component: BookmarksPage,
});

/** The entry's own time, read from the transcript (the bookmark list holds only when it was set). */
function EntryTime({ b }: { b: BookmarkRow }) {
  const entry = useQuery({
    queryKey: ['bookmark-entry', b.sessionId, b.file, b.index],
    queryFn: () =>
      api.GET('/api/sessions/{id}/transcript', {
        params: { path: { id: b.sessionId }, query: { file: b.file, offset: b.index, limit: 1 } },
      }),
    staleTime: Infinity,
  });
  const e = entry.data?.entries[0];
  const at = e?.index === b.index ? e.timestamp : null;
  return (
    <Text size="xs" c="dimmed" data-testid="bookmark-entry-time">
      {at ? formatUtc(at) : entry.isPending ? '…' : 'no time'}
    </Text>
  );
}

function BookmarkItem({ b }: { b: BookmarkRow }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    // Based on the session's current revision, so a concurrent edit is refused, not overwritten.
    mutationFn: async () => {
      const a = await api.GET('/api/sessions/{id}/annotations', { params: { path: { id: b.sessionId } } });
      return api.DELETE('/api/sessions/{id}/bookmarks/{index}', {
        params: {
          path: { id: b.sessionId, index: b.index },
          query: { file: b.file, ...(a.rev ? { rev: a.rev } : {}) },
        },
      });
    },
    onSuccess: (next) => queryClient.setQueryData(annotationQueryKey(b.sessionId), next),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: bookmarksQueryKey }),
  });
  return (
    <Paper withBorder p="xs" data-testid="bookmark-row" data-session-id={b.sessionId} data-entry={b.index}>
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
          <Group gap="xs" wrap="nowrap">
            <AnchorLink
              to="/sessions/$id"
              params={{ id: b.sessionId }}
              search={{ entry: b.index, file: b.file === MAIN ? undefined : b.file }}
              fw={600}
              truncate
              data-testid="bookmark-link"
            >
              {b.title ?? b.sessionId}
            </AnchorLink>
            <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
              {b.file === MAIN ? '' : `${b.file} `}#{b.index}
            </Text>
          </Group>
          <Group gap="xs">
            <EntryTime b={b} />
            {b.project && (
              <Text size="xs" c="dimmed" truncate>
                {b.project}
              </Text>
            )}
            <Text size="xs" c="dimmed" title={`bookmarked ${formatUtc(b.at)}`}>
              · bookmarked {formatUtc(b.at)}
            </Text>
          </Group>
          {b.note && (
            <Text size="sm" className="ct-text" data-testid="bookmark-note">
              {b.note}
            </Text>
          )}
          {remove.error && (
            <Text size="xs" c="red">
              {describeError(remove.error).message}
            </Text>
          )}
        </Stack>
        <BookmarkNote sessionId={b.sessionId} file={b.file} index={b.index} note={b.note} />
        <Tooltip label="Remove this bookmark">
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-label={`Remove the bookmark on ${b.title ?? b.sessionId} #${b.index}`}
            data-testid="bookmark-remove"
            loading={remove.isPending}
            onClick={() => remove.mutate()}
          >
            <IconBookmarkOff size={16} />
          </ActionIcon>
        </Tooltip>
      </Group>
    </Paper>
  );
}

function BookmarksPage() {
  usePageTitle('Bookmarks');
  const result = useQuery(bookmarksQueryOptions());
  const data = result.data;
  return (
    <Stack gap="sm" p="sm" maw={1200} mx="auto" data-testid="bookmarks-page">
      <Text size="lg" fw={700} component="h1" m={0}>
        Bookmarks
      </Text>
      {result.isError ? (
        <QueryErrorAlert error={result.error} retry={() => void result.refetch()} testId="bookmarks-error" />
      ) : !data ? (
        <Loader size="sm" />
      ) : data.total === 0 ? (
        <Alert color="gray" data-testid="bookmarks-empty" title="No bookmarks yet">
          Bookmark an entry of a session with the bookmark button beside its time, or press <code>b</code> on
          the current entry (move with <code>j</code>/<code>k</code>). Bookmarked entries are listed here,
          newest first.
        </Alert>
      ) : (
        <>
          <Text size="sm" c="dimmed" data-testid="bookmarks-total">
            {formatCountOf(data.total, 'bookmark')}
            {data.total > 1 ? ', newest first' : ''}
            {data.total > data.bookmarks.length ? ` · the newest ${data.bookmarks.length} shown` : ''}
          </Text>
          {data.bookmarks.map((b) => (
            <BookmarkItem key={`${b.sessionId}/${b.file}/${b.index}`} b={b} />
          ))}
        </>
      )}
    </Stack>
  );
}
