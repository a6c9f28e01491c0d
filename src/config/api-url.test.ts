import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeApiUrl, dialHost, normaliseApiUrl, resolveApiUrl } from './api-url.js';
import { ConfigError } from './config-error.js';

function instanceFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'ct-url-'));
  const file = join(dir, 'instance.env');
  writeFileSync(file, text);
  return file;
}

describe('resolveApiUrl', () => {
  const none = join(tmpdir(), 'ct-url-none', 'instance.env');

  it('prefers --webapi', () => {
    const r = resolveApiUrl({ flag: 'http://h:1/', env: { WEBAPI_PORT: '2' }, instanceEnvFile: none });
    expect(r).toEqual({ url: 'http://h:1', source: 'flag', detail: '--webapi http://h:1/' });
  });

  it('then CT_API_URL, a whole URL (https, a path prefix), over WEBAPI_HOST / WEBAPI_PORT', () => {
    const env = { CT_API_URL: 'https://transcripts.example.com/team/api/', WEBAPI_PORT: '7700' };
    expect(resolveApiUrl({ env, instanceEnvFile: none })).toEqual({
      url: 'https://transcripts.example.com/team',
      source: 'env',
      detail: 'CT_API_URL=https://transcripts.example.com/team/api/',
    });
    expect(resolveApiUrl({ flag: 'http://h:1', env, instanceEnvFile: none }).url).toBe('http://h:1');
    expect(() => resolveApiUrl({ env: { CT_API_URL: 'ftp://x' }, instanceEnvFile: none })).toThrow(
      /CT_API_URL: "ftp:\/\/x" must be an http:\/\/ or https:\/\/ URL/,
    );
    expect(resolveApiUrl({ env: { CT_API_URL: ' ', WEBAPI_PORT: '7700' }, instanceEnvFile: none }).url).toBe(
      'http://127.0.0.1:7700',
    );
  });

  it('then WEBAPI_HOST / WEBAPI_PORT', () => {
    expect(resolveApiUrl({ env: { WEBAPI_PORT: '7700' }, instanceEnvFile: none })).toMatchObject({
      url: 'http://127.0.0.1:7700',
      source: 'env',
      detail: 'WEBAPI_PORT=7700',
    });
    expect(resolveApiUrl({ env: { WEBAPI_HOST: '0.0.0.0' }, instanceEnvFile: none }).url).toBe(
      'http://127.0.0.1:7650',
    );
    expect(resolveApiUrl({ env: { WEBAPI_HOST: '::' }, instanceEnvFile: none }).url).toBe(
      'http://[::1]:7650',
    );
  });

  it('then the installed instance.env', () => {
    const file = instanceFile('WEBAPI_HOST=0.0.0.0\nWEBAPI_PORT=7702\n');
    expect(resolveApiUrl({ env: { WEBAPI_PORT: ' ' }, instanceEnvFile: file })).toEqual({
      url: 'http://127.0.0.1:7702',
      source: 'instance.env',
      detail: file,
    });
  });

  it('then the default', () => {
    const r = resolveApiUrl({ env: {}, instanceEnvFile: none });
    expect(r).toMatchObject({ url: 'http://127.0.0.1:7650', source: 'default' });
    expect(describeApiUrl(r)).toMatch(/default/);
  });

  it('finds instance.env through CT_HOME', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ct-url-home-'));
    const file = join(dir, 'config', 'instance.env');
    mkdirSync(join(dir, 'config'));
    writeFileSync(file, 'WEBAPI_PORT=7703\n');
    expect(resolveApiUrl({ env: { CT_HOME: dir } })).toMatchObject({
      url: 'http://127.0.0.1:7703',
      source: 'instance.env',
    });
  });

  it('normalises --webapi values and rejects junk', () => {
    expect(normaliseApiUrl('localhost:7650')).toBe('http://localhost:7650');
    expect(normaliseApiUrl('http://0.0.0.0:7650/api/')).toBe('http://127.0.0.1:7650');
    expect(normaliseApiUrl('https://x.example/base/')).toBe('https://x.example/base');
    expect(() => normaliseApiUrl('ftp://x')).toThrow(ConfigError);
    expect(() => normaliseApiUrl('http://')).toThrow(ConfigError);
    expect(() => resolveApiUrl({ env: { WEBAPI_PORT: 'x' }, instanceEnvFile: none })).toThrow(/WEBAPI_PORT/);
  });

  it('dials wildcards as loopback and brackets IPv6', () => {
    expect(dialHost('0.0.0.0')).toBe('127.0.0.1');
    expect(dialHost('::1')).toBe('[::1]');
    expect(dialHost('example.com')).toBe('example.com');
  });
});
