/**
 * Word pairs: the query side's rules by example, then against a real PostgreSQL (skipped, with the
 * reason, when none answers). Over the shared corpus and tricky text written through the store,
 * each row's pairs are those computed here from `to_tsvector`'s own output, and a phrase of common
 * words finds, with its pairs, exactly the rows the tsvector's phrase check accepts.
 */
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS_HOST } from '../../../../test/support/corpus-template.js';
import { testEngine } from '../../../../test/support/engines.js';
import type { Store } from '../../contract.js';
import { chunkDoc, entry, putDocs, summaryDoc } from '../../contract/view-fixtures.js';
import { openStore } from '../../open-store.js';
import { searchTerms } from '../../views-common/search-terms.js';
import { tokenText } from '../../views-common/search-tokens.js';
import type { Queryable } from '../postgres-database.js';
import { PAIR_WORDS, pairsQuery, serverTokens, termPairs, UNPAIRED, type Lexeme } from './phrase-pairs.js';

const term = (words: string, prefix = false) => ({
  tokens: words.split(' ').map((w) => (w === '-' ? null : w)),
  prefix,
});

describe('pairsQuery', () => {
  it('asks for each two adjacent tokens of which one is a pair word, or for an unpaired row', () => {
    expect(pairsQuery([term('read the file')])).toBe(`('read the' & 'the file') | ${UNPAIRED}`);
    expect(pairsQuery([term('does not exist')])).toBe(`('does not' & 'not exist') | ${UNPAIRED}`);
  });

  it('is null when no term has such a pair', () => {
    expect(pairsQuery([])).toBeNull();
    expect(pairsQuery([term('the')])).toBeNull();
    expect(pairsQuery([term('cannot find module')])).toBeNull();
    expect(pairsQuery([null])).toBeNull();
  });

  it('joins the pairs of every term, each once; a term whose tokens are not known adds none', () => {
    expect(pairsQuery([term('read the'), null, term('the file read the')])).toBe(
      `('read the' & 'the file') | ${UNPAIRED}`,
    );
  });

  it('pairs a prefix only through its exact neighbour', () => {
    expect(pairsQuery([term('read the fi', true)])).toBe(`('read the' & 'the fi':*) | ${UNPAIRED}`);
    // `th*` may be any word: nothing says its neighbour was paired.
    expect(pairsQuery([term('read th', true)])).toBeNull();
    expect(pairsQuery([term('the', true)])).toBeNull();
  });

  it('never pairs across a position no token holds; a prefix moves to the last one kept', () => {
    expect(pairsQuery([term('read the - file')])).toBe(`('read the') | ${UNPAIRED}`);
    expect(pairsQuery([term('read the fi -', true)])).toBe(`('read the' & 'the fi':*) | ${UNPAIRED}`);
  });

  it('leaves out a pair longer than a lexeme may be, as rows do', () => {
    const y = 'y'.repeat(2044); // `y of` is 2047 bytes, `the y` one more
    expect(pairsQuery([term(`the ${y} of`)])).toBe(`('${y} of') | ${UNPAIRED}`);
  });

  it('quotes what would end a lexeme', () => {
    expect(pairsQuery([term("the o'k")])).toBe(`('the o\\'k') | ${UNPAIRED}`);
  });
});

describe('serverTokens', () => {
  it('puts the lexemes back in the order of their positions, null where none stands', () => {
    const lexemes = [
      { lexeme: 'file', positions: [3] },
      { lexeme: 'read', positions: [1, 5] },
      { lexeme: 'the', positions: [2] },
    ];
    expect(serverTokens(lexemes)).toEqual(['read', 'the', 'file', null, 'read']);
    expect(serverTokens([])).toEqual([]);
  });

  it('knows no order where the tsvector may have lost tokens: 255 positions of a lexeme, or 16383', () => {
    const many = Array.from({ length: 255 }, (_, i) => i + 1);
    expect(serverTokens([{ lexeme: 'the', positions: many.slice(1) }])).toHaveLength(255);
    expect(serverTokens([{ lexeme: 'the', positions: many }])).toBeNull();
    expect(serverTokens([{ lexeme: 'a', positions: [16382] }])).toHaveLength(16382);
    expect(
      serverTokens([
        { lexeme: 'a', positions: [16382] },
        { lexeme: 'b', positions: [16383] },
      ]),
    ).toBeNull();
  });
});

describe('termPairs without a pair to ask for', () => {
  it('asks the server nothing', async () => {
    const refuse = {
      query: () => Promise.reject(new Error('no round trip expected')),
    } as unknown as Queryable;
    expect(await termPairs(refuse, ['pomodoro'], [false])).toBeNull();
    expect(await termPairs(refuse, ['the'], [true])).toBeNull();
    expect(await termPairs(refuse, ['cannot find module', 'x'], [false, false])).toBeNull();
  });
});

const PAIRED = new Set(PAIR_WORDS);

/**
 * The pairs of a tsvector (its lexemes as `unnest` gives them), computed here, sorted: none longer
 * than a lexeme may be (2047 bytes).
 */
function expectedPairs(lexemes: Lexeme[]): string[] {
  const at = new Map<number, string[]>();
  for (const { lexeme, positions } of lexemes)
    for (const p of positions) at.set(p, [...(at.get(p) ?? []), lexeme]);
  const pairs = new Set<string>();
  for (const [p, here] of at)
    for (const a of here)
      for (const b of at.get(p + 1) ?? [])
        if ((PAIRED.has(a) || PAIRED.has(b)) && Buffer.byteLength(`${a} ${b}`) <= 2047)
          pairs.add(`${a} ${b}`);
  return [...pairs].sort();
}

/**
 * Filler of 16381 tokens, each pair word of the first ten standing over 255 times (the rest of
 * their positions are dropped), then `alpha` at 16382 and every token after it at 16383.
 */
const FILLER = Array.from({ length: 16381 }, (_, i) =>
  i % 3 === 0 ? PAIR_WORDS[(i / 3) % 10] : (i % 1296).toString(36).padStart(2, '0'),
).join(' ');

const TRICKY = [
  '1e5abc the 1E5ABC: read the file, 12e3b of 1e5e7 the end',
  `read ${'z'.repeat(2048)} the file, then ${'y'.repeat(2047)} of the end`,
  `${'the '.repeat(300)}end of the file`,
  `${FILLER} alpha the beta with gamma of`,
  '日本語 の テキスト and the 文字 of 漢字',
  'Café: read the naïve résumé in the file; the Ελληνικά of the text, e\u0301x of the',
  '--- ... ---',
  'the',
];

/** Phrases of common words, bare and prefix, some of them only the tricky text holds. */
const PHRASES = [
  '"read the file"',
  '"in the"',
  '"of the"',
  '"to the"',
  '"is not"',
  '"if it is"',
  '"of the file"',
  '"the end"',
  '"the the"',
  '"the 1e5abc"',
  '"1e5abc the"',
  '"alpha the"',
  '"alpha of"',
  '"the beta"',
  '"read the"',
  '"cafe read the"',
  '"the 文字"',
  '"the ελληνικα"',
  '"the fi"*',
  '"of the"*',
  '"it is" "in the"',
];

const engine = testEngine('postgres');
const describePg = engine.skip ? describe.skip : describe;

describePg(`word pairs on PostgreSQL${engine.skip ? ` (skipped: ${engine.skip})` : ''}`, () => {
  let store: Store;
  let client: pg.Client;
  beforeAll(async () => {
    const env = await engine.corpusServerEnv('');
    store = await openStore({ dataDir: path.join(tmpdir(), 'ct-unused'), env });
    await putDocs(store, [
      summaryDoc('tricky', { hostname: CORPUS_HOST }),
      chunkDoc(
        'tricky',
        TRICKY.map((text, i) => entry(i, 'user', text)),
      ),
    ]);
    const url = new URL(env.CT_DATABASE_URL!);
    const schema = url.searchParams.get('schema')!;
    url.searchParams.delete('schema');
    client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    await client.query(`SET search_path = ${client.escapeIdentifier(schema)}`);
    await client.query('SET client_min_messages = warning'); // "word is too long" notices
  });
  afterAll(async () => {
    await client?.end();
    await store?.close();
    await engine.stop();
  });

  it("gives every entry the pairs of its tsvector, which is the server's own of its token text", async () => {
    const { rows: entries } = await client.query<{ s: string; f: string; i: number; text: string }>(
      'SELECT session_id AS s, file AS f, idx AS i, text FROM full_text_entries',
    );
    expect(entries.length).toBeGreaterThan(2000);
    const wrong: string[] = [];
    let paired = 0;
    for (let at = 0; at < entries.length; at += 500) {
      const part = entries.slice(at, at + 500);
      const { rows } = await client.query<{ n: number; same: boolean; pairs: string[]; lexemes: Lexeme[] }>(
        `SELECT u.n::int AS n, e.tsv = v AS same, tsvector_to_array(e.pairs) AS pairs,
           coalesce((SELECT json_agg(json_build_object('lexeme', l.lexeme, 'positions', l.positions))
             FROM unnest(v) AS l), '[]') AS lexemes
         FROM unnest($1::text[], $2::text[], $3::int[], $4::text[]) WITH ORDINALITY AS u(s, f, i, k, n)
         JOIN full_text_entries e ON e.session_id = u.s AND e.file = u.f AND e.idx = u.i,
           to_tsvector('pg_catalog.simple', u.k) AS v`,
        [
          part.map((e) => e.s),
          part.map((e) => e.f),
          part.map((e) => e.i),
          part.map((e) => tokenText(e.text)),
        ],
      );
      expect(rows).toHaveLength(part.length);
      for (const r of rows) {
        const e = part[r.n - 1]!;
        const pairs = [...r.pairs].sort();
        if (pairs.length > 0) paired++;
        if (!r.same || JSON.stringify(pairs) !== JSON.stringify(expectedPairs(r.lexemes)))
          wrong.push(`${e.s}#${e.i}: ${e.text.slice(0, 80)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(paired).toBeGreaterThan(entries.length / 2);
    // The tricky rows: text outside ASCII is paired too, and the ties at 16383 all with 16382.
    const tricky = async (i: number) =>
      (
        await client.query<{ pairs: string[] }>(
          `SELECT tsvector_to_array(pairs) AS pairs FROM full_text_entries WHERE session_id = 'tricky' AND idx = $1`,
          [i],
        )
      ).rows[0]!.pairs;
    // `1e5abc` is two tokens, and so is `1e5e7`; a token of 2048 characters takes no position.
    expect([...(await tricky(0))].sort()).toEqual(
      ['abc the', 'the 1e5', 'read the', 'the file', 'b of', 'of 1e5', 'e7 the', 'the end'].sort(),
    );
    expect(await tricky(1)).toEqual(expect.arrayContaining(['read the', 'of the']));
    expect(await tricky(1)).not.toContain(`${'y'.repeat(2047)} of`); // longer than a lexeme may be
    expect(await tricky(3)).toEqual(expect.arrayContaining(['alpha the', 'alpha with', 'alpha of']));
    expect(await tricky(3)).not.toContain('the beta');
    expect(await tricky(5)).toEqual(expect.arrayContaining(['read the', 'the ελληνικα', 'ex of']));
    expect(await tricky(6)).toEqual([]);
    expect(await tricky(7)).toEqual([]);
  });

  it('makes the pairs of a phrase from the tokens the server makes of it', async () => {
    expect(await termPairs(client, [tokenText('read the 1e5abc')], [false])).toBe(
      `('read the' & 'the 1e5') | ${UNPAIRED}`,
    );
    expect(await termPairs(client, [tokenText('Café of the 日本'), 'read the fi'], [false, true])).toBe(
      `('cafe of' & 'of the' & 'the 日' & 'read the' & 'the fi':*) | ${UNPAIRED}`,
    );
    // The skipped word takes no position, in the row as in the phrase.
    expect(await termPairs(client, [`read ${'z'.repeat(2048)} the`], [false])).toBe(
      `('read the') | ${UNPAIRED}`,
    );
  });

  it('finds with the pairs exactly the rows the phrase check accepts', async () => {
    const lost: string[] = [];
    let found = 0;
    for (const phrase of PHRASES) {
      const terms = searchTerms(phrase);
      const k = terms.map((t) => tokenText(t.text));
      const prefixes = terms.map((t) => t.prefix);
      // Every phrase here asks for pairs: the index narrows its candidates by them.
      expect(await termPairs(client, k, prefixes), phrase).not.toBeNull();
      const { rows } = await client.query<{ hit: string }>(
        `SELECT e.session_id || '#' || e.idx AS hit FROM full_text_entries e
         WHERE e.tsv @@ (SELECT string_agg('(' || phraseto_tsquery('pg_catalog.simple', u.k)::text
             || CASE WHEN u.p THEN ':*' ELSE '' END || ')', ' & ')::tsquery
           FROM unnest($1::text[], $2::boolean[]) AS u(k, p))`,
        [k, prefixes],
      );
      const accepted = rows.map((r) => r.hit).sort();
      found += accepted.length;
      for (const filter of [{}, { hostname: CORPUS_HOST }]) {
        const result = await store.views.search({ q: phrase, limit: 10_000, offset: 0, ...filter });
        const hits = result.hits.map((h) => `${h.sessionId}#${h.index}`).sort();
        if (JSON.stringify(hits) !== JSON.stringify(accepted))
          lost.push(`${phrase} ${JSON.stringify(filter)}: ${hits.length} found, ${accepted.length} accepted`);
      }
    }
    expect(lost).toEqual([]);
    expect(found).toBeGreaterThan(100);
  });
});
