/**
 * Search results (`/app/search?q=`): full-text hits with highlighted snippets and their session,
 * the session filters as chips and pickers, paging; each hit opens its session at the entry with
 * `?q=` so the terms stay highlighted there.
 */
import { Alert, Badge, Group, Loader, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, createFileRoute } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { AnchorLink } from '../components/AnchorLink.js';
import { useListCursor } from '../components/use-list-cursor.js';
import { FilterChips } from '../components/FilterChips.js';
import { HighlightedSnippet, HighlightedText } from '../components/HighlightedText.js';
import { IgnoredTerms } from '../components/IgnoredTerms.js';
import { Pager } from '../components/Pager.js';
import { PastLastPage } from '../components/PastLastPage.js';
import { isSearchable } from '../../../src/core/searchable.js';
import { formatCount, formatTimestamp } from '../lib/format.js';
import {
  filterChips,
  pickFilters,
  SEARCH_PAGE_SIZE,
  searchPageSearchSchema,
  type SearchPageSearch,
  type SessionFilters,
} from '../lib/search-params.js';
import { TokenForm } from '../components/TokenForm.js';
import { describeError, isUnauthorized, type SearchHit } from '../queries/api.js';
import { searchQueryOptions } from '../queries/search.js';
import { apiFilters, projectCwds, useProjectCwds } from '../queries/sessions.js';
import { ListFilters } from './-list/ListFilters.js';
import { ProjectDirs } from './-list/ProjectDirs.js';
import { usePageKeys } from './-root/Shortcuts.js';
import { useRecentSearches } from './-root/use-saved-items.js';
import { usePageTitle } from '../lib/page-title.js';

const PAGE = SEARCH_PAGE_SIZE;

export const Route = createFileRoute('/search')({
  validateSearch: searchPageSearchSchema,
  loaderDeps: ({ search }) => ({ q: search.q, offset: search.offset ?? 0, filters: pickFilters(search) }),
  loader: async ({ context: { queryClient }, deps }) => {
    if (!deps.q) return;
    const cwds = await projectCwds(queryClient, deps.filters.project);
    await queryClient.ensureQueryData(
      searchQueryOptions({ q: deps.q, ...apiFilters(deps.filters, cwds), limit: PAGE, offset: deps.offset }),
    );
  },
  component: SearchPage,
});

/** The reader's colours: You blue, Claude orange, a malformed line red, anything else grey. */
function kindColor(kind: string): string {
  return kind === 'You' ? 'blue' : kind === 'Claude' ? 'orange' : kind === 'malformed line' ? 'red' : 'gray';
}

/** Where a hit is: an entry (a bookmark's note is on one), or a session's note. */
function hitPlace(hit: SearchHit): string {
  if (hit.kind === 'note') return 'note on the session';
  const at = `#${hit.index}${hit.file !== 'transcript.jsonl' ? ` in ${hit.file}` : ''}`;
  return hit.kind === 'bookmark' ? `bookmark note on ${at}` : at;
}

function Hit({ hit, q }: { hit: SearchHit; q: string }) {
  return (
    <Link
      to="/sessions/$id"
      params={{ id: hit.sessionId }}
      search={
        hit.kind === 'note'
          ? { q, view: 'both' }
          : {
              entry: hit.index,
              q,
              file: hit.file === 'transcript.jsonl' ? undefined : hit.file,
              view: 'both',
            }
      }
      style={{ textDecoration: 'none', color: 'inherit', display: 'block' }}
      data-testid="search-hit"
      data-kind={hit.kind}
    >
      <Paper withBorder p="xs" className="ct-row">
        <Group gap="xs" justify="space-between" wrap="nowrap">
          <Text size="sm" fw={600} truncate>
            {hit.session?.title != null ? (
              <HighlightedText text={hit.session.title} re={null} />
            ) : (
              hit.sessionId
            )}
          </Text>
          <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
            {hit.session?.project ?? ''}
          </Text>
        </Group>
        <Group gap={6} mt={2}>
          {/* Named as the reader names the entry (`entryKind` on the server): You, Claude, or a badge. */}
          <Badge
            size="xs"
            variant="light"
            tt="none"
            color={hit.kind === 'entry' ? kindColor(hit.entryKind ?? hit.role) : 'yellow'}
            data-testid="search-hit-kind"
          >
            {hit.kind === 'entry'
              ? (hit.entryKind ?? hit.role)
              : hit.kind === 'note'
                ? 'note'
                : 'bookmark note'}
          </Badge>
          <Text size="xs" c="dimmed">
            {hitPlace(hit)} · {formatTimestamp(hit.timestamp)}
          </Text>
        </Group>
        <Text size="sm" mt={4} className="ct-text" lineClamp={4}>
          <HighlightedSnippet snippet={hit.snippet} />
        </Text>
      </Paper>
    </Link>
  );
}

function SearchPage() {
  const search = Route.useSearch();
  usePageTitle(search.q ? `Search: ${search.q}` : 'Search');
  const navigate = Route.useNavigate();
  const [text, setText] = useState(search.q ?? '');
  useEffect(() => setText(search.q ?? ''), [search.q]);
  const [, addRecent] = useRecentSearches();
  const offset = search.offset ?? 0;
  const filters = pickFilters(search);
  // A project is every directory so named: one filter the API takes (`project`), as the list's.
  const cwds = useProjectCwds(search.project);
  const result = useQuery({
    ...searchQueryOptions({ q: search.q ?? '', ...apiFilters(filters, cwds), limit: PAGE, offset }),
    enabled: Boolean(search.q),
  });
  const set = (patch: Partial<SearchPageSearch>) =>
    navigate({ search: (old: SearchPageSearch) => ({ ...old, ...patch }) });
  const step = useListCursor({ items: '[data-testid="search-hit"]' });
  usePageKeys({ j: () => step(1), k: () => step(-1) });
  const data = result.data;
  // Past a lower-bound total ("5,000+") one more page is offered; reaching it widens the window.
  const pages = data ? Math.ceil(data.total / PAGE) + (data.totalExact ? 0 : 1) : 0;
  const lastPage = Math.max(1, data ? Math.ceil(data.total / PAGE) : 1);
  // No letter or digit anywhere in the query: every term was left out, so there was no search.
  const nothingSearched = Boolean(data && data.ignored.length > 0 && !isSearchable(data.q));

  return (
    <Stack gap="sm" p="sm" maw={1200} mx="auto" data-testid="search-page">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const q = text.trim();
          if (q) addRecent(q);
          void set({ q: q || undefined, offset: undefined });
        }}
      >
        <TextInput
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          placeholder='Search transcripts: words, "exact phrases", prefix*'
          aria-label="Search transcripts"
          data-testid="search-input"
        />
      </form>
      <FilterChips
        chips={filterChips(filters)}
        onRemove={(key) => set({ [key]: undefined, offset: undefined })}
      />
      <ProjectDirs project={search.project} cwds={cwds} />
      <ListFilters
        filters={filters}
        onChange={(patch: Partial<SessionFilters>) => set({ ...patch, offset: undefined })}
      />
      {!search.q ? (
        <Text size="sm" c="dimmed">
          Type words to search every transcript. Use <b>"quotes"</b> for a phrase and <b>prefix*</b> for word
          starts.
        </Text>
      ) : result.isError ? (
        <Alert color="red" title={describeError(result.error).title} data-testid="search-error">
          {describeError(result.error).message}
          {isUnauthorized(result.error) && <TokenForm onSaved={() => void result.refetch()} />}
        </Alert>
      ) : !data ? (
        <Loader size="sm" />
      ) : !data.enabled ? (
        <Alert color="yellow" title="Search is off" data-testid="search-off">
          {data.reason ?? 'The full-text index is not available on this instance.'}
        </Alert>
      ) : nothingSearched ? (
        <IgnoredTerms terms={data.ignored} all />
      ) : data.total === 0 ? (
        <>
          <IgnoredTerms terms={data.ignored} />
          <Alert color="gray" variant="light" title="No matches" data-testid="search-empty">
            No transcript entry matches “{search.q}”{Object.keys(filters).length ? ' with these filters' : ''}
            .
          </Alert>
        </>
      ) : (
        <>
          <IgnoredTerms terms={data.ignored} />
          {data.stale && (
            <Alert color="yellow" variant="light" data-testid="search-stale">
              Search is behind: some entries are not indexed as they are yet (an import wrote them, or an
              earlier version indexed them). An import brings it up to date when it finishes; the server
              rebuilds the index by itself after an upgrade, and for an import that stopped before it finished
              (ten minutes after its last write); <code>transcripts reindex</code> does it now.
            </Alert>
          )}
          <Text size="sm" c="dimmed" data-testid="search-total">
            {formatCount(data.total)}
            {data.totalExact ? '' : '+'} matching entr{data.total === 1 && data.totalExact ? 'y' : 'ies'}
            {result.isFetching ? ' …' : ''}
          </Text>
          {data.hits.length === 0 && offset > 0 && (
            <PastLastPage
              list="search"
              lastPage={lastPage}
              pageSize={PAGE}
              pageLink={(to, label, testId) => (
                <AnchorLink
                  to="/search"
                  size="sm"
                  search={(old: SearchPageSearch) => ({ ...old, offset: to })}
                  data-testid={testId}
                >
                  {label}
                </AnchorLink>
              )}
            >
              This page starts at result {formatCount(offset + 1)}, but the search has{' '}
              {formatCount(data.total)}
              {data.totalExact ? '' : '+'} matches ({formatCount(lastPage)} page{lastPage === 1 ? '' : 's'} of{' '}
              {PAGE}).
            </PastLastPage>
          )}
          <Stack gap={6}>
            {data.hits.map((h) => (
              <Hit key={`${h.kind}:${h.sessionId}:${h.file}:${h.index}`} hit={h} q={search.q!} />
            ))}
          </Stack>
          <Pager
            pages={pages}
            offset={offset}
            pageSize={PAGE}
            onChange={(o) => void set({ offset: o })}
            testId="search-pagination"
          />
        </>
      )}
    </Stack>
  );
}
