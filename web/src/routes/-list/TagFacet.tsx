/**
 * The tag facet of the list: every tag with how many of the sessions the other filters select
 * carry it (`GET /api/tags`), as a picker of several. Each tag picked narrows the list to sessions
 * that carry all of them (the URL's `tag`, the omnibox's `tag:`); the chips above show them too.
 */
import { MultiSelect } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { tagFacetQueryOptions, type SessionListParams } from '../../queries/sessions.js';
import { PICKER_DROPDOWN } from './ListFilters.js';

export function TagFacet({
  tags,
  counted,
  onChange,
}: {
  tags: string[];
  /** The list's other filters, which the counts are over. */
  counted: SessionListParams;
  onChange: (tags: string[]) => void;
}) {
  // The previous counts stay while the next filters' load, so the picker does not blank.
  const facet = useQuery({ ...tagFacetQueryOptions(counted), placeholderData: keepPreviousData });
  const values = facet.data?.tags ?? [];
  // A tag that only the URL names (no session carries it) stays pickable, so it can be removed.
  const data = [
    ...values.map((t) => ({ value: t.value, label: `${t.value} (${t.sessions})` })),
    ...tags.filter((t) => !values.some((v) => v.value === t)).map((t) => ({ value: t, label: `${t} (0)` })),
  ];
  if (data.length === 0 && !facet.isError) return null;
  return (
    <MultiSelect
      size="xs"
      placeholder={tags.length ? undefined : 'Tags'}
      aria-label="Filter by tags (every one must match)"
      data-testid="filter-tags"
      data={data}
      value={tags}
      onChange={onChange}
      searchable
      clearable
      hidePickedOptions
      nothingFoundMessage={facet.isError ? 'cannot load tags' : 'no tags'}
      w={220}
      maw="100%"
      comboboxProps={PICKER_DROPDOWN}
    />
  );
}
