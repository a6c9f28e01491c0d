/**
 * The bookmark button on an entry of the session reader: shows whether the entry is bookmarked and
 * toggles the same bookmark the `b` key does (`toggleBookmark`, with the annotation revision the
 * page last read). A refused edit (409: changed meanwhile) reads the annotation again. A bookmarked
 * entry also shows its note's button, to write or edit the note.
 */
import { ActionIcon, Group } from '@mantine/core';
import { IconBookmark, IconBookmarkFilled } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../queries/api.js';
import { annotationQueryKey } from './AnnotationPanel.js';
import { toggleBookmark } from './bookmark-entry.js';
import { BookmarkNote } from './BookmarkNote.js';
import { HoverTooltip } from './HoverTooltip.js';

export function BookmarkToggle({
  sessionId,
  file,
  index,
}: {
  sessionId: string;
  file: string;
  index: number;
}) {
  const queryClient = useQueryClient();
  // The same query as the annotation panel's: one request per session page, shared by every entry.
  const annotation = useQuery({
    queryKey: annotationQueryKey(sessionId),
    queryFn: () => api.GET('/api/sessions/{id}/annotations', { params: { path: { id: sessionId } } }),
  });
  const toggle = useMutation({
    mutationFn: () => toggleBookmark(queryClient, sessionId, file, index),
    onError: () => void queryClient.invalidateQueries({ queryKey: annotationQueryKey(sessionId) }),
  });
  const mark = annotation.data?.bookmarks.find((b) => b.file === file && b.index === index);
  const label = mark ? `Remove the bookmark on entry #${index}` : `Bookmark entry #${index}`;
  const toggleButton = (
    <HoverTooltip label={mark?.note ? `${label}: ${mark.note}` : `${label} (key b)`} openDelay={400}>
      <ActionIcon
        size="xs"
        variant="subtle"
        color={mark ? 'yellow' : 'gray'}
        aria-label={label}
        aria-pressed={mark !== undefined}
        data-testid="entry-bookmark"
        disabled={!annotation.data}
        loading={toggle.isPending}
        onClick={(ev) => {
          // Inside clickable rows (a tool call's line): bookmarking does not also open the row.
          ev.stopPropagation();
          toggle.mutate();
        }}
      >
        {mark ? <IconBookmarkFilled size={14} /> : <IconBookmark size={14} />}
      </ActionIcon>
    </HoverTooltip>
  );
  if (!mark) return toggleButton;
  return (
    <Group gap={0} wrap="nowrap" display="inline-flex">
      {toggleButton}
      <BookmarkNote sessionId={sessionId} file={file} index={index} note={mark.note} />
    </Group>
  );
}
