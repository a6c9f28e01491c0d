import { describe, expect, it } from 'vitest';
import { DEFAULT_STALL_MS, KEEP_ALIVE_MS, stallTimeoutMs, timeoutServerOptions } from './timeouts.js';

describe('stallTimeoutMs', () => {
  it('defaults to 60 s and takes whole milliseconds of at least 100', () => {
    expect(stallTimeoutMs({})).toBe(DEFAULT_STALL_MS);
    expect(stallTimeoutMs({ CT_STALL_TIMEOUT_MS: ' ' })).toBe(60_000);
    expect(stallTimeoutMs({ CT_STALL_TIMEOUT_MS: '500' })).toBe(500);
  });

  it('refuses anything else, naming the variable', () => {
    for (const v of ['abc', '-1', '1.5', '99', '1e3'])
      expect(() => stallTimeoutMs({ CT_STALL_TIMEOUT_MS: v }), v).toThrow(
        `CT_STALL_TIMEOUT_MS must be a whole number of milliseconds, at least 100, got "${v}"`,
      );
  });
});

describe('timeoutServerOptions', () => {
  it('never times a whole request, times headers by the stall limit, checks often enough for it', () => {
    expect(timeoutServerOptions(60_000)).toEqual({
      requestTimeout: 0,
      headersTimeout: 60_000,
      keepAliveTimeout: KEEP_ALIVE_MS,
      connectionsCheckingInterval: 15_000,
    });
    expect(timeoutServerOptions(200).connectionsCheckingInterval).toBe(50);
  });
});
