import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIST_PRICES, priceOf } from '../core/pricing.js';
import { defaultSettings, loadSettings, resolveSettings, SETTING_SPECS } from './settings.js';

describe('settings', () => {
  it('has the documented defaults', () => {
    expect(defaultSettings()).toEqual({
      userSettings: { transcriptPageSize: 100, transcriptAutoLoadMax: 2000, sessionListPageSize: 100 },
      system: { sessions: { idleThresholdMs: 300_000, liveWindowMs: 86_400_000 } },
      prices: LIST_PRICES,
      secretPatterns: [],
    });
  });

  it("reads config.json's own secret patterns, leaving out the ones that cannot work", () => {
    const { settings, warnings } = resolveSettings({
      secrets: {
        patterns: { 'internal-token': 'itk_[0-9a-f]{16}', broken: '(', empty: 'x*', 'bad name!': 'y' },
      },
    });
    expect(settings.secretPatterns.map((p) => [p.rule, p.regex.source])).toEqual([
      ['internal-token', 'itk_[0-9a-f]{16}'],
    ]);
    expect(warnings).toHaveLength(3);
    expect(warnings.join('\n')).toMatch(/secrets\.patterns\.broken: .*left out/);
    expect(warnings.join('\n')).toContain('secrets.patterns.empty: matches the empty text; left out');
  });

  it('reads model prices over the list prices, a cache price left out being the input price', () => {
    const { settings, warnings } = resolveSettings({
      prices: {
        'claude-fable-5': { input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.2 },
        'gpt-5*': { input: 1.25, output: 10 },
        'claude-opus-4-1': { input: 1, output: 2 },
      },
    });
    expect(warnings).toEqual([]);
    expect(priceOf('claude-fable-5', settings.prices)).toEqual({
      input: 2,
      output: 10,
      cacheWrite: 2.5,
      cacheRead: 0.2,
    });
    expect(priceOf('gpt-5.6-sol', settings.prices)).toEqual({
      input: 1.25,
      output: 10,
      cacheWrite: 1.25,
      cacheRead: 1.25,
    });
    expect(priceOf('claude-opus-4-1-20250805', settings.prices)?.output).toBe(2);
    expect(priceOf('claude-haiku-4-5', settings.prices)).toEqual(LIST_PRICES['claude-haiku-4-5']);
  });

  it('leaves out a bad price with a warning naming it, keeping the others', () => {
    const { settings, warnings } = resolveSettings({
      prices: {
        'no-output': { input: 1 },
        negative: { input: -1, output: 1 },
        words: { input: 'cheap', output: 1 },
        '': { input: 1, output: 1 },
        good: { input: 1, output: 1 },
      },
    });
    expect(warnings.map((w) => w.split(':')[0])).toEqual([
      'prices.no-output',
      'prices.negative',
      'prices.words',
      'prices.',
    ]);
    expect(warnings[0]).toMatch(/needs input and output prices/);
    expect(priceOf('good', settings.prices)?.input).toBe(1);
    expect(priceOf('negative', settings.prices)).toBeNull();
    expect(resolveSettings({ prices: [1] }).warnings[0]).toMatch(/^prices: \[1\] is not an object/);
    expect(resolveSettings({ prices: [1] }).settings.prices).toEqual(LIST_PRICES);
  });

  it('reads nested and dotted keys', () => {
    const { settings, warnings } = resolveSettings({
      userSettings: { transcriptPageSize: 50 },
      'system.sessions.liveWindowMs': 3_600_000,
    });
    expect(settings.userSettings.transcriptPageSize).toBe(50);
    expect(settings.system.sessions.liveWindowMs).toBe(3_600_000);
    expect(warnings).toEqual([]);
  });

  it('clamps out-of-range values, idle threshold at the activity floor', () => {
    const { settings, warnings } = resolveSettings({
      userSettings: { transcriptPageSize: 1_000_000, sessionListPageSize: 0 },
      system: { sessions: { idleThresholdMs: 1000 } },
    });
    expect(settings.userSettings.transcriptPageSize).toBe(1000);
    expect(settings.userSettings.sessionListPageSize).toBe(10);
    expect(settings.system.sessions.idleThresholdMs).toBe(60_000);
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(/transcriptPageSize/);
  });

  it('falls back to the default for nonsense, accepts numeric strings', () => {
    const { settings, warnings } = resolveSettings({
      userSettings: { transcriptPageSize: 'lots', transcriptAutoLoadMax: '500', sessionListPageSize: null },
      system: { sessions: { idleThresholdMs: [1], liveWindowMs: Number.NaN } },
    });
    expect(settings.userSettings.transcriptPageSize).toBe(100);
    expect(settings.userSettings.transcriptAutoLoadMax).toBe(500);
    expect(settings.userSettings.sessionListPageSize).toBe(100);
    expect(settings.system.sessions.idleThresholdMs).toBe(300_000);
    expect(settings.system.sessions.liveWindowMs).toBe(86_400_000);
    expect(warnings.length).toBe(4);
  });

  it('treats a non-object config as defaults with a warning', () => {
    expect(resolveSettings([1, 2]).warnings[0]).toMatch(/not a JSON object/);
    expect(resolveSettings('x').settings).toEqual(defaultSettings());
  });

  it('loads config.json: missing → defaults, broken → defaults + warning', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ct-settings-'));
    expect(loadSettings(join(dir, 'absent.json'))).toEqual({ settings: defaultSettings(), warnings: [] });
    writeFileSync(join(dir, 'bad.json'), '{ nope');
    const bad = loadSettings(join(dir, 'bad.json'));
    expect(bad.settings).toEqual(defaultSettings());
    expect(bad.warnings[0]).toMatch(/not valid JSON/);
    writeFileSync(join(dir, 'ok.json'), JSON.stringify({ userSettings: { transcriptPageSize: 20 } }));
    expect(loadSettings(join(dir, 'ok.json')).settings.userSettings.transcriptPageSize).toBe(20);
  });

  it('every spec default lies inside its range', () => {
    for (const s of SETTING_SPECS) {
      expect(s.default).toBeGreaterThanOrEqual(s.min);
      expect(s.default).toBeLessThanOrEqual(s.max);
    }
  });
});
