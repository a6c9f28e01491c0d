import { describe, expect, it } from 'vitest';
import { ApiConnectionError, ApiError } from '../client/api-error.js';
import { UsageError } from './errors.js';
import { refusedValue, type GivenValue } from './refused-value.js';

const URL = 'http://127.0.0.1:7650/api/sessions?offset=1000000000000000';
const bad = (message: string, status = 400) => new ApiError(status, 'bad_request', message, 'GET', URL);
const given = (entries: Array<[string, GivenValue]>) => new Map(entries);

describe('refusedValue', () => {
  const offset = given([['offset', { name: '--offset', value: '1000000000000000' }]]);

  it('turns a 400 naming a parameter the user gave into a usage error naming the flag', () => {
    const err = refusedValue(bad('query parameter offset: must be a non-negative integer'), offset);
    expect(err).toBeInstanceOf(UsageError);
    expect(err!.message).toBe(
      '--offset must be a non-negative integer, got "1000000000000000" (refused by the transcripts API at http://127.0.0.1:7650)',
    );
  });

  it('names body fields and path parameters by their flag or argument too, quoting the value once', () => {
    const to = given([['to', { name: '--to', value: '99' }]]);
    expect(refusedValue(bad('body field to: must be an integer from 0 to 10, got 99'), to)!.message).toBe(
      '--to must be an integer from 0 to 10, got 99 (refused by the transcripts API at http://127.0.0.1:7650)',
    );
    const steps = given([['steps', { name: '--steps', value: '99' }]]);
    expect(
      refusedValue(bad('body field steps: cannot be 99: the store is at version 10'), steps)!.message,
    ).toMatch(/^--steps cannot be 99: the store is at version 10 \(refused/);
    const id = given([['id', { name: '<id>', value: 'x' }]]);
    expect(refusedValue(bad('path parameter id: not a valid session id'), id)!.message).toMatch(
      /^<id>: not a valid session id, got "x" \(refused/,
    );
  });

  it('rewrites each named part of a message about several parameters, and keeps the others', () => {
    const err = refusedValue(
      bad(
        'query parameter limit: must be a non-negative integer; query parameter offset: must be a non-negative integer',
      ),
      offset,
    );
    expect(err!.message).toMatch(
      /^query parameter limit: must be a non-negative integer; --offset must be a non-negative integer, got "1000000000000000"/,
    );
  });

  it('leaves alone what is not the user’s value refused: other parameters, other statuses, other errors', () => {
    expect(refusedValue(bad('query parameter limit: must be a non-negative integer'), offset)).toBeNull();
    expect(
      refusedValue(bad('query parameter offset: must be a non-negative integer', 500), offset),
    ).toBeNull();
    expect(refusedValue(bad('session not found', 404), offset)).toBeNull();
    expect(refusedValue(bad('query parameter offset: must be a non-negative integer'), new Map())).toBeNull();
    expect(refusedValue(new ApiConnectionError(URL, 'cannot reach'), offset)).toBeNull();
    expect(refusedValue(new Error('query parameter offset: x'), offset)).toBeNull();
  });
});
