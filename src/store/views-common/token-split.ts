/**
 * The session rollup's `token_split`: a session's tokens by model, for the totals over a filter
 * (`Views.tokenTotals`). JSON text, `[[model, input, output, cacheWrite, cacheRead], …]`, one
 * element per model with tokens; `model` is null for the tokens of a session whose split is
 * unknown (core/pricing.ts's `tokenSplit`). Both engines sum it with their JSON functions.
 */
import type { TokenUsage } from '../../core/documents.js';
import { hasTokens, tokenSplit } from '../../core/pricing.js';

/** What a summary says its tokens are, as whole non-negative counts (a malformed one counts 0). */
function usage(v: unknown): TokenUsage {
  const r = typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  const n = (x: unknown) => (typeof x === 'number' && Number.isSafeInteger(x) && x > 0 ? x : 0);
  return { input: n(r.input), output: n(r.output), cacheWrite: n(r.cacheWrite), cacheRead: n(r.cacheRead) };
}

/**
 * A model name both engines' JSON functions take: PostgreSQL's refuses a NUL and a lone surrogate
 * (which JSON.stringify writes as an escape), so each reads as U+FFFD, as everywhere else it is stored.
 */
function label(model: string): string {
  return model
    .replaceAll('\u0000', '\uFFFD')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

export function tokenSplitJson(doc: Record<string, unknown>): string {
  const tokens = usage(doc.tokens);
  const given = doc.tokensByModel;
  const byModel =
    typeof given === 'object' && given !== null && !Array.isArray(given)
      ? Object.entries(given).map(([m, t]): [string, TokenUsage] => [m, usage(t)])
      : undefined;
  const models = Array.isArray(doc.models)
    ? doc.models.filter((m): m is string => typeof m === 'string')
    : [];
  const split = tokenSplit(tokens, byModel && Object.fromEntries(byModel), models);
  const rows: Array<[string | null, TokenUsage]> = split === null ? [[null, tokens]] : Object.entries(split);
  return JSON.stringify(
    rows
      .filter(([, t]) => hasTokens(t))
      .map(([m, t]) => [m === null ? null : label(m), t.input, t.output, t.cacheWrite, t.cacheRead]),
  );
}
