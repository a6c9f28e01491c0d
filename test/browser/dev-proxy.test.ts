/**
 * The dev server's proxy target (web/dev-proxy.ts), as pure logic: the port follows the seed's
 * order — WEBAPI_PORT, then the installed instance's instance.env, then 7650 — whatever
 * WEBAPI_HOST says; the host comes from WEBAPI_HOST when set; and the words for where it came
 * from name the environment or .env as the case is. (dev-server.test.ts runs the real dev server.)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { devProxyTarget, unreachableMessage } from '../../web/dev-proxy.js';

const dir = mkdtempSync(path.join(tmpdir(), 'ct-dev-proxy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function instanceEnv(text: string): string {
  const file = path.join(dir, `instance-${Math.random().toString(36).slice(2)}.env`);
  writeFileSync(file, text);
  return file;
}
const none = path.join(dir, 'absent.env');
const fromProcess = (names: string[]) => (n: string) => names.includes(n);

describe('dev proxy target', () => {
  it('(1) WEBAPI_PORT wins, and says whether the environment or .env set it', () => {
    const file = instanceEnv('WEBAPI_PORT=7711\n');
    const viaEnv = devProxyTarget({
      env: { WEBAPI_PORT: '7700' },
      fromEnvironment: fromProcess(['WEBAPI_PORT']),
      instanceEnvFile: file,
    });
    expect(viaEnv).toMatchObject({ url: 'http://127.0.0.1:7700', source: 'env' });
    expect(viaEnv.detail).toBe('port from WEBAPI_PORT=7700 in the environment');
    const viaDotenv = devProxyTarget({
      env: { WEBAPI_PORT: '7700' },
      fromEnvironment: fromProcess([]),
      instanceEnvFile: file,
    });
    expect(viaDotenv).toMatchObject({ url: 'http://127.0.0.1:7700', source: '.env' });
    expect(viaDotenv.detail).toBe('port from WEBAPI_PORT=7700 in .env');
    expect(unreachableMessage(viaDotenv, 'ECONNREFUSED')).toContain('WEBAPI_PORT=7700 in .env');
    expect(unreachableMessage(viaDotenv, 'ECONNREFUSED')).not.toContain('the environment');
  });

  it('(2) with WEBAPI_HOST alone, the port is still the installed instance’s', () => {
    const file = instanceEnv('# written by transcripts serve\nWEBAPI_HOST=127.0.0.1\nWEBAPI_PORT=7711\n');
    const t = devProxyTarget({
      env: { WEBAPI_HOST: 'localhost' },
      fromEnvironment: fromProcess([]),
      instanceEnvFile: file,
    });
    expect(t).toMatchObject({ url: 'http://localhost:7711', source: 'instance.env' });
    expect(t.detail).toBe(
      `port from the installed instance's ${file}, host from WEBAPI_HOST=localhost in .env`,
    );
    // Without WEBAPI_HOST the instance's own host is used.
    const own = devProxyTarget({
      env: {},
      instanceEnvFile: instanceEnv('WEBAPI_HOST=::\nWEBAPI_PORT=7712\n'),
    });
    expect(own.url).toBe('http://[::1]:7712');
  });

  it('(3) with neither, 7650 — on WEBAPI_HOST when it is set', () => {
    expect(devProxyTarget({ env: {}, instanceEnvFile: none })).toEqual({
      url: 'http://127.0.0.1:7650',
      source: 'default',
      detail: 'the default port 7650',
    });
    const t = devProxyTarget({
      env: { WEBAPI_HOST: '0.0.0.0' },
      fromEnvironment: fromProcess(['WEBAPI_HOST']),
      instanceEnvFile: none,
    });
    expect(t.url).toBe('http://127.0.0.1:7650');
    expect(t.detail).toBe('the default port 7650, host from WEBAPI_HOST=0.0.0.0 in the environment');
  });

  it('reads instance.env from CT_HOME when no file is given, and refuses a malformed port by name', () => {
    const home = mkdtempSync(path.join(dir, 'home-'));
    mkdirSync(path.join(home, 'config'));
    writeFileSync(path.join(home, 'config', 'instance.env'), 'WEBAPI_PORT=7713\n');
    expect(devProxyTarget({ env: { CT_HOME: home } }).url).toBe('http://127.0.0.1:7713');
    expect(() => devProxyTarget({ env: { WEBAPI_PORT: 'abc' }, fromEnvironment: fromProcess([]) })).toThrow(
      /WEBAPI_PORT \(in \.env\) must be a port number/,
    );
  });
});
