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
  const quoted = /[\s"]/.test(value) ? `"${value.replace(/"/g, '')}"` : value;
  return `${input.slice(0, at.start)}${at.op}:${quoted} `;
}
