import { afterEach, describe, expect, it } from 'vitest';
import { forgetToken, normaliseToken, readToken, saveToken, subscribeToken } from './api-token.js';

describe('the API token kept in the browser', () => {
  afterEach(() => forgetToken());

  it('keeps the token itself from what is pasted', () => {
    expect(normaliseToken('  abc123  ')).toBe('abc123');
    expect(normaliseToken('Bearer abc123')).toBe('abc123');
    expect(normaliseToken('bearer   abc123\n')).toBe('abc123');
    expect(normaliseToken('')).toBeNull();
    expect(normaliseToken('two words')).toBeNull();
    expect(normaliseToken('a\u0000b')).toBeNull();
  });

  it('saves, reads and forgets it (in memory where there is no storage), telling subscribers', () => {
    let calls = 0;
    const off = subscribeToken(() => calls++);
    expect(readToken()).toBeNull();
    expect(saveToken('Bearer s3cret')).toBe(true);
    expect(readToken()).toBe('s3cret');
    expect(saveToken('not one')).toBe(false);
    expect(readToken()).toBe('s3cret');
    forgetToken();
    expect(readToken()).toBeNull();
    off();
    saveToken('again');
    expect(calls).toBe(2);
  });
});
