/**
 * The "Columns" button beside the list's order: a popover with one checkbox per fact a row can
 * show, arrows to reorder the facts under the title, and "Reset to default". The status and the
 * title always show (their boxes are ticked and disabled); the fact the list is sorted by shows
 * even when unticked, and its box says so. The button counts the facts hidden of those shown by
 * default. The choice is this browser's (use-session-columns.ts).
 */
import { ActionIcon, Button, Checkbox, Group, Popover, Stack, Text } from '@mantine/core';
import {
  DEFAULT_COLUMNS,
  FACT_LABELS,
  SORTED_FACT,
  hiddenCount as countHidden,
  isDefaultColumns,
  moveFact,
  setFactShown,
  type DetailFact,
  type SessionColumns,
} from '../../lib/session-columns.js';
import type { SessionSortKey } from '../../lib/session-sort.js';

export function ColumnsControl({
  columns,
  onChange,
  sortedBy,
}: {
  columns: SessionColumns;
  onChange: (next: SessionColumns) => void;
  sortedBy: SessionSortKey;
}) {
  const sorted = SORTED_FACT[sortedBy];
  const hiddenCount = countHidden(columns);
  return (
    <Popover position="bottom-end" shadow="md" width={280} withinPortal>
      <Popover.Target>
        <Button
          size="xs"
          variant="default"
          data-testid="columns-button"
          aria-label={hiddenCount > 0 ? `Columns (${hiddenCount} hidden)` : 'Columns'}
        >
          Columns
          {hiddenCount > 0 && (
            <Text span size="xs" c="dimmed" ml={6}>
              {hiddenCount} hidden
            </Text>
          )}
        </Button>
      </Popover.Target>
      <Popover.Dropdown data-testid="columns-menu" p="xs">
        <Text size="xs" c="dimmed" mb={6}>
          What each session row shows, in this browser.
        </Text>
        <Stack gap={6}>
          <Checkbox size="xs" label="Status" description="always shown" checked disabled readOnly />
          <Checkbox size="xs" label="Title" description="always shown" checked disabled readOnly />
          <Checkbox
            size="xs"
            label={FACT_LABELS.provenance}
            checked={columns.shown.provenance}
            onChange={(e) => onChange(setFactShown(columns, 'provenance', e.currentTarget.checked))}
          />
          {columns.order.map((f, i) => (
            <FactItem
              key={f}
              fact={f}
              columns={columns}
              onChange={onChange}
              first={i === 0}
              last={i === columns.order.length - 1}
              sorted={f === sorted}
            />
          ))}
        </Stack>
        <Group justify="flex-end" mt="xs">
          <Button
            size="compact-xs"
            variant="subtle"
            disabled={isDefaultColumns(columns)}
            onClick={() => onChange(DEFAULT_COLUMNS)}
            data-testid="columns-reset"
          >
            Reset to default
          </Button>
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
}

function FactItem({
  fact,
  columns,
  onChange,
  first,
  last,
  sorted,
}: {
  fact: DetailFact;
  columns: SessionColumns;
  onChange: (next: SessionColumns) => void;
  first: boolean;
  last: boolean;
  /** The list is sorted by this fact: it shows whatever the box says. */
  sorted: boolean;
}) {
  const label = FACT_LABELS[fact];
  const shown = columns.shown[fact];
  return (
    <Group justify="space-between" wrap="nowrap" gap={4} data-fact={fact}>
      <Checkbox
        size="xs"
        label={label}
        description={
          sorted ? (shown ? "the list's order" : 'shown while the list is sorted by it') : undefined
        }
        checked={shown}
        onChange={(e) => onChange(setFactShown(columns, fact, e.currentTarget.checked))}
      />
      <Group gap={2} wrap="nowrap">
        <ActionIcon
          size="sm"
          variant="subtle"
          color="gray"
          aria-label={`Move ${label} earlier`}
          disabled={first}
          onClick={() => onChange(moveFact(columns, fact, -1))}
        >
          ↑
        </ActionIcon>
        <ActionIcon
          size="sm"
          variant="subtle"
          color="gray"
          aria-label={`Move ${label} later`}
          disabled={last}
          onClick={() => onChange(moveFact(columns, fact, 1))}
        >
          ↓
        </ActionIcon>
      </Group>
    </Group>
  );
}
