/**
 * A year of daily activity in one strip (weeks as columns, Monday on top, like a contribution
 * graph) above the month grid: each day shaded by its active time relative to the year's busiest,
 * the month shown outlined; a click on a day opens its month. The year is the twelve months
 * ending with the month shown, so the months just before it are one click away.
 */
import { Box, Group, Text, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { addMonths, monthBounds } from '../../lib/calendar.js';
import { formatDuration } from '../../lib/format.js';
import type { SessionFilters } from '../../lib/search-params.js';
import { activityQueryOptions } from '../../queries/activity.js';

const DAY_MS = 86_400_000;

function iso(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Weeks (Monday first) covering `from`..`to`, each seven days (null outside the range). */
export function yearWeeks(from: string, to: string): Array<Array<string | null>> {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  const monday = start - ((new Date(start).getUTCDay() + 6) % 7) * DAY_MS;
  const weeks: Array<Array<string | null>> = [];
  for (let w = monday; w <= end; w += 7 * DAY_MS)
    weeks.push(
      Array.from({ length: 7 }, (_, d) =>
        w + d * DAY_MS < start || w + d * DAY_MS > end ? null : iso(w + d * DAY_MS),
      ),
    );
  return weeks;
}

export function YearStrip({
  month,
  filters,
  onPick,
}: {
  month: string;
  filters: SessionFilters;
  onPick: (month: string, day: string) => void;
}) {
  const first = addMonths(month, -11);
  const from = monthBounds(first).from;
  const to = monthBounds(month).to;
  const activity = useQuery(activityQueryOptions(filters, from, to));
  const byDay = useMemo(() => new Map((activity.data?.days ?? []).map((d) => [d.day, d])), [activity.data]);
  const max = Math.max(1, ...(activity.data?.days ?? []).map((d) => d.activeMs));
  const weeks = useMemo(() => yearWeeks(from, to), [from, to]);
  return (
    <Box data-testid="year-strip" style={{ overflowX: 'auto' }}>
      <Group gap={2} wrap="nowrap" align="flex-start">
        {weeks.map((week, w) => (
          <Box key={w} style={{ display: 'grid', gridTemplateRows: 'repeat(7, 10px)', gap: 2 }}>
            {week.map((day, d) =>
              day === null ? (
                <span key={d} />
              ) : (
                <UnstyledButton
                  key={d}
                  className="ct-year-day"
                  data-strip-day={day}
                  data-in-month={day.startsWith(month) ? '' : undefined}
                  aria-label={`${day}: ${byDay.get(day)?.sessions ?? 0} sessions`}
                  title={`${day} · ${byDay.get(day)?.sessions ?? 0} sessions · ${formatDuration(byDay.get(day)?.activeMs ?? 0)} active`}
                  onClick={() => onPick(day.slice(0, 7), day)}
                  style={{
                    opacity: byDay.has(day) ? 0.25 + (0.75 * byDay.get(day)!.activeMs) / max : 1,
                    background: byDay.has(day)
                      ? 'var(--mantine-color-teal-6)'
                      : 'var(--mantine-color-dark-5)',
                  }}
                />
              ),
            )}
          </Box>
        ))}
      </Group>
      <Text size="xs" c="dimmed" mt={2}>
        {from.slice(0, 7)} – {to.slice(0, 7)}: click a day to open its month
      </Text>
    </Box>
  );
}
