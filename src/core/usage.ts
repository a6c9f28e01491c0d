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
  /**
   * The totals split by the model that wrote each message (`''` for a line naming none). Absent
   * from a state saved before they were kept, once it had counted tokens: those could not be
   * split any more, so that session's split stays unknown rather than short.
   */
  byModel?: Record<string, TokenUsage>;
}

const FIELDS = ['input', 'output', 'cacheWrite', 'cacheRead'] as const;

export function zeroUsage(): TokenUsage {
  return { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 };
}

/** Every kind of token, summed. */
export function tokenSum(t: TokenUsage): number {
  return t.input + t.output + t.cacheWrite + t.cacheRead;
}

/** Adds `t` to `into`, kind by kind. */
export function addUsage(into: TokenUsage, t: TokenUsage): void {
  for (const f of FIELDS) into[f] += t[f];
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
   * Counts one line's usage, written by `model`. A line without a message id is counted on its
   * own; a message id seen before only raises the totals by how much this line exceeds what was
   * counted (the lines of one message name the same model). Returns true when this is the first
   * line of its message.
   */
  add(messageId: string | undefined, usage: TokenUsage | undefined, model?: string): boolean;
  totals(): TokenUsage;
  /** The totals by model, summing to `totals()`; null when they cannot be known (see UsageState). */
  byModel(): Record<string, TokenUsage> | null;
  state(): UsageState;
}

export function createUsageTally(state?: UsageState, window = USAGE_WINDOW): UsageTally {
  const totals: TokenUsage = state ? { ...state.totals } : zeroUsage();
  // Map iteration order is insertion order: re-inserting on every sighting keeps it least-recent-first.
  const recent = new Map<string, TokenUsage>(state?.recent.map(([id, u]) => [id, { ...u }]));
  // A Map, not an object: a model named `__proto__` must count like any other.
  const byModel: Map<string, TokenUsage> | null =
    state?.byModel !== undefined
      ? new Map(Object.entries(state.byModel).map(([m, u]) => [m, { ...u }]))
      : !state || tokenSum(state.totals) === 0
        ? new Map()
        : null;
  /** Adds `delta` to the totals and to the model's. */
  const count = (delta: TokenUsage, model: string | undefined) => {
    addUsage(totals, delta);
    if (!byModel || tokenSum(delta) === 0) return;
    const key = model ?? '';
    const mine = byModel.get(key) ?? zeroUsage();
    addUsage(mine, delta);
    byModel.set(key, mine);
  };
  const copy = () => (byModel ? Object.fromEntries([...byModel].map(([m, u]) => [m, { ...u }])) : null);
  return {
    add(messageId, usage, model) {
      const u = usage ?? zeroUsage();
      if (!messageId) {
        count(u, model);
        return true;
      }
      const seen = recent.get(messageId);
      if (seen) {
        const merged = zeroUsage();
        const delta = zeroUsage();
        for (const f of FIELDS) {
          merged[f] = Math.max(seen[f], u[f]);
          delta[f] = merged[f] - seen[f];
        }
        count(delta, model);
        recent.delete(messageId);
        recent.set(messageId, merged);
        return false;
      }
      count(u, model);
      recent.set(messageId, { ...u });
      if (recent.size > window) recent.delete(recent.keys().next().value!);
      return true;
    },
    totals: () => ({ ...totals }),
    byModel: copy,
    state: () => {
      const split = copy();
      return {
        totals: { ...totals },
        recent: [...recent].map(([id, u]) => [id, { ...u }]),
        ...(split ? { byModel: split } : {}),
      };
    },
  };
}
