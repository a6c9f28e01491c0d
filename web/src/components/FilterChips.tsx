/** The active filters as removable chips. */
import { Group, Pill } from '@mantine/core';
import type { FilterChip } from '../lib/search-params.js';

export function FilterChips({
  chips,
  onRemove,
}: {
  chips: FilterChip[];
  onRemove: (key: FilterChip['key']) => void;
}) {
  if (chips.length === 0) return null;
  return (
    <Group gap={6} data-testid="filter-chips">
      {chips.map((c) => (
        <Pill
          key={c.key}
          size="md"
          withRemoveButton
          onRemove={() => onRemove(c.key)}
          // Mantine hides the remove button from keyboards and screen readers; chips must be removable by both.
          removeButtonProps={{ 'aria-label': `Remove filter ${c.label}`, 'aria-hidden': false, tabIndex: 0 }}
          data-testid={`chip-${c.key}`}
          title={`${c.label}: ${c.value}`}
          maw={360}
        >
          {c.label}: {c.value}
        </Pill>
      ))}
    </Group>
  );
}
