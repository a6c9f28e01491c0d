import { describe, expect, it } from 'vitest';
import { searchTokens, spaceCjk, tokenText } from './search-tokens.js';

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc]\p{M}*/gu;

/**
 * The definition: every CJK character a word of its own (composed), then normalise the rest of
 * the text, drop marks, every other non-token run is a space.
 */
function reference(text: string): string[] {
  return text
    .replace(CJK, (c) => ` \u0000${c.normalize('NFC')} `)
    .split(' ')
    .flatMap((part) => (part.startsWith('\u0000') ? [part.slice(1)] : plain(part)))
    .filter(Boolean);
}

function plain(text: string): string[] {
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
    '扫描文件时出错：API调用失败 (v2版本)',
    'サーバーを起動して 파일을 검색합니다 か\u3099き 𠀀𠀁x',
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

describe('CJK text', () => {
  it('makes every Han, kana and Hangul character a token, so a word inside a run is a phrase', () => {
    expect(searchTokens('扫描文件 API调用')).toEqual(['扫', '描', '文', '件', 'api', '调', '用']);
    expect(searchTokens('テストサーバー')).toEqual(['テ', 'ス', 'ト', 'サ', 'ー', 'バ', 'ー']);
    // Hangul stays in syllables (not decomposed into jamo); astral Han is one character each.
    expect(searchTokens('파일을')).toEqual(['파', '일', '을']);
    expect(searchTokens('𠀀𠀁')).toEqual(['𠀀', '𠀁']);
    expect(words('扫描文件 API调用').map((w) => w.toLowerCase())).toEqual(searchTokens('扫描文件 API调用'));
  });

  it('composes voicing marks instead of dropping them: が is not か', () => {
    expect(searchTokens('か\u3099')).toEqual(['が']);
    expect(searchTokens('が')).toEqual(['が']);
    expect(words('か\u3099 か')).toEqual(['が', 'か']);
  });

  it('sets CJK characters apart for FTS5 and leaves other text as it is', () => {
    const plainText = 'no CJK here: café, naïve';
    expect(spaceCjk(plainText)).toBe(plainText);
    expect(spaceCjk('扫描x').split(' ').filter(Boolean)).toEqual(['扫', '描', 'x']);
    expect(spaceCjk('か\u3099').trim()).toBe('が');
  });
});
