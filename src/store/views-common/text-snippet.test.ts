import { describe, expect, it } from 'vitest';
import { searchTerms, splitSnippet } from './search-terms.js';
import { textSnippet } from './text-snippet.js';

const snippet = (text: string, q: string, n?: number) => splitSnippet(textSnippet(text, searchTerms(q), n));

describe('textSnippet', () => {
  it('marks words, phrases and prefixes, folding case and accents', () => {
    expect(snippet('connection refused on the pool', 'pool')).toEqual([
      { text: 'connection refused on the ', mark: false },
      { text: 'pool', mark: true },
    ]);
    expect(snippet('Use the pool size setting.', '"pool si"*')).toEqual([
      { text: 'Use the ', mark: false },
      { text: 'pool size', mark: true },
      { text: ' setting.', mark: false },
    ]);
    expect(snippet('Café au lait', 'cafe')).toEqual([
      { text: 'Café', mark: true },
      { text: ' au lait', mark: false },
    ]);
    expect(snippet('see src/db.ts: maxConnections', 'db MAXCONNECTIONS')).toEqual([
      { text: 'see src/', mark: false },
      { text: 'db', mark: true },
      { text: '.ts: ', mark: false },
      { text: 'maxConnections', mark: true },
    ]);
  });

  it('cuts long texts around the first match and says where it cut', () => {
    const words = Array.from({ length: 100 }, (_, i) => `w${i}`);
    words[50] = 'needle';
    const parts = snippet(words.join(' '), 'needle', 10);
    expect(parts[0]!.text.startsWith('…w48 ')).toBe(true);
    expect(parts[1]).toEqual({ text: 'needle', mark: true });
    expect(parts[2]!.text.endsWith('w57…')).toBe(true);
    expect(snippet('no match here', 'absent')).toEqual([{ text: 'no match here', mark: false }]);
  });
});
