/**
 * Tsvectors made here: the rules by example (what PostgreSQL's `ts_debug` shows its parser doing),
 * then against a real PostgreSQL (skipped, with the reason, when none answers): for every entry of
 * the shared corpus and for generated tricky text, the binary tsvector must be the very tsvector
 * the server makes of the token text.
 */
import { createReadStream, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeCorpusDir } from '../../../../test/support/paths.js';
import { testEngine } from '../../../../test/support/engines.js';
import { TEST_DATABASE_URL } from '../../../../test/support/postgres-probe.js';
import { projectLines } from '../../../core/transcript/project-lines.js';
import { splitLines } from '../../../core/transcript/split-lines.js';
import { entrySearchText } from '../../views-common/entry-search-text.js';
import { tokenText } from '../../views-common/search-tokens.js';
import { PAIR_WORDS } from './phrase-pairs.js';
import { TS_CONFIG } from './search-query.js';
import { asciiTokens, serverAgrees, TSVECTOR_PROBE, vectorSource } from './tsvector-binary.js';

/** A binary tsvector read back as lexeme → positions, the server's order of lexemes aside. */
function lexemes(text: string): Record<string, number[]> {
  const { vector } = vectorSource(text);
  if (vector === undefined) throw new Error(`no tsvector for ${text}`);
  const out: Record<string, number[]> = {};
  let at = 4;
  for (let n = vector.readInt32BE(0); n > 0; n--) {
    const end = vector.indexOf(0, at);
    const lexeme = vector.toString('latin1', at, end);
    const count = vector.readUInt16BE(end + 1);
    at = end + 3;
    const positions: number[] = [];
    for (let i = 0; i < count; i++, at += 2) positions.push(vector.readUInt16BE(at));
    out[lexeme] = positions;
  }
  expect(at).toBe(vector.length);
  return out;
}

describe('vectorSource', () => {
  it('numbers the lower-cased runs of letters and digits', () => {
    expect(lexemes('The fox, the DOG: fox-trot_3 x')).toEqual({
      the: [1, 3],
      fox: [2, 5],
      dog: [4],
      trot: [6],
      '3': [7],
      x: [8],
    });
    expect(lexemes('')).toEqual({});
    expect(lexemes('--- ... ---')).toEqual({});
  });

  it('splits a leading number in scientific notation from the word that follows it', () => {
    expect(lexemes('1e5abc abc1e5 12E3B 1e5e7 12e 1e 0x1F 1E5')).toEqual({
      '1e5': [1, 6, 11],
      abc: [2],
      abc1e5: [3],
      '12e3': [4],
      b: [5],
      e7: [7],
      '12e': [8],
      '1e': [9],
      '0x1f': [10],
    });
  });

  it('skips tokens of 2048 characters or more without giving them a position', () => {
    expect(lexemes(`a ${'y'.repeat(2047)} ${'z'.repeat(2048)} b`)).toEqual({
      a: [1],
      ['y'.repeat(2047)]: [2],
      b: [3],
    });
  });

  it('keeps 255 positions of a lexeme', () => {
    const positions = lexemes('w '.repeat(300)).w!;
    expect(positions).toHaveLength(255);
    expect(positions.at(-1)).toBe(255);
  });

  it('treats other characters as the token text does: separators here, letters left to the server', () => {
    expect(lexemes('“Quoted” — x→y ✓ 🤖Done… n🤖')).toEqual({
      quoted: [1],
      x: [2],
      y: [3],
      done: [4],
      n: [5],
    });
    for (const text of ['Café au lait', '日本語 text', 'Ελληνικά', 'e\u0301x', 'lone \ud800 surrogate']) {
      expect(vectorSource(text)).toEqual({ tokens: tokenText(text) });
    }
  });
});

/** The word pairs made with a text's tsvector, read back, sorted. */
function pairs(text: string): string[] {
  const made = vectorSource(text).pairs;
  if (made === undefined) throw new Error(`no pairs for ${text}`);
  const out: string[] = [];
  let at = 4;
  for (let n = made.readInt32BE(0); n > 0; n--) {
    const end = made.indexOf(0, at);
    out.push(made.toString('latin1', at, end));
    expect(made.readUInt16BE(end + 1)).toBe(0); // no positions
    at = end + 3;
  }
  expect(at).toBe(made.length);
  return out.sort();
}

describe('word pairs', () => {
  it('pairs each two adjacent tokens of which one is a pair word, once', () => {
    // Not `end read` nor `file again`: neither word is a pair word.
    expect(pairs('Read the FILE to the end; read the file again')).toEqual([
      'file to',
      'read the',
      'the end',
      'the file',
      'to the',
    ]);
    expect(pairs('cannot find module')).toEqual([]);
    expect(pairs('')).toEqual([]);
  });

  it('pairs across a token the server skips, which takes no position', () => {
    expect(pairs(`read ${'z'.repeat(2048)} the`)).toEqual(['read the']);
  });

  it('pairs only positions the tsvector keeps (255 per lexeme)', () => {
    const text = `${'the '.repeat(300)}end`;
    expect(pairs(text)).toEqual(['the the']);
  });

  it('are made only with a tsvector: text the server tokenizes has none', () => {
    expect(vectorSource('read the café').pairs).toBeUndefined();
  });
});

describe('asciiTokens', () => {
  it('gives the tokens the server makes of a search term, null for one it skips', () => {
    expect(asciiTokens('Read the-File 1e5abc')).toEqual(['read', 'the', 'file', '1e5', 'abc']);
    expect(asciiTokens(`a ${'z'.repeat(2048)} b`)).toEqual(['a', null, 'b']);
    expect(asciiTokens('“the” → file')).toEqual(['the', 'file']);
  });

  it('is null for text with letters outside ASCII', () => {
    expect(asciiTokens('the café')).toBeNull();
  });
});

const engine = testEngine('postgres');
const describePg = engine.skip ? describe.skip : describe;

describePg(`tsvectors made here, on PostgreSQL${engine.skip ? ` (skipped: ${engine.skip})` : ''}`, () => {
  let client: pg.Client;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    await client.query('SET client_min_messages = warning'); // "word is too long" notices
  });
  afterAll(() => client?.end());

  /**
   * Texts whose tsvector made here differs from the server's own of their token text, or whose
   * word pairs differ from those of the server's tsvector (its lexemes at adjacent positions, one
   * of them a pair word). Each is sent as the store sends it: a parameter of its own, in binary.
   */
  async function disagreements(texts: string[]): Promise<string[]> {
    const made = texts.filter((t) => vectorSource(t).vector !== undefined);
    const out: string[] = [];
    for (let at = 0; at < made.length; at += 500) {
      const part = made.slice(at, at + 500);
      const values = part.map(
        (_, i) => `(${i}, $${3 * i + 1}::text, $${3 * i + 2}::tsvector, $${3 * i + 3}::tsvector)`,
      );
      const words = `$${3 * part.length + 1}::text[]`;
      const { rows } = await client.query<{ n: number }>(
        `SELECT u.n FROM (VALUES ${values.join(', ')}) AS u(n, k, v, p),
          LATERAL (SELECT to_tsvector('${TS_CONFIG}', u.k) AS sv) s
         WHERE s.sv <> u.v OR tsvector_to_array(u.p) <> ARRAY(
           SELECT DISTINCT a.lexeme || ' ' || b.lexeme COLLATE "C"
           FROM unnest(s.sv) a, unnest(a.positions) pa, unnest(s.sv) b, unnest(b.positions) pb
           WHERE pb = pa + 1 AND (a.lexeme = ANY(${words}) OR b.lexeme = ANY(${words})) ORDER BY 1)`,
        [
          ...part.flatMap((t) => {
            const { vector, pairs } = vectorSource(t);
            return [tokenText(t), vector, pairs];
          }),
          PAIR_WORDS,
        ],
      );
      out.push(...rows.map((r) => part[r.n]!));
    }
    return out;
  }

  it('agrees with the probe the store checks a server with', async () => {
    expect(vectorSource(TSVECTOR_PROBE).vector).toBeDefined();
    expect(await disagreements([TSVECTOR_PROBE])).toEqual([]);
    expect(await serverAgrees(client)).toBe(true);
  });

  it('agrees on every entry of the shared corpus', async () => {
    const files = existsSync(claudeCorpusDir)
      ? readdirSync(claudeCorpusDir, { recursive: true, encoding: 'utf8' }).filter((f) =>
          f.endsWith('.jsonl'),
        )
      : [];
    expect(files.length).toBeGreaterThan(0);
    const texts: string[] = [];
    for (const file of files) {
      const lines = splitLines(createReadStream(path.join(claudeCorpusDir, file)));
      for await (const { entry } of projectLines(lines)) {
        const text = entrySearchText(entry);
        if (text.trim() !== '') texts.push(text);
      }
    }
    expect(texts.length).toBeGreaterThan(1000);
    expect(texts.filter((t) => vectorSource(t).vector !== undefined).length).toBeGreaterThan(
      texts.length * 0.9,
    );
    expect(await disagreements(texts)).toEqual([]);
  });

  it('agrees on generated runs of digits, letters and exponents', async () => {
    // A small deterministic generator: runs mixing the characters the parser treats specially.
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const alphabet = '0123456789eEabxZ_.-/ ';
    const texts = Array.from({ length: 3000 }, () =>
      Array.from({ length: 1 + next(60) }, () => alphabet[next(alphabet.length)]).join(''),
    );
    expect(await disagreements(texts)).toEqual([]);
  });
});
