import { describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import { isLoopbackHost, isWildcardHost, readServiceEnv } from './env.js';

describe('readServiceEnv', () => {
  it('defaults to 127.0.0.1:7650', () => {
    const e = readServiceEnv({});
    expect(e).toMatchObject({ host: '127.0.0.1', port: 7650, hostFromEnv: false, portFromEnv: false });
    expect(e.apiToken).toBeUndefined();
    expect(e.staticDir).toBeUndefined();
    expect(e.allowedHosts).toEqual([]);
  });

  it('reads every variable and treats blanks as unset', () => {
    const e = readServiceEnv({
      WEBAPI_HOST: '0.0.0.0',
      WEBAPI_PORT: '8000',
      CT_STATIC_DIR: '/ui',
      CT_API_TOKEN: 's3cret',
      CT_ALLOWED_HOSTS: 'a.example, b.example',
    });
    expect(e).toMatchObject({ host: '0.0.0.0', port: 8000, staticDir: '/ui', apiToken: 's3cret' });
    expect(e.allowedHosts).toEqual(['a.example', 'b.example']);
    expect(readServiceEnv({ WEBAPI_PORT: '', CT_API_TOKEN: ' ' })).toMatchObject({
      port: 7650,
      apiToken: undefined,
    });
  });

  it('rejects a malformed port, naming the variable', () => {
    expect(() => readServiceEnv({ WEBAPI_PORT: 'abc' })).toThrow(ConfigError);
    expect(() => readServiceEnv({ WEBAPI_PORT: '70000' })).toThrow(/WEBAPI_PORT/);
  });
});

describe('host classes', () => {
  it('recognises loopback and wildcard addresses', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'])
      expect(isLoopbackHost(h)).toBe(true);
    for (const h of ['0.0.0.0', '192.168.1.2', '::', 'example.com']) expect(isLoopbackHost(h)).toBe(false);
    expect(isWildcardHost('0.0.0.0')).toBe(true);
    expect(isWildcardHost('[::]')).toBe(true);
    expect(isWildcardHost('127.0.0.1')).toBe(false);
  });
});
