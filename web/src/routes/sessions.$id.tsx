/**
 * A session (`/app/sessions/{id}`): all its metadata, then the transcript viewer — the three-way
 * toggle `Both` / `You` / `Claude`; `Both` shows the conversation reader or the raw reader over
 * the same paged entries; `?entry=` (and `?q=` from search) opens at an entry with the terms
 * highlighted. The view state lives in the URL and falls back to defaults when invalid.
 */
import { Alert, Box, Button, Group, Pill, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { AnchorLink } from '../components/AnchorLink.js';
import { createFileRoute, type ErrorComponentProps } from '@tanstack/react-router';
import type { Virtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { AnnotationPanel } from '../components/AnnotationPanel.js';
import { entryOfRow, toggleBookmark } from '../components/bookmark-entry.js';
import { ErrorPanel } from '../components/ErrorPanel.js';
import { SpeakerToggle } from '../components/SpeakerToggle.js';
import { settleScroll, stickyBottom } from '../components/settle-scroll.js';
import type { SubagentFileHead } from '../lib/entry-groups.js';
import { formatCountOf } from '../lib/format.js';
import { searchTerms, termsRegExp } from '../lib/highlight.js';
import { sessionSearchSchema, type SessionSearch } from '../lib/search-params.js';
import { ApiError, describeError, type Session } from '../queries/api.js';
import { blueprintQueryOptions, defaultBlueprint } from '../queries/blueprint.js';
import { sessionQueryOptions } from '../queries/sessions.js';
import { subagentHeadsQueryOptions } from '../queries/transcript.js';
import { ConversationReader, MAIN_FILE, STICKY_OFFSET } from './-session/ConversationReader.js';
import { EarlierEntries, LoadStatus } from './-session/LoadStatus.js';
import { RawReader } from './-session/RawReader.js';
import { SessionActions } from './-session/SessionActions.js';
import { SessionDetails } from './-session/SessionDetails.js';
import { TurnsList } from './-session/TurnsList.js';
import { useTranscript } from './-session/use-transcript.js';
import { usePageKeys } from './-root/Shortcuts.js';
import { usePageTitle } from '../lib/page-title.js';

export const Route = createFileRoute('/sessions/$id')({
  validateSearch: sessionSearchSchema,
  loader: async ({ context: { queryClient }, params }) => {
    await Promise.all([
      queryClient.ensureQueryData(sessionQueryOptions(params.id)),
      queryClient.ensureQueryData(blueprintQueryOptions()).catch(() => defaultBlueprint),
    ]);
  },
  component: SessionPage,
  errorComponent: SessionError,
});

function SessionError(props: ErrorComponentProps) {
  const { id } = Route.useParams();
  // The id is all the page asks with: a 400 is the API refusing it as an id (`✓`), so no session
  // has it either — said as such, not as a failure to retry.
  const status = props.error instanceof ApiError ? props.error.status : undefined;
  if (status === 404 || status === 400)
    return (
      <Stack p="md" maw={760} data-testid="session-not-found">
        <Alert color="yellow" title="Session not found" variant="light">
          <Text size="sm">
            No session has the id <b>{id}</b>
            {status === 400 ? ', which is not a valid session id' : ''}.
          </Text>
          <AnchorLink to="/" size="sm">
            Back to all sessions
          </AnchorLink>
        </Alert>
      </Stack>
    );
  return <ErrorPanel {...props} />;
}

/** The file the readers show: the one asked for if the session has it, else the main transcript. */
function chooseFile(s: Session, asked: string | undefined): string {
  const names = s.files.map((f) => f.name);
  if (asked && names.includes(asked)) return asked;
  if (names.length === 0 || names.includes(MAIN_FILE)) return MAIN_FILE;
  return names[0]!;
}

/** A file named in the URL that the session does not have (the page falls back to the main one). */
function unknownFile(s: Session, asked: string | undefined): string | null {
  return asked && !s.files.some((f) => f.name === asked) ? asked : null;
}

/** How often a running session is fetched again while its tab is visible. */
const LIVE_POLL_MS = 5_000;
/** One empty list, so the reader's memoised rows see the same one on every render. */
const NO_HEADS: SubagentFileHead[] = [];

/** A URL parameter that names nothing in this session: said, and closing it drops the parameter. */
function ParamNotice({
  testId,
  onClose,
  children,
}: {
  testId: string;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Alert color="yellow" variant="light" withCloseButton onClose={onClose} data-testid={testId}>
      {children}
    </Alert>
  );
}

function SessionPage() {
  const { id } = Route.useParams();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const queryClient = useQueryClient();
  // A running session is polled while the tab is visible (counts, status, last activity, and the
  // entry counts that tell the readers to fetch what was appended); others are not polled at all.
  const s = useSuspenseQuery({
    ...sessionQueryOptions(id),
    refetchInterval: (q) => (q.state.data?.status === 'running' ? LIVE_POLL_MS : false),
    refetchIntervalInBackground: false,
  }).data;
  const bp = useQuery(blueprintQueryOptions()).data ?? defaultBlueprint;
  usePageTitle(s.title ?? `Session ${id.slice(0, 8)}`);
  const view = search.view ?? 'both';
  const reader = search.reader ?? 'conversation';
  const file = chooseFile(s, search.file);
  const badFile = unknownFile(s, search.file);
  const re = useMemo(() => termsRegExp(searchTerms(search.q)), [search.q]);
  const settings = {
    pageSize: bp.userSettings.transcriptPageSize,
    autoLoadMax: bp.userSettings.transcriptAutoLoadMax,
  };
  const fileEntries = s.files.find((f) => f.name === file)?.entries;
  const t = useTranscript(id, file, settings, view === 'both' ? search.entry : undefined, fileEntries);
  // The session grew: the You/Claude turns are fetched again (the last turn may have grown too).
  const entryCount = s.files.reduce((n, f) => n + f.entries, 0);
  const seenCount = useRef(entryCount);
  useEffect(() => {
    if (seenCount.current === entryCount) return;
    seenCount.current = entryCount;
    void queryClient.invalidateQueries({ queryKey: ['turns', id] });
  }, [entryCount, id, queryClient]);
  const virtualizerRef = useRef<Virtualizer<Window, Element> | null>(null);
  // j/k: the item marked current, in the list shown (a new view, file or session starts without
  // one: the page stays mounted from one session to the next).
  const [active, setActive] = useState<{ at: string; index: number } | null>(null);
  const readerAt = view === 'both' ? `${id}:${view}:${reader}:${file}` : `${id}:${view}`;
  const activeIndex = active?.at === readerAt ? active.index : undefined;

  const subFiles = s.files.filter((f) => f.name.startsWith('subagents/'));
  const heads = useQuery({
    ...subagentHeadsQueryOptions(id, subFiles),
    enabled: file === MAIN_FILE && subFiles.length > 0,
  });

  // A user's change of view is a history entry: Back undoes it.
  const set = (patch: Partial<SessionSearch>) =>
    navigate({ search: (old: SessionSearch) => ({ ...old, ...patch }) });
  const stopStep = useRef<(() => void) | null>(null);
  const step = (delta: number) => {
    const v = virtualizerRef.current;
    if (!v || v.options.count === 0) return;
    const top = stickyBottom(STICKY_OFFSET);
    const rowAt = (i: number) => document.querySelector(`[data-window-list] > [data-index="${i}"]`);
    const shown = (i: number | undefined) => {
      const r = i === undefined ? null : rowAt(i)?.getBoundingClientRect();
      return r !== undefined && r !== null && r.bottom > top && r.top < window.innerHeight;
    };
    // From the current item while it is on screen, else from the first one visible.
    const firstVisible = v.getVirtualItems().find((vi) => vi.end - window.scrollY > top)?.index ?? 0;
    const next =
      activeIndex !== undefined && shown(activeIndex)
        ? Math.min(v.options.count - 1, Math.max(0, activeIndex + delta))
        : firstVisible;
    setActive({ at: readerAt, index: next });
    stopStep.current?.();
    stopStep.current = settleScroll({
      virtualizer: () => virtualizerRef.current,
      index: () => next,
      find: () => rowAt(next),
      top: () => stickyBottom(STICKY_OFFSET) + 8,
    });
  };
  useEffect(() => () => stopStep.current?.(), []);
  usePageKeys({
    '1': () => set({ view: 'both' }),
    '2': () => set({ view: 'you' }),
    '3': () => set({ view: 'claude' }),
    r: () => set({ view: 'both', reader: reader === 'raw' ? 'conversation' : 'raw' }),
    j: () => step(1),
    k: () => step(-1),
    b: () => {
      const index = entryOfRow(activeIndex);
      if (index !== null) void toggleBookmark(queryClient, id, file, index).catch(() => undefined);
    },
  });

  return (
    <Stack gap="sm" p="sm" maw={1200} mx="auto" data-testid="session-page">
      <SessionDetails s={s} links={bp.sessionLinks} />
      <SessionActions s={s} />
      <AnnotationPanel s={s} />
      <Box
        pos="sticky"
        top={56}
        py={6}
        style={{
          zIndex: 20,
          background: 'var(--mantine-color-body)',
          borderBottom: '1px solid var(--mantine-color-dark-5)',
        }}
        data-testid="transcript-toolbar"
        data-sticky-bar
      >
        <Group gap="xs" justify="space-between">
          <Group gap="xs">
            <SpeakerToggle value={view} onChange={(v) => set({ view: v })} />
            {view === 'both' && (
              <SegmentedControl
                size="xs"
                value={reader}
                onChange={(v) => set({ reader: v as SessionSearch['reader'] })}
                data={[
                  { value: 'conversation', label: 'Conversation' },
                  { value: 'raw', label: 'Raw' },
                ]}
                data-testid="reader-toggle"
              />
            )}
            {view === 'both' && s.files.length > 1 && (
              <Select
                size="xs"
                aria-label="Transcript file"
                data-testid="file-select"
                value={file}
                onChange={(v) => set({ file: v && v !== MAIN_FILE ? v : undefined, entry: undefined })}
                data={s.files.map((f) => ({
                  value: f.name,
                  label:
                    f.name === MAIN_FILE
                      ? `main transcript (${f.entries})`
                      : `${f.name.replace(/^subagents\//, '')} (${f.entries})`,
                }))}
                allowDeselect={false}
                w={260}
                maw="100%"
              />
            )}
          </Group>
          <Group gap="xs">
            {search.q && (
              <Pill withRemoveButton onRemove={() => set({ q: undefined })} data-testid="highlight-chip">
                highlighting “{search.q}”
              </Pill>
            )}
            {view === 'both' && t.total > 0 && (
              <Text size="xs" c="dimmed">
                {t.loaded} / {t.total}
              </Text>
            )}
          </Group>
        </Group>
      </Box>
      {badFile && (
        <ParamNotice testId="file-missing" onClose={() => set({ file: undefined })}>
          This session has no transcript file “{badFile}”; the main transcript is shown.
        </ParamNotice>
      )}
      {view === 'both' && t.targetMissing && search.entry !== undefined && (
        <ParamNotice testId="entry-missing" onClose={() => set({ entry: undefined })}>
          {file === MAIN_FILE ? 'The transcript' : `“${file}”`} has no entry {search.entry}
          {t.total > 0 ? ` (it has ${formatCountOf(t.total, 'entry', 'entries')})` : ''}; it is shown from the
          start.
        </ParamNotice>
      )}
      {view === 'both' ? (
        t.error ? (
          <Alert color="red" title="Cannot load the transcript" data-testid="transcript-error">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{describeError(t.error).message}</Text>
              <Button size="compact-sm" variant="light" color="red" onClick={t.retry}>
                Retry
              </Button>
            </Stack>
          </Alert>
        ) : t.isLoading ? (
          <Text size="sm" c="dimmed">
            Loading the transcript…
          </Text>
        ) : t.total === 0 ? (
          <Alert color="gray" variant="light" title="No entries" data-testid="transcript-empty">
            This transcript has no entries (an empty file, or nothing stored for it yet).
          </Alert>
        ) : (
          <>
            <EarlierEntries t={t} />
            {reader === 'conversation' ? (
              <ConversationReader
                sessionId={id}
                file={file}
                t={t}
                re={re}
                target={search.entry}
                subagentHeads={heads.data ?? NO_HEADS}
                virtualizerRef={virtualizerRef}
                activeIndex={activeIndex}
              />
            ) : (
              <RawReader
                sessionId={id}
                file={file}
                t={t}
                re={re}
                target={search.entry}
                virtualizerRef={virtualizerRef}
                activeIndex={activeIndex}
              />
            )}
            <LoadStatus t={t} autoLoadMax={settings.autoLoadMax} />
          </>
        )
      ) : (
        <TurnsList
          key={view}
          sessionId={id}
          role={view === 'you' ? 'user' : 'assistant'}
          pageSize={settings.pageSize}
          re={re}
          virtualizerRef={virtualizerRef}
          activeIndex={activeIndex}
        />
      )}
    </Stack>
  );
}
