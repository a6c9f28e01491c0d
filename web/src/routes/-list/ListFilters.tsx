/**
 * Filter pickers for the list (and the calendar): cwd, model, host and source from the API's
 * facets, and the from/to dates. Each change writes the URL; the chips above show what is active.
 */
import { Button, Collapse, Group, Select, TextInput } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import type { SessionFilters } from '../../lib/search-params.js';
import { facetsQueryOptions, type FacetAttribute } from '../../queries/sessions.js';

const LABELS: Record<FacetAttribute, string> = {
  cwd: 'Directory',
  model: 'Model',
  hostname: 'Host',
  source: 'Source',
};

function FacetSelect({
  attribute,
  value,
  onChange,
}: {
  attribute: FacetAttribute;
  value?: string;
  onChange: (v: string | undefined) => void;
}) {
  const facets = useQuery(facetsQueryOptions(attribute));
  const data = (facets.data?.values ?? []).map((v) => ({
    value: v.value,
    label: `${v.value} (${v.sessions})`,
  }));
  if (value && !data.some((d) => d.value === value)) data.unshift({ value, label: value });
  return (
    <Select
      size="xs"
      placeholder={LABELS[attribute]}
      aria-label={`Filter by ${LABELS[attribute].toLowerCase()}`}
      data-testid={`filter-${attribute}`}
      data={data}
      value={value ?? null}
      onChange={(v) => onChange(v ?? undefined)}
      searchable
      clearable
      nothingFoundMessage={facets.isError ? 'cannot load values' : 'no values'}
      w={attribute === 'cwd' ? 220 : 170}
      maw="100%"
      comboboxProps={{ withinPortal: true }}
    />
  );
}

export function ListFilters({
  filters,
  onChange,
  withDates = true,
}: {
  filters: SessionFilters;
  onChange: (patch: Partial<SessionFilters>) => void;
  withDates?: boolean;
}) {
  // On a phone the pickers fold behind one button; the chips above still show what is active.
  const narrow = useMediaQuery('(max-width: 48em)', undefined, { getInitialValueInEffect: false });
  const [opened, { toggle }] = useDisclosure(false);
  const pickers = (
    <Group gap="xs" data-testid="list-filters">
      {(['cwd', 'model', 'hostname', 'source'] as const).map((a) => (
        <FacetSelect key={a} attribute={a} value={filters[a]} onChange={(v) => onChange({ [a]: v })} />
      ))}
      {withDates && (
        <>
          <TextInput
            size="xs"
            type="date"
            aria-label="From date"
            data-testid="filter-from"
            value={filters.from ?? ''}
            onChange={(e) => onChange({ from: e.currentTarget.value || undefined })}
            w={150}
          />
          <TextInput
            size="xs"
            type="date"
            aria-label="To date"
            data-testid="filter-to"
            value={filters.to ?? ''}
            onChange={(e) => onChange({ to: e.currentTarget.value || undefined })}
            w={150}
          />
        </>
      )}
    </Group>
  );
  if (!narrow) return pickers;
  return (
    <div>
      <Button
        size="compact-xs"
        variant="light"
        color="gray"
        onClick={toggle}
        aria-expanded={opened}
        data-testid="filters-toggle"
      >
        {opened ? 'Hide filters' : 'Filters'}
      </Button>
      <Collapse expanded={opened}>
        <div style={{ paddingTop: 8 }}>{pickers}</div>
      </Collapse>
    </div>
  );
}
