/**
 * Filter pickers for the list (and the calendar): cwd, model, host and source from the API's
 * facets, each counted over the sessions the other active filters select, and the from/to dates.
 * Each change writes the URL; the chips above show what is active.
 */
import { Button, Collapse, Group, Select, Text, TextInput } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { SessionFilters } from '../../lib/search-params.js';
import {
  facetsQueryOptions,
  listQueryParams,
  useProjectCwds,
  type FacetAttribute,
  type SessionListParams,
} from '../../queries/sessions.js';

const LABELS: Record<FacetAttribute, string> = {
  cwd: 'Directory',
  model: 'Model',
  hostname: 'Host',
  source: 'Source',
  agent: 'Agent',
};

/**
 * The dropdown of the list's pickers (these and the tag facet): as wide as its longest value (a
 * full model id or directory), not the field; its options rendered only while it is open, since
 * Mantine keeps a closed list mounted, drawn again with the page, and a directory picker can
 * hold hundreds.
 */
export const PICKER_DROPDOWN = {
  withinPortal: true,
  width: 'max-content',
  position: 'bottom-start',
  keepMounted: false,
} as const;

function FacetSelect({
  attribute,
  value,
  counted,
  onChange,
}: {
  attribute: FacetAttribute;
  value?: string;
  /** The list's filters the counts are over, without this picker's own (Datasette's faceting). */
  counted: SessionListParams;
  onChange: (v: string | undefined) => void;
}) {
  // The previous values stay while the next filters' counts load, so the picker does not blank.
  const facets = useQuery({ ...facetsQueryOptions(attribute, counted), placeholderData: keepPreviousData });
  const data = (facets.data?.values ?? []).map((v) => ({
    value: v.value,
    label: `${v.value} (${v.sessions})`,
  }));
  // A value from the URL that no session has: kept (the chip shows it), and said so here.
  const unknown = Boolean(
    value && facets.data && !facets.isPlaceholderData && !data.some((d) => d.value === value),
  );
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
      error={
        unknown
          ? `no session${Object.keys(counted).length > 0 ? ' with the other filters' : ''} has this ${LABELS[attribute].toLowerCase()}`
          : undefined
      }
      w={attribute === 'cwd' ? 220 : 170}
      maw="100%"
      comboboxProps={PICKER_DROPDOWN}
    />
  );
}

/** `2025-09-01`: a real calendar day written the ISO way. */
export function isIsoDay(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const ms = Date.parse(`${s}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === s;
}

/**
 * The from/to pickers. A range that would end before it starts is not applied (the API refuses
 * it): the picker keeps what was typed and says why, and each picker bounds the other.
 */
function DateRange({
  from,
  to,
  onChange,
}: {
  from?: string;
  to?: string;
  onChange: (patch: Partial<SessionFilters>) => void;
}) {
  const [typed, setTyped] = useState<{ from?: string; to?: string } | null>(null);
  // The pair last written to the URL. The router renders it a moment after the URL changes, so
  // a second date can be typed before the first comes back: that echo must not wipe it.
  const sent = useRef<{ from?: string; to?: string } | null>(null);
  useEffect(() => {
    const echo = sent.current !== null && sent.current.from === from && sent.current.to === to;
    sent.current = null;
    // What the URL says wins again once something else changes it (a chip removed, Back).
    if (!echo) setTyped(null);
  }, [from, to]);
  const shownFrom = typed?.from ?? from ?? '';
  const shownTo = typed?.to ?? to ?? '';
  const set = (which: 'from' | 'to', value: string) => {
    const next = { from: shownFrom || undefined, to: shownTo || undefined, [which]: value || undefined };
    setTyped({ from: next.from ?? '', to: next.to ?? '' });
    // Half-typed or not a day: kept in the field, not applied (its error says the form).
    if ((next.from && !isIsoDay(next.from)) || (next.to && !isIsoDay(next.to))) return;
    if (next.from && next.to && next.from > next.to) return;
    // A valid pair applies whole: a date held back as inverted goes in once the other makes it valid.
    sent.current = next;
    onChange(next);
  };
  const inverted = Boolean(shownFrom && shownTo && shownFrom > shownTo);
  const shown = { from: shownFrom, to: shownTo };
  return (
    <>
      {/* The pair wraps as one: "From" never ends a line with its "To" below it. */}
      <Group gap="xs" wrap="nowrap">
        {(['from', 'to'] as const).map((which) => (
          <TextInput
            key={which}
            size="xs"
            // ISO, as every date in the UI reads (a native date field shows the browser's locale).
            type="text"
            inputMode="numeric"
            placeholder="YYYY-MM-DD"
            maxLength={10}
            leftSection={
              <Text size="xs" c="dimmed" component="span">
                {which === 'from' ? 'From' : 'To'}
              </Text>
            }
            leftSectionWidth={40}
            leftSectionPointerEvents="none"
            aria-label={which === 'from' ? 'From date' : 'To date'}
            title="A UTC day, YYYY-MM-DD"
            data-testid={`filter-${which}`}
            value={shown[which]}
            onChange={(e) => set(which, e.currentTarget.value)}
            w={150}
            error={inverted || (shown[which] !== '' && !isIsoDay(shown[which]))}
          />
        ))}
      </Group>
      {inverted && (
        <Text size="xs" c="red.4" data-testid="date-range-problem" role="alert">
          “To” ({shownTo}) is before “From” ({shownFrom}): not applied.
        </Text>
      )}
    </>
  );
}

export function ListFilters({
  filters,
  text,
  idPrefix,
  onChange,
  withDates = true,
}: {
  filters: SessionFilters;
  /** The list's free-text and id-prefix filters, which narrow the pickers' counts too. */
  text?: string;
  idPrefix?: string;
  onChange: (patch: Partial<SessionFilters>) => void;
  withDates?: boolean;
}) {
  // Each picker counts over what the list shows: its filters as the API is asked them (a project
  // resolved as the page resolves it). The API ignores a picker's own filter anyway; leaving it out
  // here too keeps the picker's query, and its cached counts, the same when its own value changes.
  const asked = listQueryParams({ ...filters, text, idPrefix }, useProjectCwds(filters.project));
  const countedFor = (a: FacetAttribute): SessionListParams => {
    const { [a]: _own, ...others } = asked;
    return others;
  };
  // On a phone the pickers fold behind one button; the chips above still show what is active.
  const narrow = useMediaQuery('(max-width: 48em)', undefined, { getInitialValueInEffect: false });
  const [opened, { toggle }] = useDisclosure(false);
  const pickers = (
    <Group gap="xs" data-testid="list-filters">
      {(['cwd', 'model', 'hostname', 'source', 'agent'] as const).map((a) => (
        <FacetSelect
          key={a}
          attribute={a}
          value={filters[a]}
          counted={countedFor(a)}
          onChange={(v) => onChange({ [a]: v })}
        />
      ))}
      {withDates && <DateRange from={filters.from} to={filters.to} onChange={onChange} />}
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
