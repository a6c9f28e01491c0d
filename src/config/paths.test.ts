import { describe, expect, it } from 'vitest';
import {
  claudeProjectsDir,
  codexSessionsDir,
  defaultStaticDir,
  envValue,
  packageRoot,
  packageVersion,
  resolvePaths,
} from './paths.js';

describe('resolvePaths', () => {
  it('uses XDG defaults under HOME', () => {
    const p = resolvePaths({ HOME: '/home/u' });
    expect(p.configDir).toBe('/home/u/.config/transcripts');
    expect(p.dataDir).toBe('/home/u/.local/share/transcripts');
    expect(p.configFile).toBe('/home/u/.config/transcripts/config.json');
    expect(p.instanceEnvFile).toBe('/home/u/.config/transcripts/instance.env');
  });

  it('honours XDG_CONFIG_HOME and XDG_DATA_HOME', () => {
    const p = resolvePaths({ HOME: '/home/u', XDG_CONFIG_HOME: '/cfg', XDG_DATA_HOME: '/data' });
    expect(p.configDir).toBe('/cfg/transcripts');
    expect(p.dataDir).toBe('/data/transcripts');
  });

  it('lets CT_HOME override both', () => {
    const p = resolvePaths({ HOME: '/home/u', XDG_CONFIG_HOME: '/cfg', CT_HOME: '/ct' });
    expect(p.configDir).toBe('/ct/config');
    expect(p.dataDir).toBe('/ct/data');
  });

  it('treats blank variables as unset', () => {
    const p = resolvePaths({ HOME: '/home/u', CT_HOME: '  ', XDG_DATA_HOME: '' });
    expect(p.dataDir).toBe('/home/u/.local/share/transcripts');
    expect(envValue({ A: ' ' }, 'A')).toBeUndefined();
    expect(envValue({ A: ' x ' }, 'A')).toBe('x');
  });

  it('finds ~/.claude/projects from HOME', () => {
    expect(claudeProjectsDir({ HOME: '/home/u' })).toBe('/home/u/.claude/projects');
  });

  it("finds Codex's sessions under CODEX_HOME, else ~/.codex", () => {
    expect(codexSessionsDir({ HOME: '/home/u' })).toBe('/home/u/.codex/sessions');
    expect(codexSessionsDir({ HOME: '/home/u', CODEX_HOME: '/data/codex' })).toBe('/data/codex/sessions');
    expect(codexSessionsDir({ HOME: '/home/u', CODEX_HOME: ' ' })).toBe('/home/u/.codex/sessions');
  });
});

describe('package', () => {
  it('finds the package root, version and UI build dir', () => {
    expect(packageRoot()).toMatch(/main$|transcripts$|\/[^/]+$/);
    expect(packageVersion()).toMatch(/^\d+\.\d+\.\d+/);
    expect(defaultStaticDir()).toBe(`${packageRoot()}/web/dist`);
  });
});
