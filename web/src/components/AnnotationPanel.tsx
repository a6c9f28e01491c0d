/**
 * What a person marks on a session (DESIGN §13): the star, tag chips, the note, and forgetting the
 * session. Every edit is sent with the annotation revision it started from, so an edit made
 * meanwhile in another tab or by the CLI is refused (409) and shown, never silently overwritten.
 */
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Modal,
  Stack,
  TagsInput,
  Text,
  Textarea,
  Tooltip,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import type { components } from '../../../src/client/api-schema.gen.js';
import { api, describeError, type Session } from '../queries/api.js';

type Annotation = components['schemas']['Annotation'];

const TAG = /^[a-z0-9]+(?:[-/][a-z0-9]+)*$/;

export const annotationQueryKey = (id: string) => ['annotation', id] as const;

export function AnnotationPanel({ s }: { s: Session }) {
  const id = s.id;
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const params = { path: { id } };
  const current = useQuery({
    queryKey: annotationQueryKey(id),
    queryFn: () => api.GET('/api/sessions/{id}/annotations', { params }),
  });
  const a = current.data;
  const [note, setNote] = useState('');
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  useEffect(() => {
    if (!editing) setNote(a?.note ?? '');
  }, [a?.note, editing]);

  const done = (next: Annotation) => {
    queryClient.setQueryData(annotationQueryKey(id), next);
    void queryClient.invalidateQueries({ queryKey: ['sessions'] });
  };
  const edit = useMutation({
    mutationFn: (change: () => Promise<Annotation>) => change(),
    onSuccess: done,
    // A conflict: show what is stored now, so the next edit starts from it.
    onError: () => void queryClient.invalidateQueries({ queryKey: annotationQueryKey(id) }),
  });
  const rev = a?.rev ?? null;
  const forget = useMutation({
    mutationFn: () => api.POST('/api/sessions/{id}/forget', { params }),
    onSuccess: async () => {
      await queryClient.invalidateQueries();
      await navigate({ to: '/' });
    },
  });

  if (!a) return null;
  const setStar = (starred: boolean) =>
    edit.mutate(() =>
      starred
        ? api.PUT('/api/sessions/{id}/star', { params, body: { rev } })
        : api.DELETE('/api/sessions/{id}/star', { params: { ...params, query: rev ? { rev } : {} } }),
    );
  const setTags = (tags: string[]) => {
    const add = tags.filter((t) => !a.tags.includes(t));
    const remove = a.tags.filter((t) => !tags.includes(t));
    if (add.length === 0 && remove.length === 0) return;
    edit.mutate(() => api.PATCH('/api/sessions/{id}/tags', { params, body: { add, remove, rev } }));
  };
  const saveNote = () =>
    edit.mutate(async () => {
      const r = await api.PUT('/api/sessions/{id}/note', { params, body: { note, rev } });
      setEditing(false);
      return r;
    });
  const badTag = (t: string) => !TAG.test(t) || t.length > 40;

  return (
    <Stack gap={6} data-testid="annotation-panel">
      <Group gap="xs" wrap="wrap" align="flex-start">
        <Tooltip label={a.starred ? 'Remove the star' : 'Star this session'}>
          <ActionIcon
            variant="subtle"
            color="yellow"
            aria-label={a.starred ? 'Unstar' : 'Star'}
            aria-pressed={a.starred}
            data-testid="star-toggle"
            onClick={() => setStar(!a.starred)}
          >
            {a.starred ? '★' : '☆'}
          </ActionIcon>
        </Tooltip>
        <TagsInput
          size="xs"
          flex={1}
          placeholder={a.tags.length ? '' : 'Add tags (lowercase words, - and / allowed)'}
          aria-label="Tags"
          data-testid="tag-input"
          value={a.tags}
          onChange={(tags) => {
            const bad = tags.find(badTag);
            if (bad) {
              edit.reset();
              return;
            }
            setTags(tags);
          }}
          splitChars={[',', ' ']}
          clearable
        />
        <Textarea
          size="xs"
          flex={1}
          autosize
          minRows={1}
          maxRows={12}
          placeholder="A note on this session (Markdown)"
          aria-label="Note"
          data-testid="note-input"
          value={note}
          onChange={(e) => {
            setEditing(true);
            setNote(e.currentTarget.value);
          }}
        />
        <Button
          size="compact-xs"
          variant="subtle"
          color="red"
          data-testid="forget-open"
          onClick={() => setConfirming(true)}
        >
          Forget…
        </Button>
      </Group>
      {editing && (
        <Group gap="xs">
          <Button size="compact-xs" data-testid="note-save" onClick={saveNote} loading={edit.isPending}>
            Save note
          </Button>
          <Button
            size="compact-xs"
            variant="subtle"
            onClick={() => {
              setEditing(false);
              setNote(a.note);
            }}
          >
            Cancel
          </Button>
        </Group>
      )}
      {a.bookmarks.length > 0 && (
        <Text size="xs" c="dimmed" data-testid="bookmark-list">
          Bookmarks (key b on the current entry):{' '}
          {a.bookmarks
            .map(
              (b) =>
                `${b.file === 'transcript.jsonl' ? '' : `${b.file} `}#${b.index}${b.note ? ` ${b.note}` : ''}`,
            )
            .join(', ')}
        </Text>
      )}
      {edit.error && (
        <Alert color="red" p={6} data-testid="annotation-error">
          {describeError(edit.error).message}
        </Alert>
      )}
      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Forget this session?" centered>
        <Stack gap="sm" data-testid="forget-confirm">
          <Text size="sm">
            This removes “{s.title ?? s.id}” for good: its {s.counts.entries.toLocaleString('en-US')}{' '}
            transcript entries, its stored transcript file{s.files.length === 1 ? '' : 's'} ({s.files.length}
            ), its events, and your star, tags, note and bookmarks on it. Nothing records it again (watcher,
            backfill, hooks, imports) until it is unforgotten with <code>transcripts unforget {s.id}</code>.
            The original file under ~/.claude/projects is kept.
          </Text>
          {forget.error && <Alert color="red">{describeError(forget.error).message}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Keep it
            </Button>
            <Button
              color="red"
              data-testid="forget-confirm-button"
              loading={forget.isPending}
              onClick={() => forget.mutate()}
            >
              Forget it
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
