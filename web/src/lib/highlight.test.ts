import { describe, expect, it } from 'vitest';
import { hasMatch, searchTerms, splitHighlights, termsRegExp } from './highlight.js';

describe('searchTerms', () => {
  it('reads words, phrases and prefixes', () => {
    expect(searchTerms('"connection refused" deploy* error')).toEqual([
      { text: 'connection refused', prefix: false },
      { text: 'deploy', prefix: true },
      { text: 'error', prefix: false },
    ]);
  });
  it('skips operators and punctuation', () => {
    expect(searchTerms('a OR (b) -c ""')).toEqual([
      { text: 'a', prefix: false },
      { text: 'b', prefix: false },
      { text: 'c', prefix: false },
    ]);
    expect(searchTerms(undefined)).toEqual([]);
  });
});

describe('splitHighlights', () => {
  it('marks matches case-insensitively', () => {
    expect(splitHighlights('An Error and an error.', searchTerms('error'))).toEqual([
      { text: 'An ', mark: false },
      { text: 'Error', mark: true },
      { text: ' and an ', mark: false },
      { text: 'error', mark: true },
      { text: '.', mark: false },
    ]);
  });
  it('extends prefixes to the whole word and phrases across whitespace', () => {
    expect(splitHighlights('deploying now', searchTerms('deploy*')).filter((s) => s.mark)).toEqual([
      { text: 'deploying', mark: true },
    ]);
    expect(
      splitHighlights('connection\n  refused!', searchTerms('"connection refused"')).filter((s) => s.mark),
    ).toEqual([{ text: 'connection\n  refused', mark: true }]);
  });
  it('treats regex characters literally and keeps markup as text', () => {
    const segs = splitHighlights('<script>axb a.b</script>', searchTerms('a.b'));
    expect(segs).toEqual([
      { text: '<script>axb ', mark: false },
      { text: 'a.b', mark: true },
      { text: '</script>', mark: false },
    ]);
  });
  it('returns the text unmarked without terms', () => {
    expect(splitHighlights('abc', [])).toEqual([{ text: 'abc', mark: false }]);
    expect(splitHighlights('', searchTerms('x'))).toEqual([]);
  });
  it('hasMatch', () => {
    const re = termsRegExp(searchTerms('needle'));
    expect(hasMatch('hay Needle hay', re)).toBe(true);
    expect(hasMatch('hay', re)).toBe(false);
    expect(hasMatch('needle', re)).toBe(true);
  });
});
