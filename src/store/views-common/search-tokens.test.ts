import { describe, expect, it } from 'vitest';
import { searchTokens, tokenText } from './search-tokens.js';

/** The definition: normalise the whole text, drop marks, every other non-token run is a space. */
function reference(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^\p{L}\p{N}\p{Co}]+/gu, ' ')
    .split(' ')
    .filter(Boolean);
}

const words = (text: string) => tokenText(text).split(' ').filter(Boolean);

describe('tokenText', () => {
  it.each([
    'plain ASCII, with punctuation: a_b-c.d/e',
    'Café crème — “quoted” naïve façade',
    'e\u0301 (a combining accent after an ASCII letter)',
    'mixed→arrows ✓ checks 日本語テキスト and ßtraße',
    'emoji 🎉party🎉 and tabs\tand\nnewlines',
    'Ångström ÅNGSTRÖM 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ﬁligature',
    '',
    '…',
  ])('gives the tokens of normalising the whole text: %s', (text) => {
    expect(words(text)).toEqual(reference(text));
  });

  it('agrees with searchTokens once case is folded', () => {
    const text = 'Über CAFÉ “déjà vu” x→y';
    expect(words(text).map((w) => w.toLowerCase())).toEqual(searchTokens(text));
  });
});
