import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { projectLine } from './transcript/project-entry.js';
import { canonicalJson, contentHash, nextRev, parseRev } from './revision.js';

/** The canonical form spelled the obvious way: every object copied with its keys sorted. */
function reference(value: unknown): string {
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (v === null || typeof v !== 'object') return v;
    const out = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(v).sort()) {
      const member = (v as Record<string, unknown>)[key];
      if (member !== undefined) out[key] = sorted(member);
    }
    return out;
  };
  return JSON.stringify(sorted(value));
}

describe('revision', () => {
  it('hashes content independent of key order and ignores _id/_rev', () => {
    expect(canonicalJson({ b: 1, a: { d: 2, c: 3 } })).toBe('{"a":{"c":3,"d":2},"b":1}');
    expect(contentHash({ _id: 'x', _rev: '1-a', a: 1, b: 2 })).toBe(contentHash({ b: 2, a: 1 }));
    expect(contentHash({ a: 1 })).not.toBe(contentHash({ a: 2 }));
  });
  it('bumps the revision number', () => {
    expect(nextRev(undefined, 'ab')).toBe('1-ab');
    expect(nextRev('7-ff', 'cd')).toBe('8-cd');
    expect(parseRev('nonsense')).toBeNull();
  });
});

describe('canonicalJson', () => {
  const cases: Array<[string, unknown]> = [
    ['sorted already', { a: 1, b: { c: [1, { d: 2, e: null }] } }],
    ['unsorted deep inside a sorted object', { a: 1, b: [{ z: 1, y: 2 }], c: 'x' }],
    ['integer keys (JS puts them first)', { b: 1, 10: 'ten', 9: 'nine', a: 2, '01': 'not an index' }],
    ['integer keys only', { 2: 'b', 1: 'a' }],
    ['the largest index and the first non-index', { 4294967294: 1, 4294967295: 2, a: 3 }],
    ['undefined members dropped', { b: undefined, a: 1, c: { y: undefined, x: 2 } }],
    ['undefined in arrays written as null', [undefined, { b: 1, a: 2 }, undefined]],
    // eslint-disable-next-line no-sparse-arrays
    ['sparse arrays', [1, , { b: 1, a: 2 }]],
    ['empty things', { a: {}, b: [], c: '' }],
    ['unicode keys in UTF-16 order', { é: 1, z: 2, '𝒜': 3, Z: 4, _: 5 }],
    ['a Date, written from its own keys as before', { when: new Date(0), a: 1 }],
    ['scalars', 'text'],
  ];
  it.each(cases)('%s: the same bytes as sorting every object', (_name, value) => {
    expect(canonicalJson(value)).toBe(reference(value));
  });

  it('keeps a "__proto__" key as a member (JSON.parse makes it one)', () => {
    const value = JSON.parse('{"b":1,"__proto__":{"x":1},"a":2}') as unknown;
    expect(canonicalJson(value)).toBe('{"__proto__":{"x":1},"a":2,"b":1}');
    expect(canonicalJson(JSON.parse('{"__proto__":1}'))).toBe('{"__proto__":1}');
  });

  it('leaves its input untouched', () => {
    const value = { b: [{ d: 1, c: 2 }], a: 1 };
    const before = JSON.stringify(value);
    canonicalJson(value);
    expect(JSON.stringify(value)).toBe(before);
  });

  // Every line of the real corpus, as parsed and as projected into an entry.
  const root = path.resolve(
    fileURLToPath(new URL('../../', import.meta.url)),
    '../shared/corpus/claude-code',
  );
  const files = existsSync(root)
    ? readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.jsonl'))
    : [];
  it.skipIf(files.length === 0)('gives the same bytes as sorting every object on every corpus line', () => {
    let lines = 0;
    for (const file of files) {
      const text = readFileSync(path.join(root, file));
      let start = 0;
      for (let end = text.indexOf(10); start < text.length; end = text.indexOf(10, start)) {
        if (end < 0) end = text.length;
        const bytes = text.subarray(start, end);
        const { entry, record } = projectLine(bytes, { index: lines, byteStart: start, byteEnd: end });
        expect(canonicalJson(entry)).toBe(reference(entry));
        if (record !== null) expect(canonicalJson(record)).toBe(reference(record));
        start = end + 1;
        lines++;
      }
    }
    expect(lines).toBeGreaterThan(1000);
  });
});
