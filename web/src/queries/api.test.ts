import { describe, expect, it } from 'vitest';
import { ApiConnectionError, ApiError, describeError, isUnauthorized, shouldRetry } from './api.js';

describe('retries and error words', () => {
  it('retries a network failure or a 5xx once, never a 4xx', () => {
    const conn = new ApiConnectionError('the API', 'cannot reach it');
    expect(shouldRetry(0, conn)).toBe(true);
    expect(shouldRetry(1, conn)).toBe(false);
    expect(shouldRetry(0, new ApiError(503, 'service_unavailable', 'not built', 'GET', '/api/x'))).toBe(true);
    expect(shouldRetry(0, new ApiError(502, 'bad_gateway', 'proxy', 'GET', '/api/x'))).toBe(true);
    expect(shouldRetry(0, new ApiError(404, 'not_found', 'session "x" not found', 'GET', '/api/x'))).toBe(
      false,
    );
    expect(shouldRetry(0, new ApiError(401, 'unauthorized', 'token', 'GET', '/api/x'))).toBe(false);
    expect(shouldRetry(0, new ApiError(400, 'bad_request', 'from after to', 'GET', '/api/x'))).toBe(false);
  });
  it('tells a 401 apart: the instance wants a token', () => {
    const e = new ApiError(401, 'unauthorized', 'this instance requires a bearer token', 'GET', '/api/x');
    expect(isUnauthorized(e)).toBe(true);
    expect(describeError(e)).toMatchObject({ title: 'This instance needs an API token', status: 401 });
    expect(isUnauthorized(new ApiError(403, 'forbidden', 'host', 'GET', '/api/x'))).toBe(false);
  });
});
