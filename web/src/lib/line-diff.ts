/**
 * Line diffs for edit tool calls (`Edit`, `MultiEdit`, `Write`, `NotebookEdit`): the reader shows
 * what changed, not two walls of text. A plain LCS over lines, bounded so a huge edit costs
 * nothing: beyond `maxCells` it degrades to "all removed, all added".
 */

export interface DiffLine {
  op: ' ' | '-' | '+';
  text: string;
}

/** Line diff of two texts. */
export function diffLines(before: string, after: string, maxCells = 1_000_000): DiffLine[] {
  const a = before === '' ? [] : before.split('\n');
  const b = after === '' ? [] : after.split('\n');
  // Trim the common head and tail first: edits are usually small.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const am = a.slice(head, a.length - tail);
  const bm = b.slice(head, b.length - tail);
  const out: DiffLine[] = a.slice(0, head).map((text) => ({ op: ' ', text }));
  if (am.length * bm.length > maxCells) {
    for (const text of am) out.push({ op: '-', text });
    for (const text of bm) out.push({ op: '+', text });
  } else {
    const n = am.length;
    const m = bm.length;
    // lcs[i][j] = LCS length of am[i..] and bm[j..], in one flat array.
    const lcs = new Uint32Array((n + 1) * (m + 1));
    for (let i = n - 1; i >= 0; i--)
      for (let j = m - 1; j >= 0; j--)
        lcs[i * (m + 1) + j] =
          am[i] === bm[j]
            ? lcs[(i + 1) * (m + 1) + j + 1]! + 1
            : Math.max(lcs[(i + 1) * (m + 1) + j]!, lcs[i * (m + 1) + j + 1]!);
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (am[i] === bm[j]) {
        out.push({ op: ' ', text: am[i]! });
        i++;
        j++;
      } else if (lcs[(i + 1) * (m + 1) + j]! >= lcs[i * (m + 1) + j + 1]!)
        out.push({ op: '-', text: am[i++]! });
      else out.push({ op: '+', text: bm[j++]! });
    }
    while (i < n) out.push({ op: '-', text: am[i++]! });
    while (j < m) out.push({ op: '+', text: bm[j++]! });
  }
  for (const text of a.slice(a.length - tail)) out.push({ op: ' ', text });
  return out;
}

export interface EditDiff {
  /** The file the edit touched, when the input names one. */
  path?: string;
  /** One diff per edit (MultiEdit has several). */
  hunks: DiffLine[][];
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/**
 * The diff an edit tool call makes, from its input; undefined for other tools or an input of an
 * unexpected shape.
 */
export function editDiff(name: string, input: unknown): EditDiff | undefined {
  if (!input || typeof input !== 'object') return undefined;
  const i = input as Record<string, unknown>;
  const path = str(i.file_path) ?? str(i.path) ?? str(i.notebook_path);
  if (name === 'Edit') {
    const before = str(i.old_string);
    const after = str(i.new_string);
    if (before === undefined || after === undefined) return undefined;
    return { path, hunks: [diffLines(before, after)] };
  }
  if (name === 'MultiEdit' && Array.isArray(i.edits)) {
    const hunks: DiffLine[][] = [];
    for (const e of i.edits) {
      if (!e || typeof e !== 'object') continue;
      const before = str((e as Record<string, unknown>).old_string);
      const after = str((e as Record<string, unknown>).new_string);
      if (before !== undefined && after !== undefined) hunks.push(diffLines(before, after));
    }
    return hunks.length > 0 ? { path, hunks } : undefined;
  }
  if (name === 'Write') {
    const content = str(i.content);
    return content === undefined ? undefined : { path, hunks: [diffLines('', content)] };
  }
  if (name === 'NotebookEdit') {
    const source = str(i.new_source);
    return source === undefined ? undefined : { path, hunks: [diffLines('', source)] };
  }
  return undefined;
}

/** `+12 −3` for a diff. */
export function diffStat(hunks: readonly DiffLine[][]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const h of hunks)
    for (const l of h) {
      if (l.op === '+') added++;
      else if (l.op === '-') removed++;
    }
  return { added, removed };
}
