import { describe, expect, it } from 'vitest';
import { ApiError, apiErrorFromBody, isJsonType } from './api-error.js';

const at = { method: 'GET', url: 'http://127.0.0.1:7650/api/x', statusText: 'Not Found' };

describe('apiErrorFromBody: the one reading of an error answer', () => {
  it("takes the API's error body: its code and message", () => {
    const e = apiErrorFromBody(404, { error: { code: 'not_found', message: 'session "x" not found' } }, at);
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({ status: 404, code: 'not_found', message: 'session "x" not found' });
    expect(e).toMatchObject({ method: 'GET', url: at.url });
  });
  it('keeps any other body as the message, under http_<status>', () => {
    expect(apiErrorFromBody(502, '  Bad gateway from the proxy  ', at)).toMatchObject({
      code: 'http_502',
      message: 'Bad gateway from the proxy',
    });
    expect(apiErrorFromBody(500, { detail: 'x' }, at).message).toBe('{"detail":"x"}');
    expect(apiErrorFromBody(500, 'y'.repeat(900), at).message).toHaveLength(500);
  });
  it('falls back to the status text, then the status', () => {
    expect(apiErrorFromBody(404, '', at).message).toBe('Not Found');
    expect(apiErrorFromBody(418, undefined, { method: 'PUT', url: '/api/x' }).message).toBe('HTTP 418');
  });
  it('knows a JSON content type', () => {
    expect(isJsonType('application/json; charset=UTF-8')).toBe(true);
    expect(isJsonType('application/problem+json')).toBe(true);
    expect(isJsonType('application/x-ndjson')).toBe(false);
    expect(isJsonType(null)).toBe(false);
  });
});
