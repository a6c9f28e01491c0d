/**
 * Value suggestions after an omnibox operator (`cwd:`, `model:`, `host:`, `source:`, `agent:`,
 * `project:`): which operator the input ends in, the facet values that loosely match what is
 * typed after it (substring, case aside), and the input with one of them put in. Pure, so the
 * matching is unit-tested (omnibox-values.test.ts); Omnibox.tsx fetches the facets and renders.
 */
import type { FacetValue } from './facet-match.js';

export type ValueOperator = 'cwd' | 'model' | 'hostname' | 'source' | 'agent' | 'project';

const VALUE_OPERATORS: Record<string, ValueOperator> = {
  cwd: 'cwd',
  dir: 'cwd',
  model: 'model',
  host: 'hostname',
  hostname: 'hostname',
  source: 'source',
  src: 'source',
  agent: 'agent',
  project: 'project',
  proj: 'project',
};

export interface OperatorAtEnd {
  /** The filter the operator sets. */
  key: ValueOperator;
  /** The operator as typed (`host`, `dir`, …). */
  op: string;
  /** What is typed after the colon so far, quotes removed. */
  partial: string;
  /** Where the `op:value` token starts in the input. */
  start: number;
}

/**
 * The value operator the input ends in, while its value is still being typed: `cwd:` or
 * `model:op` at the very end (no space after; an open quote may hold spaces), else null.
 */
export function operatorAtEnd(input: string): OperatorAtEnd | null {
  const m = /(?:^|\s)([A-Za-z]+):("[^"]*|[^\s"]*)$/.exec(input);
  if (!m) return null;
  const op = m[1]!.toLowerCase();
  const key = VALUE_OPERATORS[op];
  if (!key) return null;
  const partial = m[2]!.replace(/^"/, '');
  return { key, op, partial, start: input.length - m[1]!.length - 1 - m[2]!.length };
}

/**
 * The facet values containing `partial` (case aside), best first: those starting with it, then
 * the rest; within each, most sessions first. All values when nothing is typed yet.
 */
export function matchValues(partial: string, values: readonly FacetValue[], limit = 8): FacetValue[] {
  const p = partial.trim().toLowerCase();
  const starts = (v: FacetValue) => (v.value.toLowerCase().startsWith(p) ? 0 : 1);
  return values
    .filter((v) => v.value.toLowerCase().includes(p))
    .sort((a, b) => starts(a) - starts(b) || b.sessions - a.sessions || a.value.localeCompare(b.value))
    .slice(0, limit);
}

/** The input with the operator's value replaced by `value` (quoted when it holds a space) and a space. */
export function withValue(input: string, at: OperatorAtEnd, value: string): string {
  return `${input.slice(0, at.start)}${at.op}:${quoteValue(value)} `;
}

/** `value` as an operator's value: quoted when it holds a space or a quote. */
function quoteValue(value: string): string {
  return /[\s"]/.test(value) ? `"${value.replace(/"/g, '')}"` : value;
}

/**
 * The input with the value of its (last) operator for `key` replaced by `value`, wherever it
 * stands (`model:opus docker` → `model:claude-opus-4-5 docker`): the answer to "which one?" when
 * a typed value matches several. The operator is kept as typed; one is added when there is none.
 */
export function withFilterValue(input: string, key: ValueOperator, value: string): string {
  const re = /(^|\s)([A-Za-z]+):("[^"]*"?|[^\s"]*)/g;
  let last: RegExpExecArray | null = null;
  for (let m = re.exec(input); m; m = re.exec(input))
    if (VALUE_OPERATORS[m[2]!.toLowerCase()] === key) last = m;
  if (!last)
    return `${input.trimEnd()}${input.trim() ? ' ' : ''}${key === 'hostname' ? 'host' : key}:${quoteValue(value)} `;
  const start = last.index + last[1]!.length;
  const end = last.index + last[0].length;
  return `${input.slice(0, start)}${last[2]}:${quoteValue(value)}${input.slice(end)}`;
}
