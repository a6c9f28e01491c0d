import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { reprDigest, sha256OfReprDigest, wantsSha256 } from './repr-digest.js';

describe('Want-Repr-Digest', () => {
  it('asks for sha-256 with a preference from 1 to 10, or as a bare key', () => {
    expect(wantsSha256('sha-256=10')).toBe(true);
    expect(wantsSha256('sha-512=3, sha-256=1')).toBe(true);
    expect(wantsSha256('SHA-256=5')).toBe(true);
    expect(wantsSha256('sha-256')).toBe(true);
  });

  it('does not ask for it when absent, refused (0) or malformed', () => {
    for (const field of [
      undefined,
      null,
      '',
      'sha-512=10',
      'sha-256=0',
      'sha-256=11',
      'sha-256=x',
      'sha-2566=1',
    ])
      expect(wantsSha256(field), String(field)).toBe(false);
  });
});

describe('Repr-Digest', () => {
  const hex = createHash('sha256').update('abc\n').digest('hex');

  it('round-trips a sha-256 through the field', () => {
    expect(reprDigest(hex)).toBe(`sha-256=:${Buffer.from(hex, 'hex').toString('base64')}:`);
    expect(sha256OfReprDigest(reprDigest(hex))).toBe(hex);
    expect(sha256OfReprDigest(`sha-512=:AAAA:, ${reprDigest(hex)}`)).toBe(hex);
  });

  it('finds none in an absent, other or malformed field', () => {
    for (const field of [null, '', 'sha-512=:AAAA:', 'sha-256=abc', 'sha-256=:AAAA:'])
      expect(sha256OfReprDigest(field), String(field)).toBeNull();
  });
});
