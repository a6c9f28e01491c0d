import { describe, expect, it } from 'vitest';
import {
  addMonths,
  densityLevel,
  monthBounds,
  monthGrid,
  monthLabel,
  monthOf,
  colorOf,
  projectColor,
  projectColors,
} from './calendar.js';

describe('calendar', () => {
  it('builds Monday-first weeks padded with neighbouring days', () => {
    const weeks = monthGrid('2026-03'); // 1 March 2026 is a Sunday
    expect(weeks[0]![0]).toEqual({ day: '2026-02-23', date: 23, inMonth: false });
    expect(weeks[0]![6]).toEqual({ day: '2026-03-01', date: 1, inMonth: true });
    expect(weeks.every((w) => w.length === 7)).toBe(true);
    expect(weeks.flat().filter((d) => d.inMonth)).toHaveLength(31);
    expect(weeks[weeks.length - 1]![6]!.day).toBe('2026-04-05');
  });
  it('handles February in a leap year and months starting on Monday', () => {
    expect(monthGrid('2027-02')).toHaveLength(4); // 1 Feb 2027 is a Monday, 28 days
    expect(
      monthGrid('2024-02')
        .flat()
        .filter((d) => d.inMonth),
    ).toHaveLength(29);
  });
  it('navigates months across years', () => {
    expect(addMonths('2026-01', -1)).toBe('2025-12');
    expect(addMonths('2025-12', 1)).toBe('2026-01');
    expect(addMonths('2026-03', 0)).toBe('2026-03');
    expect(monthBounds('2026-02')).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(monthLabel('2026-03')).toBe('March 2026');
    expect(monthOf(Date.parse('2026-03-31T23:59:59Z'))).toBe('2026-03');
  });
  it('gives each project a stable colour', () => {
    expect(projectColor('happy')).toBe(projectColor('happy'));
    expect(projectColor(null)).toBe('gray');
    const colours = new Set(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map(projectColor));
    expect(colours.size).toBeGreaterThan(3);
  });
  it('gives the projects shown together distinct colours, the same for the same set', () => {
    // The corpus's August 2025: three of these hashed to red.
    const shown = ['Claude', 'Z-FORGE', 'agents', 'happy', 'livecd-gen', null];
    const colors = projectColors(shown);
    const used = shown.filter(Boolean).map((p) => colorOf(colors, p));
    expect(new Set(used).size).toBe(used.length);
    expect(colorOf(colors, null)).toBe('var(--mantine-color-gray-6)');
    expect(projectColors([...shown].reverse())).toEqual(colors);
    // A project keeps its own colour when nothing else shown wants it.
    expect(colorOf(projectColors(['happy']), 'happy')).toBe(
      `var(--mantine-color-${projectColor('happy')}-5)`,
    );
    // 36 projects: all distinct (12 colours in three shades).
    const many = Array.from({ length: 36 }, (_, i) => `project-${i}`);
    const all = projectColors(many);
    expect(new Set(many.map((p) => colorOf(all, p))).size).toBe(36);
  });
  it('grades density against the busiest day', () => {
    expect(densityLevel(0, 100)).toBe(0);
    expect(densityLevel(5, 100)).toBe(1);
    expect(densityLevel(20, 100)).toBe(2);
    expect(densityLevel(50, 100)).toBe(3);
    expect(densityLevel(100, 100)).toBe(4);
    expect(densityLevel(10, 0)).toBe(0);
  });
});
