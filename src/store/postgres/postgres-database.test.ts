/**
 * The connections of the PostgreSQL engine's pool prepare each statement given with parameters
 * once and reuse it, writes of rows included (their rows go as binary array columns, so their
 * text is fixed). Skipped with the reason when no PostgreSQL answers.
 */
import { expect, it } from 'vitest';
import { postgresDatabases } from '../../../test/support/postgres-database.js';
import { writeColumns } from './binary-columns.js';

const { describePg, title, open } = postgresDatabases();

describePg(title('postgres connections'), () => {
  it('prepare a parameterised statement once and run it again without parsing it', async () => {
    const db = await open();
    const prepared = async () =>
      (
        await db.pool.query<{ statement: string }>(
          'SELECT statement FROM pg_prepared_statements ORDER BY prepare_time',
        )
      ).rows.map((r) => r.statement);
    await db.transaction(async (client) => {
      for (let n = 1; n <= 3; n++) {
        const { rows } = await client.query<{ n: number }>('SELECT $1::int * 2 AS n', [n]);
        expect(rows).toEqual([{ n: 2 * n }]);
      }
      await client.query('CREATE TEMP TABLE written (x int)');
      for (const rows of [
        [[1], [2]],
        [[3], [4], [5]],
      ]) {
        await writeColumns(client, rows, ['int'], (from) => `INSERT INTO written SELECT * FROM ${from}`);
      }
      expect((await client.query('SELECT x FROM written ORDER BY x')).rows.map((r) => r.x)).toEqual([
        1, 2, 3, 4, 5,
      ]);
    });
    const statements = await prepared();
    expect(statements.filter((s) => s === 'SELECT $1::int * 2 AS n')).toHaveLength(1);
    // The pool hands its connection a callback (every read goes this way): prepared as well.
    expect((await db.pool.query<{ n: number }>('SELECT $1::int + 1 AS n', [41])).rows).toEqual([{ n: 42 }]);
    expect(await prepared()).toContain('SELECT $1::int + 1 AS n');
    // Two writes of different row counts: one statement.
    expect(statements.filter((s) => s.startsWith('INSERT INTO written'))).toHaveLength(1);
    // A statement without parameters (several at once, DDL) is sent as it is.
    await db.pool.query('SELECT 1; SELECT 2');
  });

  it('run with the planner settings the engine needs: SSD page costs, no JIT', async () => {
    const db = await open();
    const setting = async (name: string) =>
      (await db.pool.query<{ value: string }>('SELECT current_setting($1) AS value', [name])).rows[0]!.value;
    expect(await setting('random_page_cost')).toBe('1.1');
    expect(await setting('jit')).toBe('off');
  });

  it('begin a transaction with its opening statements in one round trip, their results in order', async () => {
    const db = await open();
    const seen = await db.transaction(
      async (client, opened) => ({
        opened: opened.map((r) => r.rows),
        inside: (await client.query<{ enable_seqscan: string }>('SHOW enable_seqscan')).rows[0]!
          .enable_seqscan,
      }),
      ['SELECT 7 AS n', 'SET LOCAL enable_seqscan = off'],
    );
    expect(seen).toEqual({ opened: [[{ n: 7 }], []], inside: 'off' });
    // SET LOCAL ended with the transaction (the pool has this one connection).
    expect(
      (await db.pool.query<{ enable_seqscan: string }>('SHOW enable_seqscan')).rows[0]!.enable_seqscan,
    ).toBe('on');
  });
});
