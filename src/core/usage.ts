/**
 * Token usage, counted once per assistant message. Claude Code writes one line per content block
 * of a streamed message, each repeating `message.id` and a usage that only grows while streaming;
 * the lines are not always adjacent (tool results interleave). Duplicates are merged by per-field
 * maximum, which is order-independent, so an incremental run and a clean run agree.
 */
import type { TokenUsage } from './documents.js';

/** How many recent message ids a tally remembers; streamed duplicates sit well inside this. */
export const USAGE_WINDOW = 512;

/**
 * JSON-serialisable, bounded state of a tally: resume with `createUsageTally(state)`. Its schema
 * (`usageStateSchema`) lives in `usage-schema.ts`, so the hook's import graph stays free of zod.
 */
export interface UsageState {
  totals: TokenUsage;
  /** Recently seen message ids with the usage already counted for each, least recent first. */
  recent: Array<[string, TokenUsage]>;
}

const FIELDS = ['input', 'output', 'cacheWrite', 'cacheRead'] as const;

export function zeroUsage(): TokenUsage {
  return { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 };
}

/** A token count from an untrusted value: non-numbers, negatives and NaN become 0. */
function count(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0;
}

/** Reads an Anthropic API `usage` object (`input_tokens`, …); missing or odd fields count 0. */
export function toTokenUsage(raw: Record<string, unknown>): TokenUsage {
  return {
    input: count(raw.input_tokens),
    output: count(raw.output_tokens),
    cacheWrite: count(raw.cache_creation_input_tokens),
    cacheRead: count(raw.cache_read_input_tokens),
  };
}

export interface UsageTally {
  /**
   * Counts one line's usage. A line without a message id is counted on its own; a message id seen
   * before only raises the totals by how much this line exceeds what was counted. Returns true
   * when this is the first line of its message.
   */
  add(messageId: string | undefined, usage: TokenUsage | undefined): boolean;
  totals(): TokenUsage;
  state(): UsageState;
}

export function createUsageTally(state?: UsageState, window = USAGE_WINDOW): UsageTally {
  const totals: TokenUsage = state ? { ...state.totals } : zeroUsage();
  // Map iteration order is insertion order: re-inserting on every sighting keeps it least-recent-first.
  const recent = new Map<string, TokenUsage>(state?.recent.map(([id, u]) => [id, { ...u }]));
  return {
    add(messageId, usage) {
      const u = usage ?? zeroUsage();
      if (!messageId) {
        for (const f of FIELDS) totals[f] += u[f];
        return true;
      }
      const seen = recent.get(messageId);
      if (seen) {
        const merged = zeroUsage();
        for (const f of FIELDS) {
          merged[f] = Math.max(seen[f], u[f]);
          totals[f] += merged[f] - seen[f];
        }
        recent.delete(messageId);
        recent.set(messageId, merged);
        return false;
      }
      for (const f of FIELDS) totals[f] += u[f];
      recent.set(messageId, { ...u });
      if (recent.size > window) recent.delete(recent.keys().next().value!);
      return true;
    },
    totals: () => ({ ...totals }),
    state: () => ({ totals: { ...totals }, recent: [...recent].map(([id, u]) => [id, { ...u }]) }),
  };
}
