import { describe, expect, it } from 'vitest';
import {
  EM_DASH,
  formatBytes,
  formatCost,
  formatDuration,
  formatTotalsCost,
  formatUsd,
  modelShares,
  modelLabel,
} from './display-format.js';

describe('formatDuration', () => {
  it('shows an em dash when the API could not derive a duration', () => {
    expect(formatDuration(null)).toBe(EM_DASH);
    expect(formatDuration(undefined)).toBe(EM_DASH);
    expect(formatDuration(Number.NaN)).toBe(EM_DASH);
    expect(formatDuration(-5)).toBe(EM_DASH);
    expect(EM_DASH).toBe('\u2014');
  });
  it('scales from milliseconds to days', () => {
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(850)).toBe('850ms');
    expect(formatDuration(45_000)).toBe('45s');
    expect(formatDuration(192_000)).toBe('3m 12s');
    expect(formatDuration(3_900_000)).toBe('1h 05m');
    expect(formatDuration(183_600_000)).toBe('2d 3h');
  });
  it('cuts rather than rounds, so every surface reads one duration alike', () => {
    // 45 min 39.786 s: the UI, `transcripts show` and the Markdown export all say 45m 39s.
    expect(formatDuration(2_739_786)).toBe('45m 39s');
    expect(formatDuration(12_578_152)).toBe('3h 29m');
    expect(formatDuration(59_999)).toBe('59s');
  });
});

describe('formatBytes', () => {
  it('uses binary units', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1229)).toBe('1.2 KB');
    expect(formatBytes(4_370_000)).toBe('4.2 MB');
    expect(formatBytes(5 * 1024 ** 4)).toBe('5 TB');
    expect(formatBytes(-1)).toBe(EM_DASH);
  });
});

describe('formatUsd and formatCost', () => {
  it('shows dollars to the cent, a trace as under a cent', () => {
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(0.004)).toBe('<$0.01');
    expect(formatUsd(0.42)).toBe('$0.42');
    expect(formatUsd(1234.567)).toBe('$1,234.57');
    expect(formatUsd(1_000_000)).toBe('$1,000,000.00');
    expect(formatUsd(null)).toBe(EM_DASH);
    expect(formatUsd(Number.NaN)).toBe(EM_DASH);
  });
  it('says which models have no price, and when the split is unknown', () => {
    const priced = { usd: 12.3, complete: true, byModel: { a: 12.3 } };
    const part = { usd: 12.3, complete: false, byModel: { a: 12.3, 'claude-opus-5': null, '': null } };
    const none = { usd: null, complete: false, byModel: { 'claude-fable-5': null } };
    const unsplit = { usd: null, complete: false, byModel: {} };
    expect(formatCost(priced)).toBe('$12.30');
    expect(formatCost(part)).toBe('$12.30 + unpriced claude-opus-5, no model named');
    expect(formatCost(none)).toBe('unpriced claude-fable-5');
    expect(formatCost(unsplit)).toBe('unknown (tokens not split by model)');
    expect([priced, part, none, unsplit].map((c) => formatCost(c, true))).toEqual([
      '$12.30',
      '$12.30+',
      '?',
      '?',
    ]);
    expect(formatCost({ usd: 0, complete: true, byModel: {} })).toBe('$0.00');
  });
  it("lists each model's share dearest first, those without a price last", () => {
    expect(modelShares({ cheap: 0.004, 'claude-fable-5': null, dear: 1234.5, '': null })).toEqual([
      'dear $1,234.50',
      'cheap <$0.01',
      'no model named no price',
      'claude-fable-5 no price',
    ]);
  });
});

describe('formatTotalsCost', () => {
  const priced = { model: 'claude-sonnet-4-20250514', usd: 12.3 };
  it('reads a complete total as its figure', () => {
    expect(formatTotalsCost({ usd: 3412.5, complete: true, byModel: [priced] })).toBe('$3,412.50');
    expect(formatTotalsCost({ usd: 0, complete: true, byModel: [] })).toBe('$0.00');
  });
  it('names one or two models without a price', () => {
    const unpriced = { model: 'claude-opus-5', usd: null };
    expect(formatTotalsCost({ usd: 12.3, complete: false, byModel: [priced, unpriced] })).toBe(
      '$12.30 + unpriced claude-opus-5',
    );
    expect(formatTotalsCost({ usd: null, complete: false, byModel: [unpriced] })).toBe(
      'unpriced claude-opus-5',
    );
    expect(
      formatTotalsCost({
        usd: 12.3,
        complete: false,
        byModel: [priced, unpriced, { model: 'claude-fable-5', usd: null }],
      }),
    ).toBe('$12.30 + unpriced claude-opus-5, claude-fable-5');
  });
  it('says only that the figure is a floor with more unpriced models or tokens not split', () => {
    const three = ['a', 'b', 'c'].map((model) => ({ model, usd: null }));
    expect(formatTotalsCost({ usd: 12.3, complete: false, byModel: [priced, ...three] })).toBe('$12.30+');
    const unsplit = { model: null, usd: null };
    // Never "unknown (tokens not split by model)" while other models are priced.
    expect(formatTotalsCost({ usd: 12.3, complete: false, byModel: [priced, unsplit] })).toBe('$12.30+');
    expect(
      formatTotalsCost({ usd: 12.3, complete: false, byModel: [priced, unsplit, { model: 'x', usd: null }] }),
    ).toBe('$12.30+');
    expect(formatTotalsCost({ usd: null, complete: false, byModel: [unsplit] })).toBe('cost unknown');
    expect(formatTotalsCost({ usd: null, complete: false, byModel: three })).toBe('cost unknown');
  });
  it('names the models of the totals', () => {
    expect(modelLabel('claude-opus-5')).toBe('claude-opus-5');
    expect(modelLabel(null)).toBe('several models, not split');
    expect(modelLabel('')).toBe('no model named');
  });
});
