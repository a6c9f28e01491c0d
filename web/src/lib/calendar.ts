/**
 * The calendar's arithmetic: a month grid (weeks starting on Monday, UTC days as the API's
 * activity rollup uses), month navigation, a stable colour per project, and the density level of
 * a day. The API already splits a session that runs across midnight into one row per day, so a
 * session appears on every day it ran.
 */
import { isoDay } from './date-phrases.js';

export interface GridDay {
  /** `YYYY-MM-DD`. */
  day: string;
  /** Day of the month. */
  date: number;
  /** False for the leading/trailing days of neighbouring months. */
  inMonth: boolean;
}

/** `YYYY-MM` of a time. */
export function monthOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

function parseMonth(month: string): { y: number; m: number } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return { y, m };
}

/** The month `delta` months after `month` (`2026-01`, -1 → `2025-12`). */
export function addMonths(month: string, delta: number): string {
  const { y, m } = parseMonth(month);
  return isoDay(Date.UTC(y, m - 1 + delta, 1)).slice(0, 7);
}

/** First and last day of a month, `YYYY-MM-DD`. */
export function monthBounds(month: string): { from: string; to: string } {
  const { y, m } = parseMonth(month);
  return { from: isoDay(Date.UTC(y, m - 1, 1)), to: isoDay(Date.UTC(y, m, 0)) };
}

/** The weeks (Monday first) covering a month, padded with neighbouring days. */
export function monthGrid(month: string): GridDay[][] {
  const { y, m } = parseMonth(month);
  const first = Date.UTC(y, m - 1, 1);
  const lead = (new Date(first).getUTCDay() + 6) % 7;
  const daysInMonth = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const cells = Math.ceil((lead + daysInMonth) / 7) * 7;
  const weeks: GridDay[][] = [];
  for (let i = 0; i < cells; i++) {
    const ms = first + (i - lead) * 86_400_000;
    const d = new Date(ms);
    if (i % 7 === 0) weeks.push([]);
    weeks[weeks.length - 1]!.push({
      day: isoDay(ms),
      date: d.getUTCDate(),
      inMonth: d.getUTCMonth() === m - 1,
    });
  }
  return weeks;
}

/** A month's name: `March 2026`. */
export function monthLabel(month: string): string {
  const { y, m } = parseMonth(month);
  const names = [
    'January',
    'February',
    'March',
    'April',
    'May',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December',
  ];
  return `${names[m - 1]} ${y}`;
}

/** Mantine colour names, distinct on a dark background. */
export const PROJECT_COLORS = [
  'blue',
  'teal',
  'grape',
  'orange',
  'cyan',
  'lime',
  'pink',
  'violet',
  'yellow',
  'indigo',
  'green',
  'red',
] as const;

/** Shades used, in turn, once every colour is taken: the 5 first, then a light and a deep one. */
const SHADES = [5, 2, 8] as const;

/** A project's colour as CSS (`var(--mantine-color-teal-5)`); gray for none. */
export type ProjectColors = Map<string, string>;

function hashOf(project: string): number {
  let h = 2166136261;
  for (let i = 0; i < project.length; i++) {
    h ^= project.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

/** A stable colour name for a project name (its preferred colour; see `projectColors`). */
export function projectColor(project: string | null | undefined): string {
  if (!project) return 'gray';
  return PROJECT_COLORS[hashOf(project) % PROJECT_COLORS.length]!;
}

const cssColor = (name: string, shade: number) => `var(--mantine-color-${name}-${shade})`;

/**
 * Distinct colours for the projects shown together (a month of the calendar). Each project asks
 * for its stable colour (`projectColor`, so it keeps it from month to month); when another
 * project shown has it already, it takes the next free one, and only past every colour and shade
 * (36 projects) do two share one. Projects are placed in name order, so the same set always gets
 * the same colours, whatever order they come in.
 */
export function projectColors(projects: Iterable<string | null | undefined>): ProjectColors {
  const names = [...new Set([...projects].filter((p): p is string => Boolean(p)))].sort();
  const slots = SHADES.length * PROJECT_COLORS.length;
  const taken = new Set<number>();
  const out: ProjectColors = new Map();
  for (const name of names) {
    const preferred = hashOf(name) % PROJECT_COLORS.length;
    let slot = preferred;
    for (let i = 0; i < slots && taken.has(slot); i++) slot = (preferred + i + 1) % slots;
    taken.add(slot);
    const colour = PROJECT_COLORS[slot % PROJECT_COLORS.length]!;
    const shade = SHADES[Math.floor(slot / PROJECT_COLORS.length)]!;
    out.set(name, cssColor(colour, shade));
  }
  return out;
}

/** The colour of a project in a set made by `projectColors` (gray for none or one not in it). */
export function colorOf(colors: ProjectColors, project: string | null | undefined): string {
  return (project && colors.get(project)) || cssColor('gray', 6);
}

/**
 * Density level 0-4 of a day's active time relative to the busiest day shown (0 = nothing,
 * 4 = at least 75 % of the busiest), so a month's rhythm shows at a glance.
 */
export function densityLevel(activeMs: number, maxActiveMs: number): 0 | 1 | 2 | 3 | 4 {
  if (activeMs <= 0 || maxActiveMs <= 0) return 0;
  const r = activeMs / maxActiveMs;
  if (r >= 0.75) return 4;
  if (r >= 0.4) return 3;
  if (r >= 0.15) return 2;
  return 1;
}
