/**
 * The list's order: a field picker and a direction button, written to the URL (`sort`, `dir`) and
 * sent to the API, which sorts every session, not the pages loaded. Another field starts in its
 * usual direction (largest, newest first).
 */
import { ActionIcon, Group, Select, Tooltip } from '@mantine/core';
import {
  DEFAULT_SORT,
  SESSION_SORTS,
  SORT_LABELS,
  directionLabel,
  type SessionSortKey,
  type SortDirection,
} from '../../lib/session-sort.js';

const OPTIONS = SESSION_SORTS.map((value) => ({ value, label: SORT_LABELS[value] }));

export function SortControl({
  sort,
  dir,
  onChange,
}: {
  sort?: SessionSortKey;
  dir?: SortDirection;
  onChange: (patch: { sort?: SessionSortKey; dir?: SortDirection }) => void;
}) {
  const key = sort ?? DEFAULT_SORT;
  const direction = dir ?? 'desc';
  const other: SortDirection = direction === 'desc' ? 'asc' : 'desc';
  const says = directionLabel(key, direction);
  return (
    <Group gap={4} wrap="nowrap" data-testid="sort-control">
      <Select
        size="xs"
        w={130}
        aria-label="Sort sessions by"
        data-testid="sort-by"
        data={OPTIONS}
        value={key}
        allowDeselect={false}
        onChange={(v) => {
          if (!v || v === key) return;
          onChange({ sort: v === DEFAULT_SORT ? undefined : (v as SessionSortKey), dir: undefined });
        }}
        comboboxProps={{ withinPortal: true }}
      />
      <Tooltip label={`${says}: show ${directionLabel(key, other)}`} position="bottom">
        <ActionIcon
          size="md"
          variant="default"
          aria-label={`Sorted ${says}; show ${directionLabel(key, other)}`}
          data-testid="sort-dir"
          data-dir={direction}
          onClick={() => onChange({ sort, dir: other === 'desc' ? undefined : other })}
        >
          {direction === 'desc' ? '↓' : '↑'}
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
