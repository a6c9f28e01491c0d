import { describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { type Column, displayWidth, formatTable, truncate } from './table.js';

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

  it("measures and cuts a transcript's text by what is shown: colour codes take no width", () => {
    const esc = '\x1b';
    const plain = formatTable(cols, [{ id: 'a1', title: 'fix the failing build now', n: 5 }], 24);
    const coloured = formatTable(
      cols,
      [{ id: 'a1', title: `${esc}[31mfix${esc}[0m the ${esc}]0;title\x07failing build now`, n: 5 }],
      24,
    );
    expect(coloured).toEqual(plain);
    expect(plain[1]).toBe('a1  5  fix the failing …');
  });

  it('shows a control character as its picture, one column wide', () => {
    const lines = formatTable(cols, [
      { id: 'a', title: 'bell\x07 nul\x00', n: 1 },
      { id: 'bb', title: 'x', n: 2 },
    ]);
    expect(lines).toEqual(['ID  N  TITLE', 'a   1  bell␇ nul␀', 'bb  2  x']);
  });

  it('truncates by terminal columns, never inside a character', () => {
    // Each CJK character takes two columns: three columns hold one, then the ellipsis.
    expect(truncate('日本語のテキスト', 4)).toBe('日…');
    expect(truncate('日本語のテキスト', 5)).toBe('日本…');
    expect(truncate('abc', 3)).toBe('abc');
    expect(truncate('abcdef', 4)).toBe('abc…');
    // One column or none leaves no room for the ellipsis.
    expect(truncate('abcdef', 1)).toBe('a');
    expect(truncate('abcdef', 0)).toBe('');
    expect(truncate('日本語', 1)).toBe('');
    expect(truncate('naïve café…', 6)).toBe('naïve…');
    // An emoji with its skin tone, and a letter with a combining accent, stay whole.
    expect(truncate('👍🏽👍🏽👍🏽', 5)).toBe('👍🏽👍🏽…');
    expect(truncate('e\u0301e\u0301e\u0301e\u0301', 3)).toBe('e\u0301e\u0301…');
  });

  it('lines up rows of CJK text and emoji with the others', () => {
    const cols: Array<Column<{ t: string; n: number }>> = [
      { header: 'TITLE', value: (r) => r.t },
      { header: 'N', value: (r) => String(r.n), align: 'right' },
    ];
    const lines = formatTable(cols, [
      { t: '日本語', n: 1 },
      { t: 'abc', n: 22 },
      { t: '🎉 ok', n: 3 },
    ]);
    expect(lines).toEqual(['TITLE    N', '日本語   1', 'abc     22', '🎉 ok    3']);
    const cut = formatTable(
      [{ header: 'T', value: (r: { t: string }) => r.t, flex: true, min: 4 }],
      [{ t: '日本語のテキスト' }],
      7,
    );
    expect(cut).toEqual(['T', '日本語…']);
  });
});

describe('displayWidth', () => {
  it('agrees with string-width on every character of the ranges it answers alone, and beyond', () => {
    const differ: string[] = [];
    for (const [from, to] of [
      [0x20, 0x7e],
      [0xa0, 0x2ff],
      [0x2000, 0x206f],
      [0x2500, 0x25ff],
    ] as const)
      for (let c = from; c <= to; c++) {
        const ch = String.fromCodePoint(c);
        if (displayWidth(ch) !== stringWidth(ch)) differ.push(c.toString(16));
      }
    expect(differ).toEqual([]);
    for (const s of ['plain — “quoted” …', 'naïve façade', '日本語', 'a👍🏽b', 'e\u0301', '© ® ‼', ''])
      expect(displayWidth(s), s).toBe(stringWidth(s));
  });
});
