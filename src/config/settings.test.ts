import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultSettings, loadSettings, resolveSettings, SETTING_SPECS } from './settings.js';

describe('settings', () => {
  it('has the documented defaults', () => {
    expect(defaultSettings()).toEqual({
      userSettings: { transcriptPageSize: 100, transcriptAutoLoadMax: 2000, sessionListPageSize: 100 },
      system: { sessions: { idleThresholdMs: 300_000, liveWindowMs: 86_400_000 } },
    });
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
