import { describe, expect, it } from 'vitest';
import { canonicalJson, contentHash } from '../../core/revision.js';
import { encodeContent } from './encode-content.js';

describe('encodeContent', () => {
  const docs = [
    { _id: 'a', x: 1 },
    { _id: 'b', _rev: '3-abc', nested: { z: [1, { b: 2, a: 1 }], a: null }, s: 'é"\n' },
    { _id: 'c', dropped: undefined, kept: false },
  ];

  it('hashes exactly as core contentHash does', () => {
    for (const doc of docs) expect(encodeContent(doc).hash).toBe(contentHash(doc));
  });

  it('stores the canonical content without _id and _rev', () => {
    const { body } = encodeContent({ _id: 'b', _rev: '1-x', b: 2, a: { d: 1, c: 2 } });
    expect(body).toBe(canonicalJson({ a: { c: 2, d: 1 }, b: 2 }));
    expect(body).toBe('{"a":{"c":2,"d":1},"b":2}');
  });
});
