import { describe, expect, it } from 'vitest';
import { type Column, formatTable, truncate } from './table.js';

type Row = { id: string; title: string; n: number };
const rows: Row[] = [
  { id: 'a1', title: 'a fairly long title that will not fit', n: 5 },
  { id: 'b22', title: 'short', n: 120 },
];
const cols: Array<Column<Row>> = [
  { header: 'ID', value: (r) => r.id },
  { header: 'N', value: (r) => String(r.n), align: 'right', drop: 1 },
  { header: 'TITLE', value: (r) => r.title, flex: true, min: 6 },
];

describe('formatTable', () => {
  it('pads columns to their widest cell and right-aligns numbers', () => {
    expect(formatTable(cols, rows)).toEqual([
      'ID     N  TITLE',
      'a1     5  a fairly long title that will not fit',
      'b22  120  short',
    ]);
  });

  it('cuts flexible columns with … to fit the width', () => {
    const lines = formatTable(cols, rows, 24);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(24);
    expect(lines[1]).toBe('a1     5  a fairly long…');
  });

  it('drops droppable columns when even the shortest row is too wide', () => {
    expect(formatTable(cols, rows, 12)).toEqual(['ID   TITLE', 'a1   a fair…', 'b22  short']);
  });

  it('keeps titles on one line', () => {
    expect(formatTable(cols, [{ id: 'x', title: 'two\nlines', n: 1 }])[1]).toBe('x   1  two lines');
  });

  it('truncates by characters, not bytes', () => {
    expect(truncate('日本語のテキスト', 4)).toBe('日本語…');
    expect(truncate('abc', 3)).toBe('abc');
  });
});
