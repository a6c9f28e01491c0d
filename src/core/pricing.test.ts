import { describe, expect, it } from 'vitest';
import type { TokenUsage } from './documents.js';
import { LIST_PRICES, priceOf, sessionCost, usageCost, withListPrices, type PriceList } from './pricing.js';

const u = (input: number, output: number, cacheWrite = 0, cacheRead = 0): TokenUsage => ({
  input,
  output,
  cacheWrite,
  cacheRead,
});
const M = 1_000_000;

describe('pricing', () => {
  it('prices a model by its name and its dated snapshots, and nothing merely alike', () => {
    expect(priceOf('claude-opus-4-1-20250805', LIST_PRICES)).toEqual(LIST_PRICES['claude-opus-4-1']);
    expect(priceOf('claude-opus-4-20250514', LIST_PRICES)).toEqual(LIST_PRICES['claude-opus-4']);
    expect(priceOf('claude-opus-4-5-20251101', LIST_PRICES)?.input).toBe(5);
    expect(priceOf('claude-sonnet-4', LIST_PRICES)?.output).toBe(15);
    // Later models, and names that only start alike, have no price rather than a guessed one.
    for (const model of [
      'claude-opus-4-8',
      'claude-opus-5',
      'claude-fable-5',
      'claude-sonnet-4-5x',
      'gpt-5.5',
      '',
    ])
      expect(priceOf(model, LIST_PRICES)).toBeNull();
  });

  it('prices the Gemini models Google lists, and leaves the others unpriced', () => {
    expect(priceOf('gemini-2.5-pro', LIST_PRICES)).toEqual({
      input: 1.25,
      output: 10,
      cacheWrite: 1.25,
      cacheRead: 0.125,
    });
    expect(priceOf('gemini-2.5-flash-lite', LIST_PRICES)?.output).toBe(0.4);
    // A preview or a newer model is not priced from its family's name.
    expect(priceOf('gemini-2.5-flash-preview-09-2025', LIST_PRICES)).toBeNull();
    expect(priceOf('gemini-3-flash-preview', LIST_PRICES)).toBeNull();
    const tokens = { input: 1_000_000, output: 100_000, cacheWrite: 0, cacheRead: 2_000_000 };
    const cost = sessionCost(tokens, { 'gemini-2.5-pro': tokens }, ['gemini-2.5-pro'], LIST_PRICES);
    expect(cost.usd).toBeCloseTo(1.25 + 1 + 0.25, 10);
  });

  it('lets a price list name a prefix, the longest winning, an exact name before any', () => {
    const list: PriceList = {
      'gpt-5*': { input: 1, output: 2, cacheWrite: 1, cacheRead: 0.1 },
      'gpt-5.6*': { input: 3, output: 4, cacheWrite: 3, cacheRead: 0.3 },
      'gpt-5.6-sol': { input: 9, output: 9, cacheWrite: 9, cacheRead: 9 },
    };
    expect(priceOf('gpt-5.2-codex', list)?.input).toBe(1);
    expect(priceOf('gpt-5.6-luna', list)?.input).toBe(3);
    expect(priceOf('gpt-5.6-sol', list)?.input).toBe(9);
    expect(priceOf('gpt-4', list)).toBeNull();
  });

  it("puts the user's prices over the list prices", () => {
    const mine = withListPrices({ 'claude-opus-4-1': { input: 1, output: 1, cacheWrite: 1, cacheRead: 1 } });
    expect(priceOf('claude-opus-4-1-20250805', mine)?.input).toBe(1);
    expect(priceOf('claude-haiku-4-5-20251001', mine)).toEqual(LIST_PRICES['claude-haiku-4-5']);
  });

  it('counts each kind of token at its own price', () => {
    expect(usageCost(u(M, M, M, M), LIST_PRICES['claude-sonnet-4-5']!)).toBeCloseTo(3 + 15 + 3.75 + 0.3, 10);
    expect(usageCost(u(2000, 500), LIST_PRICES['claude-opus-4-1']!)).toBeCloseTo(0.03 + 0.0375, 10);
  });

  it('prices a session model by model, and says when some of it has no price', () => {
    const byModel = { 'claude-sonnet-4-20250514': u(M, 0), 'claude-fable-5': u(M, M), '': u(0, 0, 0, 0) };
    const cost = sessionCost(
      u(2 * M, M),
      byModel,
      ['claude-sonnet-4-20250514', 'claude-fable-5'],
      LIST_PRICES,
    );
    expect(cost).toEqual({
      usd: 3,
      complete: false,
      byModel: { 'claude-sonnet-4-20250514': 3, 'claude-fable-5': null },
    });
    const none = sessionCost(u(M, M), { 'claude-fable-5': u(M, M) }, ['claude-fable-5'], LIST_PRICES);
    expect(none).toEqual({ usd: null, complete: false, byModel: { 'claude-fable-5': null } });
    expect(sessionCost(u(0, 0), undefined, [], LIST_PRICES)).toEqual({ usd: 0, complete: true, byModel: {} });
  });

  it('prices a summary written without the split when the session used one model, not when it used several', () => {
    const one = sessionCost(u(M, 0), undefined, ['claude-haiku-4-5-20251001', '<synthetic>'], LIST_PRICES);
    expect(one).toEqual({ usd: 1, complete: true, byModel: { 'claude-haiku-4-5-20251001': 1 } });
    const several = sessionCost(u(M, 0), undefined, ['claude-opus-4-1', 'claude-haiku-4-5'], LIST_PRICES);
    expect(several).toEqual({ usd: null, complete: false, byModel: {} });
  });

  it('keeps a model named __proto__ as a model', () => {
    const cost = sessionCost(
      u(M, 0),
      { ['__proto__']: u(M, 0) } as Record<string, TokenUsage>,
      [],
      LIST_PRICES,
    );
    expect(Object.keys(cost.byModel)).toEqual(['__proto__']);
    expect(JSON.parse(JSON.stringify(cost)).byModel).toEqual(JSON.parse('{"__proto__": null}'));
  });
});
