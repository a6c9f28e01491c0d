import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { apiTokenFile, readStoredApiToken, resolveApiToken, sameHost, storeApiToken } from './api-token.js';

const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});

/** An environment with a config dir of its own. */
function envWithHome(extra: Record<string, string> = {}) {
  const home = mkdtempSync(path.join(tmpdir(), 'ct-token-'));
  homes.push(home);
  return { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), ...extra };
}

describe('the stored API token', () => {
  it('is kept with the address it was given for, mode 600', () => {
    const env = envWithHome();
    const file = apiTokenFile(env);
    expect(storeApiToken(file, 'tok', 'http://team.example:7650')).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('tok\nhttp://team.example:7650\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(storeApiToken(file, 'tok', 'http://team.example:7650')).toBe(false);
    expect(storeApiToken(file, 'tok', 'http://other.example:7650')).toBe(true);
    expect(readStoredApiToken(file)).toEqual({ token: 'tok', url: 'http://other.example:7650' });
  });

  it('goes to the host it was stored for alone; the environment’s token goes anywhere', () => {
    const env = envWithHome();
    storeApiToken(apiTokenFile(env), 'tok', 'http://team.example:7650');
    expect(resolveApiToken(env, 'http://team.example:7650').token).toBe('tok');
    expect(resolveApiToken(env, 'https://TEAM.example:443').token).toBe('tok');
    expect(resolveApiToken(env, 'http://elsewhere.example:7650')).toEqual({ token: undefined, source: null });
    const withEnv = { ...env, CT_API_TOKEN: 'from-env' };
    expect(resolveApiToken(withEnv, 'http://elsewhere.example:7650')).toEqual({
      token: 'from-env',
      source: 'CT_API_TOKEN',
    });
  });

  it('is not sent from a file that names no address, nor when there is none', () => {
    const env = envWithHome();
    expect(resolveApiToken(env, 'http://127.0.0.1:7650').token).toBeUndefined();
    const file = apiTokenFile(env);
    storeApiToken(file, 'tok', 'http://127.0.0.1:7650');
    writeFileSync(file, 'tok\n');
    expect(resolveApiToken(env, 'http://127.0.0.1:7650').token).toBeUndefined();
  });

  it('counts loopback names as one host, whatever the port', () => {
    expect(sameHost('http://127.0.0.1:7650', 'http://localhost:7700')).toBe(true);
    expect(sameHost('http://[::1]:7650', 'http://127.0.0.1:7650')).toBe(true);
    expect(sameHost('http://127.0.0.1:7650', 'http://192.168.1.5:7650')).toBe(false);
    expect(sameHost('http://a.example', 'http://a.example.evil.test')).toBe(false);
    expect(sameHost('not a url', 'http://a.example')).toBe(false);
  });
});
