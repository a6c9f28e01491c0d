/**
 * The omnibox in the header: free text, `project:`/`host:`/`model:`/`source:` operators, date
 * phrases, an id prefix, `>` commands. Enter filters the list, Shift+Enter searches, Ctrl/⌘+K
 * focuses. The dropdown offers the values an operator being typed can take (with their session
 * counts), says what Enter will do, previews search hits (naming terms search leaves out), and
 * offers recent searches and saved filters (or a hint when search is off).
 */
import { Combobox, Group, Kbd, Loader, Text, TextInput, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { isSearchable } from '../../../../src/core/searchable.js';
import { HighlightedSnippet } from '../../components/HighlightedText.js';
import { IgnoredTerms } from '../../components/IgnoredTerms.js';
import { projectFacets, resolveOmniboxFilters, type FacetLists } from '../../lib/facet-match.js';
import { formatCount } from '../../lib/format.js';
import {
  matchValues,
  operatorAtEnd,
  withFilterValue,
  withValue,
  type ValueOperator,
} from '../../lib/omnibox-values.js';
import {
  commandHelp,
  isEmptyQuery,
  parseOmnibox,
  type OmniboxParse,
  type OmniboxQuery,
} from '../../lib/omnibox-grammar.js';
import { pickFilters, type SessionFilters } from '../../lib/search-params.js';
import { blueprintQueryOptions } from '../../queries/blueprint.js';
import { searchQueryOptions } from '../../queries/search.js';
import { facetsQueryOptions, idPrefixQueryOptions } from '../../queries/sessions.js';
import { useShortcuts } from './Shortcuts.js';
import { facetsNeeded, useOmniboxActions } from './use-omnibox-actions.js';
import { useRecentSearches, useSavedFilters } from './use-saved-items.js';

function describeQuery(q: OmniboxQuery, notes: string[]): string {
  const parts: string[] = [];
  const f = q.filters;
  if (f.project) parts.push(`project ${f.project}`);
  if (f.cwd) parts.push(`cwd ${f.cwd}`);
  if (f.model) parts.push(`model ${f.model}`);
  if (f.hostname) parts.push(`host ${f.hostname}`);
  if (f.source) parts.push(`source ${f.source}`);
  if (q.dates.length) parts.push(q.dates.join(', '));
  if (q.idPrefix) parts.push(`id ${q.idPrefix}…`);
  if (q.text) parts.push(`text “${q.text}”`);
  return parts.join(' · ') + (notes.length ? ` (${notes.join('; ')})` : '');
}

export function Omnibox() {
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const inputRef = useRef<HTMLInputElement>(null);
  const { registerOmnibox } = useShortcuts();
  const actions = useOmniboxActions();
  const navigate = useNavigate();
  const [recent, addRecent] = useRecentSearches();
  const [saved] = useSavedFilters();
  const blueprint = useQuery(blueprintQueryOptions());

  useEffect(() => registerOmnibox(inputRef.current), [registerOmnibox]);

  const parse: OmniboxParse = useMemo(() => parseOmnibox(value, Date.now()), [value]);
  const query = parse.kind === 'query' ? parse : null;

  // Facet values to show how operators resolve, fetched only for operators typed.
  const needed = query ? facetsNeeded(query.filters) : [];
  const facetResults = useQueries({ queries: needed.map((a) => facetsQueryOptions(a)) });
  const facets: FacetLists = {};
  needed.forEach((a, i) => {
    const data = facetResults[i]?.data;
    if (data) facets[a] = data.values;
  });
  // Enter filters the list and the preview is a search, with the same resolved operators (a
  // project is its exact name: every directory so named, on both).
  const resolution = query ? resolveOmniboxFilters(query.filters, facets) : null;
  const notes = resolution?.notes ?? [];
  const unresolved = resolution?.problems ?? [];
  const ambiguous = resolution?.ambiguous ?? [];
  // A project no directory matches, or a value that matches several, is not applied: the Enter
  // line leaves it out (the problem line says why, and the dropdown asks which one).
  const dropped = new Set<string>(ambiguous.map((a) => a.key));
  if (query?.filters.project && resolution && resolution.filters.project === undefined && !query.filters.cwd)
    dropped.add('project');
  const applied =
    query && dropped.size > 0
      ? {
          ...query,
          filters: Object.fromEntries(
            Object.entries(query.filters).filter(([k]) => !dropped.has(k)),
          ) as OmniboxQuery['filters'],
        }
      : query;
  const facetsSettled = facetResults.every((r) => !r.isPending);

  // The operator whose value is being typed (`cwd:`, `model:op`): its facet values that contain
  // what is typed, with their session counts, to pick from (a project: the directories' names).
  const valueAt = parse.kind === 'query' ? operatorAtEnd(value) : null;
  const valueFacets = useQuery({
    ...facetsQueryOptions(valueAt === null || valueAt.key === 'project' ? 'cwd' : valueAt.key),
    enabled: valueAt !== null,
  });
  const valueChoices =
    valueAt && valueFacets.data
      ? matchValues(
          valueAt.partial,
          valueAt.key === 'project' ? projectFacets(valueFacets.data.values) : valueFacets.data.values,
        )
      : [];

  // The preview asks exactly what Shift+Enter's search page will: the words and the resolved
  // operators (so `docker model:sonnet` counts the same hits), once the facets have answered.
  const previewKey = JSON.stringify({
    q: query?.text ?? '',
    ...pickFilters({ ...resolution?.filters }),
  });
  const [debouncedKey] = useDebouncedValue(previewKey, 250);
  const previewParams = JSON.parse(debouncedKey) as { q: string } & SessionFilters;
  const searchOff = blueprint.data?.system.search?.enabled === false;
  const preview = useQuery({
    ...searchQueryOptions({ ...previewParams, limit: 5 }),
    enabled: previewParams.q.trim().length >= 2 && !searchOff && facetsSettled,
  });
  const idMatches = useQuery({
    ...idPrefixQueryOptions(query?.idPrefix ?? '', 5),
    enabled: Boolean(query?.idPrefix),
  });
  const searchReason = searchOff
    ? 'Search is off on this instance.'
    : preview.data && !preview.data.enabled
      ? (preview.data.reason ?? 'Search is off on this instance.')
      : null;

  const run = async (fn: () => Promise<string | null>) => {
    const submitted = inputRef.current?.value ?? value;
    setBusy(true);
    try {
      const p = await fn();
      // Typing may have gone on while the page loaded: leave newer input alone.
      if ((inputRef.current?.value ?? '') !== submitted) return;
      if (p) {
        setProblem(p);
        combobox.openDropdown();
      } else {
        combobox.closeDropdown();
        setProblem(null);
        setValue('');
        inputRef.current?.blur();
      }
    } finally {
      setBusy(false);
    }
  };

  const submit = (shift: boolean) => {
    // Parse what the input holds now: a paste followed at once by Enter can beat the re-render.
    const p = parseOmnibox(inputRef.current?.value ?? value, Date.now());
    if (p.kind === 'command') return run(() => actions.runCommand(p));
    if (shift) return run(() => actions.search(p));
    if (isEmptyQuery(p)) return run(async () => (await navigate({ to: '/' }), null));
    return run(() => actions.filterList(p));
  };

  const onOption = (val: string) => {
    const [kind, ...rest] = val.split(':');
    const arg = rest.join(':');
    if (kind === 'filter') void submit(false);
    else if (kind === 'search') void submit(true);
    else if (kind === 'value') {
      const at = operatorAtEnd(inputRef.current?.value ?? value);
      if (at) setValue(withValue(inputRef.current?.value ?? value, at, arg));
      inputRef.current?.focus();
    } else if (kind === 'pick') {
      // The answer to "which one?": that operator's value becomes the picked one, where it stands.
      const [key, ...picked] = arg.split(':');
      setValue(withFilterValue(inputRef.current?.value ?? value, key as ValueOperator, picked.join(':')));
      setProblem(null);
      inputRef.current?.focus();
    } else if (kind === 'cmd') {
      const next = `>${arg} `;
      setValue(next);
      const p = parseOmnibox(next, Date.now());
      if (p.kind === 'command' && p.problems.length === 0) void run(() => actions.runCommand(p));
      else inputRef.current?.focus();
    } else if (kind === 'open')
      void run(async () => (await navigate({ to: '/sessions/$id', params: { id: arg } }), null));
    else if (kind === 'hit') {
      const hit = preview.data?.hits[Number(arg)];
      if (hit) {
        addRecent(previewParams.q);
        void run(async () => {
          await navigate({
            to: '/sessions/$id',
            params: { id: hit.sessionId },
            // A session's note belongs to no entry: its hit opens the session.
            search:
              hit.kind === 'note'
                ? { q: previewParams.q }
                : {
                    entry: hit.index,
                    q: previewParams.q,
                    file: hit.file === 'transcript.jsonl' ? undefined : hit.file,
                  },
          });
          return null;
        });
      }
    } else if (kind === 'recent') {
      const p = parseOmnibox(arg, Date.now());
      if (p.kind === 'query') void run(() => actions.search(p));
    } else if (kind === 'saved') {
      const p = parseOmnibox(arg, Date.now());
      if (p.kind === 'query') void run(() => actions.filterList(p));
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter' && !e.nativeEvent.isComposing && combobox.getSelectedOptionIndex() === -1) {
      e.preventDefault();
      void submit(e.shiftKey);
    }
    if (e.key === 'Escape') inputRef.current?.blur();
  };

  const empty = value.trim() === '';
  const options: ReactNode[] = [];
  if (parse.kind === 'command') {
    for (const name of parse.suggestions)
      options.push(
        <Combobox.Option value={`cmd:${name}`} key={`cmd-${name}`}>
          <Text size="sm">
            <b>&gt;{name}</b>{' '}
            <Text span c="dimmed" size="xs">
              {commandHelp[name]}
            </Text>
          </Text>
        </Combobox.Option>,
      );
  } else if (!empty && query) {
    if (query.idPrefix && query.text === '' && Object.keys(query.filters).length === 0) {
      for (const s of idMatches.data?.sessions ?? [])
        options.push(
          <Combobox.Option value={`open:${s.id}`} key={`open-${s.id}`}>
            <Text size="sm" truncate>
              Open <b>{s.id}</b>{' '}
              <Text span c="dimmed" size="xs">
                {s.title ?? ''}
              </Text>
            </Text>
          </Combobox.Option>,
        );
    }
    options.push(
      <Combobox.Option value="filter:" key="filter">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text size="sm" truncate>
            Filter sessions: {describeQuery(applied ?? query, notes) || 'all'}
          </Text>
          <Kbd size="xs">Enter</Kbd>
        </Group>
      </Combobox.Option>,
    );
    if (query.text)
      options.push(
        <Combobox.Option value="search:" key="search">
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Text size="sm" truncate>
              Search transcripts for “{query.text}”
            </Text>
            <Kbd size="xs">Shift+Enter</Kbd>
          </Group>
        </Combobox.Option>,
      );
  }

  const previewShown = !searchReason && parse.kind === 'query' && !empty;
  const hits = previewShown ? (preview.data?.hits ?? []) : [];
  const ignored = previewShown ? (preview.data?.ignored ?? []) : [];
  const recentShown = recent
    .filter((r) => empty || r.toLowerCase().includes(value.trim().toLowerCase()))
    .slice(0, 5);
  const savedShown = saved
    .filter((s) => empty || `${s.name} ${s.query}`.toLowerCase().includes(value.trim().toLowerCase()))
    .slice(0, 5);

  return (
    <Combobox
      store={combobox}
      onOptionSubmit={onOption}
      withinPortal
      position="bottom-start"
      width="target"
      zIndex={300}
    >
      <Combobox.Target>
        <TextInput
          ref={inputRef}
          value={value}
          aria-label="Omnibox: filter, search, jump to a session or type > for commands"
          data-testid="omnibox"
          placeholder="Filter, search, id or >command  (Ctrl+K)"
          size="sm"
          w="100%"
          rightSection={busy ? <Loader size={14} /> : null}
          onChange={(e) => {
            setValue(e.currentTarget.value);
            setProblem(null);
            combobox.openDropdown();
            combobox.resetSelectedOption();
          }}
          onFocus={() => combobox.openDropdown()}
          onClick={() => combobox.openDropdown()}
          onBlur={() => combobox.closeDropdown()}
          onKeyDown={onKeyDown}
        />
      </Combobox.Target>
      <Combobox.Dropdown data-testid="omnibox-dropdown">
        <Combobox.Options mah={420} style={{ overflowY: 'auto' }}>
          {problem && !parse.problems.includes(problem) && problem !== unresolved.join('; ') && (
            <Text size="sm" c="red.4" px="xs" py={4} data-testid="omnibox-problem">
              {problem}
            </Text>
          )}
          {[...parse.problems, ...unresolved].map((p) => (
            <Text key={p} size="xs" c="yellow.4" px="xs" py={2} data-testid="omnibox-problem">
              {p}
            </Text>
          ))}
          {valueAt && valueChoices.length > 0 && (
            <Combobox.Group label={`Values for ${valueAt.op}: (sessions)`} data-testid="omnibox-values">
              {valueChoices.map((v) => (
                <Combobox.Option
                  value={`value:${v.value}`}
                  key={`value-${v.value}`}
                  data-testid="omnibox-value"
                >
                  <Group justify="space-between" wrap="nowrap" gap="xs">
                    <Text size="sm" truncate data-testid="omnibox-value-name">
                      {v.value}
                    </Text>
                    <Text size="xs" c="dimmed" data-testid="omnibox-value-count">
                      {formatCount(v.sessions)}
                    </Text>
                  </Group>
                </Combobox.Option>
              ))}
            </Combobox.Group>
          )}
          {ambiguous
            .filter((a) => valueAt?.key !== a.key)
            .map((a) => (
              <Combobox.Group
                key={`which-${a.key}`}
                label={`Which one? ${a.key === 'hostname' ? 'host' : a.key}:${a.typed} matches ${a.candidates.length} (sessions)`}
                data-testid="omnibox-which"
              >
                {a.candidates.slice(0, 8).map((c) => (
                  <Combobox.Option
                    value={`pick:${a.key}:${c.value}`}
                    key={`pick-${a.key}-${c.value}`}
                    data-testid="omnibox-candidate"
                  >
                    <Group justify="space-between" wrap="nowrap" gap="xs">
                      <Text size="sm" truncate data-testid="omnibox-candidate-name">
                        {c.value}
                      </Text>
                      <Text size="xs" c="dimmed" data-testid="omnibox-candidate-count">
                        {formatCount(c.sessions)}
                      </Text>
                    </Group>
                  </Combobox.Option>
                ))}
              </Combobox.Group>
            ))}
          {options.length > 0 && (
            <Combobox.Group label={parse.kind === 'command' ? 'Commands' : 'Enter'}>{options}</Combobox.Group>
          )}
          <IgnoredTerms terms={ignored} all={!isSearchable(preview.data?.q ?? '')} compact />
          {hits.length > 0 && (
            <Combobox.Group
              label={`Search hits (${preview.data?.total ?? hits.length}${preview.data?.totalExact === false ? '+' : ''})`}
            >
              {hits.map((h, i) => (
                <Combobox.Option value={`hit:${i}`} key={`hit-${h.kind}-${h.sessionId}-${h.file}-${h.index}`}>
                  <Text size="xs" c="dimmed" truncate>
                    {h.session?.title ?? h.sessionId} · {h.session?.project ?? ''}
                    {h.kind === 'note' ? ' · session note' : h.kind === 'bookmark' ? ' · bookmark note' : ''}
                  </Text>
                  <Text size="sm" lineClamp={2}>
                    <HighlightedSnippet snippet={h.snippet} />
                  </Text>
                </Combobox.Option>
              ))}
            </Combobox.Group>
          )}
          {searchReason && parse.kind === 'query' && (
            <Text size="xs" c="dimmed" px="xs" py={4} data-testid="search-off-hint">
              {searchReason}
            </Text>
          )}
          {parse.kind === 'query' && recentShown.length > 0 && (
            <Combobox.Group label="Recent searches">
              {recentShown.map((r) => (
                <Combobox.Option value={`recent:${r}`} key={`recent-${r}`}>
                  <Text size="sm" truncate>
                    {r}
                  </Text>
                </Combobox.Option>
              ))}
            </Combobox.Group>
          )}
          {parse.kind === 'query' && savedShown.length > 0 && (
            <Combobox.Group label="Saved filters">
              {savedShown.map((s) => (
                <Combobox.Option value={`saved:${s.query}`} key={`saved-${s.query}`}>
                  <Text size="sm" truncate>
                    {s.name}
                    {s.name !== s.query && (
                      <Text span size="xs" c="dimmed">
                        {' '}
                        {s.query}
                      </Text>
                    )}
                  </Text>
                </Combobox.Option>
              ))}
            </Combobox.Group>
          )}
          {empty && parse.kind === 'query' && (
            <Text size="xs" c="dimmed" px="xs" py={6}>
              Try <b>model:opus last week</b>, <b>project:api since 2026-03</b>, an id such as <b>5c0375b4</b>
              , or <b>&gt;</b> for commands.
            </Text>
          )}
        </Combobox.Options>
        <Combobox.Footer>
          <Text size="xs" c="dimmed">
            Enter filters the list · Shift+Enter searches · ? shortcuts
          </Text>
        </Combobox.Footer>
      </Combobox.Dropdown>
    </Combobox>
  );
}
