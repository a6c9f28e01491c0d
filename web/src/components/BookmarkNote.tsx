/**
 * A bookmark's note, written or edited in a small popover: on a bookmarked entry of the reader and
 * on each row of the Bookmarks page. Saving puts the bookmark again with the note (a blank note
 * removes it), based on the annotation revision the page last read, so an edit made meanwhile
 * elsewhere is refused (409) and said, never overwritten.
 */
import { ActionIcon, Button, Group, Popover, Stack, Text, Textarea, Tooltip } from '@mantine/core';
import { IconNote } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { describeError } from '../queries/api.js';
import { annotationQueryKey } from './AnnotationPanel.js';
import { setBookmarkNote } from './bookmark-entry.js';

/** The API's bound on a bookmark's note (core/annotations.ts MAX_BOOKMARK_NOTE_CHARS). */
const MAX_NOTE_CHARS = 1000;

export function BookmarkNote({
  sessionId,
  file,
  index,
  note,
}: {
  sessionId: string;
  file: string;
  index: number;
  note: string | null | undefined;
}) {
  const queryClient = useQueryClient();
  const [opened, setOpened] = useState(false);
  const [text, setText] = useState(note ?? '');
  const save = useMutation({
    mutationFn: () => setBookmarkNote(queryClient, sessionId, file, index, text),
    onSuccess: () => setOpened(false),
    // Refused as changed meanwhile: read it again, so the next save is based on what is there.
    onError: () => void queryClient.invalidateQueries({ queryKey: annotationQueryKey(sessionId) }),
  });
  const label = note
    ? `Edit the note of the bookmark on entry #${index}`
    : `Add a note to the bookmark on entry #${index}`;
  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      width={320}
      position="bottom-end"
      withinPortal
      trapFocus
      onOpen={() => {
        setText(note ?? '');
        save.reset();
      }}
    >
      <Popover.Target>
        <Tooltip label={note ? `Note: ${note}` : 'Add a note to this bookmark'} openDelay={400}>
          <ActionIcon
            size="xs"
            variant="subtle"
            color={note ? 'yellow' : 'gray'}
            aria-label={label}
            data-testid="bookmark-note-edit"
            onClick={(ev) => {
              ev.stopPropagation();
              setOpened((o) => !o);
            }}
          >
            <IconNote size={14} />
          </ActionIcon>
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown onClick={(ev) => ev.stopPropagation()}>
        <form
          onSubmit={(ev) => {
            ev.preventDefault();
            save.mutate();
          }}
        >
          <Stack gap="xs">
            <Textarea
              size="xs"
              label={`Note on entry #${index}`}
              description={`Optional, at most ${MAX_NOTE_CHARS} characters; empty removes it`}
              autosize
              minRows={2}
              maxRows={8}
              maxLength={MAX_NOTE_CHARS}
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              onKeyDown={(e) => {
                // Ctrl/Cmd+Enter saves; Enter alone is a line break.
                if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                  e.preventDefault();
                  save.mutate();
                }
              }}
              data-testid="bookmark-note-input"
            />
            {save.error && (
              <Text size="xs" c="red" data-testid="bookmark-note-error">
                {describeError(save.error).message}
              </Text>
            )}
            <Group gap="xs" justify="flex-end">
              <Button size="compact-xs" variant="subtle" color="gray" onClick={() => setOpened(false)}>
                Cancel
              </Button>
              <Button
                size="compact-xs"
                type="submit"
                loading={save.isPending}
                data-testid="bookmark-note-save"
              >
                Save
              </Button>
            </Group>
          </Stack>
        </form>
      </Popover.Dropdown>
    </Popover>
  );
}
