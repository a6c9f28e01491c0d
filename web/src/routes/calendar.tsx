/**
 * The calendar (`/app/calendar?month=2026-03&day=2026-03-05`): a month grid with each session on
 * the days it ran (a session across midnight is on both days), coloured by project, each day
 * shaded by how busy it was; previous / next / today; a day opens its sessions below. Month, day
 * and filters live in the URL, so every view is a link.
 */
import { Box, Button, Group, Loader, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useQueries, useQuery } from '@tanstack/react-query';
import { createFileRoute, redirect } from '@tanstack/react-router';
import { useMemo } from 'react';
import { FilterChips } from '../components/FilterChips.js';
import {
  addMonths,
  densityLevel,
  monthBounds,
  monthGrid,
  monthLabel,
  monthOf,
  colorOf,
  projectColors,
  type ProjectColors,
} from '../lib/calendar.js';
import { isoDay } from '../lib/date-phrases.js';
import { formatCountOf, formatDuration } from '../lib/format.js';
import {
  calendarSearchSchema,
  filterChips,
  pickFilters,
  type CalendarSearch,
  type SessionFilters,
} from '../lib/search-params.js';
import { describeError, type ActivityDay } from '../queries/api.js';
import { activityQueryOptions } from '../queries/activity.js';
import { apiFilters, projectCwds, sessionQueryOptions, useProjectCwds } from '../queries/sessions.js';
import { ListFilters } from './-list/ListFilters.js';
import { ProjectDirs } from './-list/ProjectDirs.js';
import { SessionRow } from './-list/SessionRow.js';
import { useRowFacts, useSessionColumns } from './-list/use-session-columns.js';
import { usePageKeys } from './-root/Shortcuts.js';
import { usePageTitle } from '../lib/page-title.js';
import { latestActivityMonth } from '../queries/latest-month.js';
import { YearStrip } from './-calendar/YearStrip.js';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const MAX_MARKS = 6;

/** The calendar's filters: the session filters without the dates (the month is the range). */
function calendarFilters(search: CalendarSearch): SessionFilters {
  const { from: _from, to: _to, ...rest } = pickFilters(search);
  return rest;
}

/**
 * The month shown. A day opened shows its own month: the day's sessions come from the month's
 * activity, so a day outside it (`?day=` alone, a month edited by hand) read as a day without any.
 */
function shownMonth(search: CalendarSearch): string {
  if (search.day && !search.day.startsWith(`${search.month}-`)) return search.day.slice(0, 7);
  return search.month ?? monthOf(Date.now());
}

export const Route = createFileRoute('/calendar')({
  validateSearch: calendarSearchSchema,
  // No month asked for: the month of the latest activity (the URL then says which).
  beforeLoad: async ({ search, context: { queryClient } }) => {
    if (search.month || search.day) return;
    const filters = calendarFilters(search);
    const cwds = await projectCwds(queryClient, filters.project);
    const month = await latestActivityMonth(queryClient, apiFilters(filters, cwds));
    throw redirect({ to: '/calendar', search: { ...search, month }, replace: true });
  },
  loaderDeps: ({ search }) => ({
    month: shownMonth(search),
    filters: calendarFilters(search),
  }),
  loader: async ({ context: { queryClient }, deps }) => {
    const { from, to } = monthBounds(deps.month);
    const cwds = await projectCwds(queryClient, deps.filters.project);
    await queryClient.ensureQueryData(activityQueryOptions(apiFilters(deps.filters, cwds), from, to));
  },
  component: CalendarPage,
});

/** The sessions active on a day, as the activity rollup places them (the same as the grid). */
function DaySessions({ day, data }: { day: string; data?: ActivityDay }) {
  const items = data?.items ?? [];
  const sessions = useQueries({ queries: items.map((it) => sessionQueryOptions(it.sessionId)) });
  // The rows show the facts chosen for the session list; a day has no order that forces one.
  const [columns] = useSessionColumns();
  const facts = useRowFacts(columns, null);
  return (
    <Stack gap={6} data-testid="day-sessions">
      <Title order={4} fz="md">
        Sessions on {day}
        {data ? ` · ${formatDuration(data.activeMs)} active` : ''}
      </Title>
      {items.length === 0 && (
        <Text size="sm" c="dimmed">
          No session was active on this day.
        </Text>
      )}
      {items.map((it, i) => {
        const q = sessions[i];
        if (q?.data) return <SessionRow key={it.sessionId} s={q.data} facts={facts} />;
        if (q?.isError)
          return (
            <Text key={it.sessionId} size="sm" c="red.4">
              {it.sessionId}: {describeError(q.error).message}
            </Text>
          );
        return <Loader key={it.sessionId} size="xs" />;
      })}
    </Stack>
  );
}

function DayCell({
  date,
  day,
  inMonth,
  data,
  max,
  selected,
  today,
  onOpen,
  colors,
}: {
  date: number;
  day: string;
  inMonth: boolean;
  data?: ActivityDay;
  max: number;
  selected: boolean;
  today: boolean;
  onOpen: () => void;
  colors: ProjectColors;
}) {
  const items = data?.items ?? [];
  const label = data
    ? `${formatCountOf(data.sessions, 'session')}, ${formatDuration(data.activeMs)} active`
    : 'no sessions';
  return (
    <Tooltip label={`${day}: ${label}`} openDelay={300}>
      <Box
        className="ct-cal-cell"
        data-in-month={inMonth}
        data-selected={selected}
        data-today={today}
        data-level={densityLevel(data?.activeMs ?? 0, max)}
        data-day={day}
        data-testid="calendar-day"
        data-sessions={data?.sessions ?? 0}
        onClick={onOpen}
        role="button"
        tabIndex={0}
        aria-label={`${day}: ${label}`}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            onOpen();
          }
        }}
      >
        <Group justify="space-between" gap={2} wrap="nowrap">
          <Text size="xs" className="ct-cal-date">
            {date}
          </Text>
          {data && (
            <Text size="10px" c="dimmed" visibleFrom="sm">
              {formatDuration(data.activeMs)}
            </Text>
          )}
        </Group>
        <Group gap={3} mt={4}>
          {items.slice(0, MAX_MARKS).map((it) => (
            <span
              key={it.sessionId}
              title={`${it.project ?? 'no project'} · ${formatDuration(it.activeMs)}`}
              style={{
                width: 8,
                height: 8,
                borderRadius: 2,
                background: colorOf(colors, it.project),
                display: 'inline-block',
              }}
            />
          ))}
          {items.length > MAX_MARKS && (
            <Text span size="10px" c="dimmed">
              +{items.length - MAX_MARKS}
            </Text>
          )}
        </Group>
      </Box>
    </Tooltip>
  );
}

function CalendarPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const month = shownMonth(search);
  usePageTitle(`Calendar, ${monthLabel(month)}`);
  const filters = calendarFilters(search);
  const { from, to } = monthBounds(month);
  // A project is every directory so named: one filter the API takes (`project`), as the list's.
  const cwds = useProjectCwds(search.project);
  const activity = useQuery(activityQueryOptions(apiFilters(filters, cwds), from, to));
  const byDay = useMemo(() => new Map((activity.data?.days ?? []).map((d) => [d.day, d])), [activity.data]);
  const max = Math.max(0, ...(activity.data?.days ?? []).map((d) => d.activeMs));
  const projects = useMemo(() => {
    const m = new Map<string, number>();
    for (const d of activity.data?.days ?? [])
      for (const it of d.items) m.set(it.project ?? '', (m.get(it.project ?? '') ?? 0) + it.activeMs);
    return [...m].sort((a, b) => b[1] - a[1]);
  }, [activity.data]);
  // Distinct colours for the projects of the days shown.
  const colors = useMemo(() => projectColors(projects.map(([p]) => p)), [projects]);
  const today = isoDay(Date.now());
  const set = (patch: Partial<CalendarSearch>) =>
    navigate({ search: (old: CalendarSearch) => ({ ...old, ...patch }) });
  const go = (m: string) => set({ month: m, day: undefined });
  usePageKeys({
    ArrowLeft: () => go(addMonths(month, -1)),
    ArrowRight: () => go(addMonths(month, 1)),
    t: () => go(monthOf(Date.now())),
  });
  const weeks = monthGrid(month);
  const total =
    activity.data?.days.filter((d) => d.day >= from && d.day <= to).reduce((n, d) => n + d.sessions, 0) ?? 0;

  return (
    <Stack gap="sm" p="sm" maw={1200} mx="auto" data-testid="calendar-page">
      <Group justify="space-between" gap="xs">
        <Title order={3} fz="lg" data-testid="calendar-month">
          {monthLabel(month)}
        </Title>
        <Group gap={4}>
          <Button
            size="xs"
            variant="default"
            onClick={() => go(addMonths(month, -1))}
            data-testid="calendar-prev"
            aria-label="Previous month"
          >
            ‹ Prev
          </Button>
          <Button
            size="xs"
            variant="default"
            onClick={() => go(monthOf(Date.now()))}
            data-testid="calendar-today"
          >
            Today
          </Button>
          <Button
            size="xs"
            variant="default"
            onClick={() => go(addMonths(month, 1))}
            data-testid="calendar-next"
            aria-label="Next month"
          >
            Next ›
          </Button>
        </Group>
      </Group>
      <YearStrip
        month={month}
        filters={apiFilters(filters, cwds)}
        onPick={(m, day) => set({ month: m, day })}
      />
      <FilterChips chips={filterChips(filters)} onRemove={(key) => set({ [key]: undefined })} />
      <ProjectDirs project={search.project} cwds={cwds} />
      <ListFilters filters={filters} onChange={(patch) => set(patch)} withDates={false} />
      {activity.isError && (
        <Text c="red.4" size="sm" data-testid="calendar-error">
          {describeError(activity.error).message}
        </Text>
      )}
      <Text size="xs" c="dimmed">
        {activity.isLoading
          ? 'loading…'
          : `${formatCountOf(total, 'session-day')} this month · days are UTC · shading = active time`}
      </Text>
      <Box
        style={{ display: 'grid', gridTemplateColumns: 'repeat(7, minmax(0, 1fr))', gap: 4 }}
        data-testid="calendar-grid"
      >
        {WEEKDAYS.map((d) => (
          <Text key={d} size="xs" c="dimmed" ta="center">
            {d}
          </Text>
        ))}
        {weeks.flat().map((d) => (
          <DayCell
            key={d.day}
            {...d}
            data={byDay.get(d.day)}
            max={max}
            selected={search.day === d.day}
            today={d.day === today}
            colors={colors}
            onOpen={() =>
              set({
                day: search.day === d.day ? undefined : d.day,
                month: d.inMonth ? month : d.day.slice(0, 7),
              })
            }
          />
        ))}
      </Box>
      {projects.length > 0 && (
        <Group gap="sm" data-testid="calendar-legend">
          {projects.slice(0, 16).map(([p]) => (
            <Group key={p} gap={4} wrap="nowrap">
              <span
                data-testid="project-swatch"
                data-project={p}
                style={{
                  width: 10,
                  height: 10,
                  borderRadius: 2,
                  background: colorOf(colors, p || null),
                  display: 'inline-block',
                }}
              />
              <Text size="xs" c="dimmed">
                {p || '(no project)'}
              </Text>
            </Group>
          ))}
        </Group>
      )}
      {search.day && <DaySessions day={search.day} data={byDay.get(search.day)} />}
    </Stack>
  );
}
