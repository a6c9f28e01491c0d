/**
 * Lines that wrap instead of being cut: a list of tools, a doctor's explanation. Items (words, or
 * `Name 12` pairs) are kept whole; an item longer than the width gets a line of its own.
 */

const len = (s: string) => [...s].length;

/**
 * `items` packed into lines of at most `width` characters, joined by `sep`. Where a line breaks,
 * the separator's trailing spaces go (`', '` leaves `,` at the end of the line).
 */
export function wrapItems(items: readonly string[], width: number, sep = ' '): string[] {
  const lines: string[] = [];
  let line = '';
  const end = sep.trimEnd();
  for (const [i, item] of items.entries()) {
    const last = i === items.length - 1;
    const piece = last ? item : `${item}${end}`;
    if (line === '') line = piece;
    else if (len(line) + (len(sep) - len(end)) + len(piece) <= width)
      line += `${sep.slice(end.length)}${piece}`;
    else {
      lines.push(line);
      line = piece;
    }
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
}

/**
 * A labelled value on as many lines as it needs: `label` padded to `labelWidth` before the first,
 * spaces before the others. Without a width (a pipe), one whole line.
 */
export function labelledLines(
  label: string,
  labelWidth: number,
  items: readonly string[],
  sep: string,
  width: number | undefined,
): string[] {
  const head = label.padEnd(labelWidth);
  if (width === undefined) return [`${head}${items.join(sep)}`];
  const lines = wrapItems(items, Math.max(10, width - labelWidth), sep);
  return lines.map((l, i) => `${i === 0 ? head : ' '.repeat(labelWidth)}${l}`);
}
