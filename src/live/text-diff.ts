/**
 * A unified line diff, for `--dry-run`s that show what a file would become (settings.json, unit
 * files). Files here are small, so a plain LCS table is fine.
 */

/** `-`/`+`/` ` lines with `context` unchanged lines around each change; '' when equal. */
export function unifiedDiff(before: string, after: string, labels: [string, string], context = 3): string {
  if (before === after) return '';
  const a = before === '' ? [] : before.replace(/\n$/, '').split('\n');
  const b = after === '' ? [] : after.replace(/\n$/, '').split('\n');
  // lcs[i][j]: length of the longest common subsequence of a[i:] and b[j:].
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const ops: Array<{ kind: ' ' | '-' | '+'; text: string }> = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ kind: ' ', text: a[i]! });
      i++;
      j++;
    } else if (j < b.length && (i === a.length || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) {
      ops.push({ kind: '+', text: b[j++]! });
    } else {
      ops.push({ kind: '-', text: a[i++]! });
    }
  }
  const keep = ops.map((op, k) =>
    ops.slice(Math.max(0, k - context), k + context + 1).some((o) => o.kind !== ' '),
  );
  const out = [`--- ${labels[0]}`, `+++ ${labels[1]}`];
  let skipped = false;
  ops.forEach((op, k) => {
    if (!keep[k]) {
      if (!skipped) out.push('@@ … @@');
      skipped = true;
      return;
    }
    skipped = false;
    out.push(`${op.kind}${op.text}`);
  });
  return out.join('\n');
}
