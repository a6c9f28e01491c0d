/**
 * The star toggle of a session list row: a button inside the row's link that stars or unstars the
 * session without opening it, and shows its tags beside it.
 */
import { ActionIcon, Badge, Group } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MouseEvent } from 'react';
import type { components } from '../../../src/client/api-schema.gen.js';
import { api } from '../queries/api.js';

export type AnnotationSummary = components['schemas']['AnnotationSummary'];

export function ListStar({ id, mark }: { id: string; mark: AnnotationSummary | undefined }) {
  const queryClient = useQueryClient();
  const starred = mark?.starred === true;
  const toggle = useMutation({
    mutationFn: () =>
      starred
        ? api.DELETE('/api/sessions/{id}/star', { params: { path: { id }, query: {} } })
        : api.PUT('/api/sessions/{id}/star', { params: { path: { id } }, body: {} }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['sessions'] }),
  });
  const click = (e: MouseEvent) => {
    // The row is a link: the star must not open the session.
    e.preventDefault();
    e.stopPropagation();
    toggle.mutate();
  };
  return (
    <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
      <ActionIcon
        size="sm"
        variant="subtle"
        color="yellow"
        aria-label={starred ? 'Unstar' : 'Star'}
        aria-pressed={starred}
        data-testid="row-star"
        loading={toggle.isPending}
        onClick={click}
      >
        {starred ? '★' : '☆'}
      </ActionIcon>
      {mark?.tags.map((t) => (
        <Badge key={t} size="xs" variant="light" data-testid="row-tag">
          {t}
        </Badge>
      ))}
    </Group>
  );
}
