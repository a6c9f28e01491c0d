/**
 * What a session's tokens cost, at per-model prices: Anthropic's and Google's list prices for the
 * Claude and Gemini models they are known for, and whatever `config.json` gives under `prices` (settings.ts), which wins.
 * A model without a price is said to be unpriced, never guessed: a new model's price cannot be
 * known from here, and a guess from its name (opus-4-8 priced as opus-4) would be a wrong figure
 * shown as a right one.
 *
 * Prices are US dollars per million tokens. Cache writes are priced at the five-minute rate (the
 * transcript's usage does not always split them by lifetime), and long-context surcharges are not
 * applied, so a figure is the list-price estimate, not the bill.
 */
import type { TokenUsage } from './documents.js';
import { tokenSum } from './usage.js';

export interface ModelPrice {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

/**
 * Prices by model. A key names a model and its dated snapshots (`claude-opus-4-1` prices
 * `claude-opus-4-1-20250805` too, and not `claude-opus-4-1x`); a key ending in `*` every model
 * starting with what comes before it. The exact or snapshot match wins over a prefix, and the
 * longest prefix over a shorter one.
 */
export type PriceList = Readonly<Record<string, ModelPrice>>;

const price = (input: number, output: number, cacheWrite: number, cacheRead: number): ModelPrice => ({
  input,
  output,
  cacheWrite,
  cacheRead,
});

/** Anthropic's published list prices (USD per million tokens). */
export const LIST_PRICES: PriceList = {
  'claude-opus-4-5': price(5, 25, 6.25, 0.5),
  'claude-opus-4-1': price(15, 75, 18.75, 1.5),
  'claude-opus-4': price(15, 75, 18.75, 1.5),
  'claude-opus-4-0': price(15, 75, 18.75, 1.5),
  'claude-sonnet-4-5': price(3, 15, 3.75, 0.3),
  'claude-sonnet-4': price(3, 15, 3.75, 0.3),
  'claude-sonnet-4-0': price(3, 15, 3.75, 0.3),
  'claude-haiku-4-5': price(1, 5, 1.25, 0.1),
  'claude-3-7-sonnet': price(3, 15, 3.75, 0.3),
  'claude-3-5-sonnet': price(3, 15, 3.75, 0.3),
  'claude-3-5-haiku': price(0.8, 4, 1, 0.08),
  'claude-3-opus': price(15, 75, 18.75, 1.5),
  'claude-3-sonnet': price(3, 15, 3.75, 0.3),
  'claude-3-haiku': price(0.25, 1.25, 0.3, 0.03),
  /*
   * Google's list prices for the Gemini API, standard tier, prompts up to 200k tokens (longer
   * prompts cost more; not applied, like Anthropic's long-context rate): the Gemini Developer API
   * pricing page, https://ai.google.dev/gemini-api/docs/pricing. Output includes thinking tokens.
   * Gemini charges nothing extra to write its (implicit) cache, so a cache write is priced as
   * input; cached tokens read are "context caching". Preview and other Gemini models are unpriced.
   */
  'gemini-3-pro-preview': price(2, 12, 2, 0.2),
  'gemini-2.5-pro': price(1.25, 10, 1.25, 0.125),
  'gemini-2.5-flash': price(0.3, 2.5, 0.3, 0.03),
  'gemini-2.5-flash-lite': price(0.1, 0.4, 0.1, 0.01),
  'gemini-2.0-flash': price(0.1, 0.4, 0.1, 0.025),
};

const SNAPSHOT = /^-\d{8}$/;

/** The price of `model` in `list`, or null (see PriceList for how keys match). */
export function priceOf(model: string, list: PriceList): ModelPrice | null {
  let prefix: { length: number; price: ModelPrice } | null = null;
  for (const [key, p] of Object.entries(list)) {
    if (key.endsWith('*')) {
      const stem = key.slice(0, -1);
      if (model.startsWith(stem) && (!prefix || stem.length > prefix.length))
        prefix = { length: stem.length, price: p };
    } else if (model === key || (model.startsWith(key) && SNAPSHOT.test(model.slice(key.length)))) {
      return p;
    }
  }
  return prefix?.price ?? null;
}

/** The user's prices over the list prices: a model the user prices is priced their way. */
export function withListPrices(user: PriceList): PriceList {
  // fromEntries makes own members, even one named __proto__; a later entry wins.
  return Object.fromEntries([...Object.entries(LIST_PRICES), ...Object.entries(user)]);
}

/** Dollars for `tokens` at `p`. */
export function usageCost(tokens: TokenUsage, p: ModelPrice): number {
  return (
    (tokens.input * p.input +
      tokens.output * p.output +
      tokens.cacheWrite * p.cacheWrite +
      tokens.cacheRead * p.cacheRead) /
    1_000_000
  );
}

export interface SessionCost {
  /** Dollars for the tokens that have a price; null when there are tokens and none has one. */
  usd: number | null;
  /** Whether every token was priced: false when some model has no price or the split is unknown. */
  complete: boolean;
  /** Each model's dollars (null: no price for it); `''` holds tokens whose line named no model. */
  byModel: Record<string, number | null>;
}

export const hasTokens = (t: TokenUsage) => tokenSum(t) > 0;

/**
 * A session's tokens by model: its summary's split, or, for a summary written before the split was
 * kept, all of them from its one model; null when it used several (the split is unknown).
 */
export function tokenSplit(
  tokens: TokenUsage,
  byModel: Record<string, TokenUsage> | undefined,
  models: readonly string[],
): Record<string, TokenUsage> | null {
  if (byModel) return byModel;
  const real = models.filter((m) => !m.startsWith('<'));
  if (real.length === 1) return { [real[0]!]: tokens };
  return hasTokens(tokens) ? null : {};
}

/** The cost of tokens split by model (`unsplit`: tokens no model can be told for, unpriced). */
export function splitCost(
  split: Iterable<[string, TokenUsage]>,
  list: PriceList,
  unsplit = false,
): SessionCost {
  const costs: Array<[string, number | null]> = [];
  for (const [model, t] of split) {
    if (!hasTokens(t)) continue;
    const p = priceOf(model, list);
    costs.push([model, p && usageCost(t, p)]);
  }
  const priced = costs.flatMap(([, usd]) => (usd === null ? [] : [usd]));
  const complete = !unsplit && priced.length === costs.length;
  return {
    // Nothing to price costs nothing; tokens of which none has a price cost unknown.
    usd: priced.length > 0 ? priced.reduce((a, b) => a + b, 0) : complete ? 0 : null,
    complete,
    byModel: Object.fromEntries(costs), // own members, even one named __proto__
  };
}

/** The cost of a session's tokens (see `tokenSplit` for a summary without the split). */
export function sessionCost(
  tokens: TokenUsage,
  byModel: Record<string, TokenUsage> | undefined,
  models: readonly string[],
  list: PriceList,
): SessionCost {
  const split = tokenSplit(tokens, byModel, models);
  return split ? splitCost(Object.entries(split), list) : splitCost([], list, true);
}
