import { describe, expect, it } from 'vitest';
import {
  AnnotationInputError,
  applyEdit,
  emptyAnnotation,
  isEmptyAnnotation,
  userDocProblem,
} from './annotations.js';
import { MAX_NOTE_BYTES, tagProblem } from './annotation-rules.js';

const AT = '2026-01-01T00:00:00.000Z';

describe('tags', () => {
  it('takes short lowercase words joined by - or /, and names the rule otherwise', () => {
    for (const t of ['bug', 'needs-review', 'area/api', 'v2', 'a-b/c-d']) expect(tagProblem(t)).toBeNull();
    for (const t of ['Bug', 'two words', '-x', 'x-', 'a//b', '', 'é', 'x'.repeat(41)])
      expect(tagProblem(t)).toMatch(/not a valid tag: a tag is a short lowercase word/);
  });
});

describe('applyEdit', () => {
  const empty = emptyAnnotation('s', AT);

  it('adds and removes tags as a sorted set', () => {
    const a = applyEdit(empty, { kind: 'tags', add: ['zeta', 'alpha', 'zeta'] }, AT);
    expect(a.tags).toEqual(['alpha', 'zeta']);
    expect(applyEdit(a, { kind: 'tags', remove: ['zeta'], add: ['mid'] }, AT).tags).toEqual(['alpha', 'mid']);
    expect(() => applyEdit(a, { kind: 'tags', add: ['Nope'] }, AT)).toThrow(AnnotationInputError);
  });

  it('refuses a note past its limit as too large, and keeps a blank note as none', () => {
    const big = 'é'.repeat(MAX_NOTE_BYTES / 2 + 1);
    const err = (() => {
      try {
        applyEdit(empty, { kind: 'note', note: big }, AT);
      } catch (e) {
        return e as AnnotationInputError;
      }
    })();
    expect(err?.tooLarge).toBe(true);
    expect(err?.message).toMatch(`at most ${MAX_NOTE_BYTES}`);
    expect(applyEdit(empty, { kind: 'note', note: '  \n' }, AT).note).toBe('');
  });

  it('bookmarks an entry once, with its note, and removes it again', () => {
    const a = applyEdit(empty, { kind: 'bookmark', file: 'transcript.jsonl', index: 4, note: 'why' }, AT);
    const b = applyEdit(a, { kind: 'bookmark', file: 'transcript.jsonl', index: 4 }, AT);
    expect(b.bookmarks).toEqual([{ file: 'transcript.jsonl', index: 4, at: AT }]);
    const c = applyEdit(b, { kind: 'unbookmark', file: 'transcript.jsonl', index: 4 }, AT);
    expect(isEmptyAnnotation(c)).toBe(true);
  });
});

describe('userDocProblem', () => {
  it('checks the schema and that the id names the session', () => {
    expect(userDocProblem({ ...emptyAnnotation('s', AT) })).toBeNull();
    expect(userDocProblem({ ...emptyAnnotation('s', AT), _id: 'annotation:t' })).toMatch(
      /must be annotation:s/,
    );
    expect(userDocProblem({ ...emptyAnnotation('s', AT), tags: ['Bad'] })).toMatch(/^tags\.0:/);
    expect(
      userDocProblem({ _id: 'tombstone:s', type: 'tombstone', sessionId: 's', timestamp: AT }),
    ).toBeNull();
  });
});
