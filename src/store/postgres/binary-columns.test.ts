/**
 * Binary array columns: the bytes `array_recv` reads, and a round trip through a real PostgreSQL
 * of the values a transcript holds (quotes, backslashes, braces, newlines, emoji, empty strings,
 * NULLs), across several statements when the rows are large. The round trip is skipped with the
 * reason when no PostgreSQL answers.
 */
import { describe, expect, it } from 'vitest';
import { postgresDatabases } from '../../../test/support/postgres-database.js';
import { binaryArray, writeColumns } from './binary-columns.js';

const int32s = (...n: number[]) =>
  Buffer.concat(n.map((v) => Buffer.from([v >>> 24, v >>> 16, v >>> 8, v].map((b) => b & 255))));

describe('binaryArray', () => {
  it('lays out a one-dimensional array as array_recv reads it', () => {
    expect(binaryArray('text', ['ab', null, 'é'])).toEqual(
      Buffer.concat([
        int32s(1, 1, 25, 3, 1), // one dimension, has nulls, text, 3 elements from 1
        int32s(2),
        Buffer.from('ab'),
        int32s(-1),
        int32s(2),
        Buffer.from('é'),
      ]),
    );
    expect(binaryArray('int', [7, -1])).toEqual(int32s(1, 0, 23, 2, 1, 4, 7, 4, -1));
    expect(binaryArray('boolean', [true, false])).toEqual(
      Buffer.concat([int32s(1, 0, 16, 2, 1, 1), Buffer.from([1]), int32s(1), Buffer.from([0])]),
    );
  });

  it('refuses a value of another type, naming the column type', () => {
    expect(() => binaryArray('int', ['1'])).toThrow('a int column cannot hold string 1');
    expect(() => binaryArray('int', [1.5])).toThrow('cannot hold number 1.5');
    expect(() => binaryArray('int', [2 ** 31])).toThrow('cannot hold number 2147483648');
    expect(binaryArray('int', [-(2 ** 31), 2 ** 31 - 1]).subarray(24, 28)).toEqual(int32s(-(2 ** 31)));
    expect(() => binaryArray('text', [1])).toThrow('a text column cannot hold number 1');
    expect(() => binaryArray('boolean', [0])).toThrow('cannot hold number');
    expect(() => binaryArray('bigint', [2 ** 53])).toThrow(
      'a bigint column cannot hold number 9007199254740992',
    );
    expect(binaryArray('bigint', [2 ** 40 + 1]).subarray(20)).toEqual(int32s(8, 2 ** 8, 1));
  });
});

const { describePg, title, open } = postgresDatabases();

describePg(title('binary columns through PostgreSQL'), () => {
  it('write every value back as it was, in as many statements as the rows need', async () => {
    const db = await open();
    const texts = [
      '',
      'plain',
      `quotes ' " and \\ backslashes, {braces}, (parens), commas`,
      'new\nlines\r\nand\ttabs',
      'NULL',
      'emoji 🙂 and accents é ß ℕ',
      'x'.repeat(100_000),
    ];
    const rows = texts.map((t, i) => [
      i,
      t,
      i % 2 === 0,
      i === 3 ? null : `n${i}`,
      i === 4 ? null : 1.7e12 + i,
    ]);
    const statements: string[] = [];
    const read = await db.transaction(async (client) => {
      await client.query('CREATE TEMP TABLE cols (i int, t text, b boolean, n text, ms bigint)');
      const counting = {
        query: (text: string, values: unknown[]) => {
          statements.push(text);
          return client.query(text, values);
        },
      } as unknown as typeof client;
      // A limit of 50,000 characters per statement: the long text goes alone.
      await writeColumns(
        counting,
        rows,
        ['int', 'text', 'boolean', 'text', 'bigint'],
        (from) => `INSERT INTO cols SELECT * FROM ${from}`,
        50_000,
      );
      return (await client.query('SELECT i, t, b, n, ms::float8 AS ms FROM cols ORDER BY i')).rows;
    });
    expect(read).toEqual(rows.map(([i, t, b, n, ms]) => ({ i, t, b, n, ms })));
    expect(statements).toHaveLength(2);
    expect(new Set(statements).size).toBe(1);
  });

  it('send a lone surrogate as the replacement character, as every text parameter is', async () => {
    const db = await open();
    const { rows } = await db.pool.query<{ t: string }>('SELECT unnest($1::text[]) AS t', [
      binaryArray('text', ['a\ud800b']),
    ]);
    expect(rows).toEqual([{ t: 'a\ufffdb' }]);
  });
});
