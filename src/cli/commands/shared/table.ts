/**
 * Plain-text tables for the terminal: columns padded to their widest cell, and — when a width is
 * given — the flexible columns (titles, paths) cut with `…` so each row fits on one line.
 * Every cell goes through `oneLine`, which removes the escape sequences a transcript's text may
 * hold and pictures its controls (terminal-text.ts): no colour codes inside cells, and no cell can
 * drive the terminal. Widths are terminal columns (`string-width`), so rows of CJK text or emoji
 * line up with the others.
 */
import { createRequire } from 'node:module';
import { terminalLine } from './terminal-text.js';

export interface Column<Row> {
  header: string;
  value(row: Row): string;
  align?: 'left' | 'right';
  /** May be shortened to fit the width (the others never are). */
  flex?: boolean;
  /** A flexible column never shrinks below this (default 8). */
  min?: number;
  /** May be left out when even the shortened row does not fit; lower numbers go first. */
  drop?: number;
}

/**
 * Characters that take one column and are neither emoji nor combining marks: printable ASCII,
 * Latin-1 and the Latin extensions, IPA, the punctuation of running text (dashes, quotes, bullets,
 * the ellipsis), box drawing and geometric shapes (the status markers ● ○ ■), less the few of them
 * that are emoji (©, ®, ‼, ⁉, ▶, ◀, ◻ …). Most cells hold
 * nothing else, and string-width's check of each character against its emoji expression (a very
 * large one, compiled on first use) cost `transcripts sessions` more than the rest of its start.
 */
const NARROW =
  /^[\x20-\x7e\u00a0-\u00a8\u00aa-\u00ac\u00af-\u02ff\u2010-\u2027\u2030-\u203b\u203d-\u2048\u204a-\u205e\u2500-\u25a9\u25ac-\u25b5\u25b7-\u25bf\u25c1-\u25fa\u25ff]*$/;

/**
 * string-width, loaded the first time a cell is not narrow text. Loading it builds an
 * `Intl.Segmenter`, which reads ICU's data: 18 of the 97 ms `transcripts sessions` took beyond
 * `node -e 0` (CPU profile), for tables that are most often plain text. `require` of an ES module
 * is synchronous, so the table code stays synchronous; every Node this package runs on has it
 * (`engines`: ^20.19 or ≥ 22.12, which vite needs too).
 */
let stringWidth: ((s: string) => number) | undefined;
const wideWidth = (s: string) =>
  (stringWidth ??= (createRequire(import.meta.url)('string-width') as { default: (s: string) => number })
    .default)(s);

/** Columns a string takes on a terminal: CJK and most emoji take two, combining marks none. */
export const displayWidth = (s: string) => (NARROW.test(s) ? s.length : wideWidth(s));
const len = displayWidth;

/** Built on first use, like string-width's (see above). */
let graphemes: Intl.Segmenter | undefined;

/**
 * Cuts `s` to `max` terminal columns, ending in `…` when it was wider; never inside a character
 * (a grapheme: an emoji with its modifiers, a letter with its accents).
 */
export function truncate(s: string, max: number): string {
  if (len(s) <= max) return s;
  const room = max <= 1 ? max : max - 1;
  // Narrow text is one column per UTF-16 unit and has no clusters to keep together.
  if (NARROW.test(s)) return max <= 1 ? s.slice(0, Math.max(0, room)) : `${s.slice(0, room)}…`;
  let out = '';
  let used = 0;
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (const { segment } of graphemes.segment(s)) {
    const w = len(segment);
    if (used + w > room) break;
    out += segment;
    used += w;
  }
  return max <= 1 ? out : `${out}…`;
}

/**
 * Text for one line of a terminal: escape sequences removed and controls pictured
 * (`terminalLine`), whitespace collapsed (newlines in titles would break the rows).
 */
export function oneLine(s: string): string {
  return terminalLine(s).replace(/\s+/g, ' ').trim();
}

export function formatTable<Row>(allColumns: Array<Column<Row>>, rows: Row[], width?: number): string[] {
  const columns = width === undefined ? allColumns : fitColumns(allColumns, rows, width);
  const cells = rows.map((r) => columns.map((c) => oneLine(c.value(r))));
  const widths = columns.map((c, i) => Math.max(len(c.header), ...cells.map((row) => len(row[i]!))));
  const GAP = 2;
  if (width !== undefined) {
    let total = widths.reduce((a, b) => a + b, 0) + GAP * (columns.length - 1);
    // Shrink the widest flexible column first, one character at a time, until the row fits.
    while (total > width) {
      let widest = -1;
      for (let i = 0; i < columns.length; i++) {
        if (!columns[i]!.flex || widths[i]! <= (columns[i]!.min ?? 8)) continue;
        if (widest === -1 || widths[i]! > widths[widest]!) widest = i;
      }
      if (widest === -1) break;
      widths[widest]!--;
      total--;
    }
  }
  const line = (values: string[]) =>
    values
      .map((v, i) => {
        const w = widths[i]!;
        const cut = truncate(v, w);
        const pad = ' '.repeat(Math.max(0, w - len(cut)));
        return columns[i]!.align === 'right' ? pad + cut : i === values.length - 1 ? cut : cut + pad;
      })
      .join(' '.repeat(GAP))
      .trimEnd();
  return [line(columns.map((c) => c.header)), ...cells.map(line)];
}

/** Leaves out droppable columns (lowest `drop` first) until the narrowest possible row fits. */
function fitColumns<Row>(columns: Array<Column<Row>>, rows: Row[], width: number): Array<Column<Row>> {
  const natural = (c: Column<Row>) => Math.max(len(c.header), ...rows.map((r) => len(oneLine(c.value(r)))));
  const minimum = (cols: Array<Column<Row>>) =>
    cols.reduce(
      (n, c) => n + (c.flex ? Math.min(natural(c), Math.max(c.min ?? 8, len(c.header))) : natural(c)),
      0,
    ) +
    2 * (cols.length - 1);
  let cols = columns;
  while (minimum(cols) > width) {
    const droppable = cols.filter((c) => c.drop !== undefined).sort((a, b) => a.drop! - b.drop!);
    if (droppable.length === 0) break;
    cols = cols.filter((c) => c !== droppable[0]);
  }
  return cols;
}
