/**
 * A running server whose database stops answering its queries (here: its schema renamed away
 * under it) says so in /api/health — degraded, naming the store and why — instead of failing
 * the health request itself, and is well again once the database is back.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getJson, startTestServer, type TestServer } from '../support/api-server.js';
import { describeSharedEngine } from '../support/engines.js';
import { TEST_DATABASE_URL } from '../support/postgres-probe.js';

describeSharedEngine('health while the database cannot be read', (engine) => {
  let server: TestServer;
  let schema: string;

  beforeAll(async () => {
    const env = await engine.serverEnv();
    schema = new URL(env.CT_DATABASE_URL!).searchParams.get('schema')!;
    server = await startTestServer({ env });
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
  });

  async function sql(text: string): Promise<void> {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  }

  it('is degraded and says why, then well again', async () => {
    expect((await getJson(server, '/api/health')).body.status).toBe('ok');
    await sql(`ALTER SCHEMA ${schema} RENAME TO ${schema}_away`);
    try {
      const { status, body } = await getJson(server, '/api/health');
      expect(status).toBe(200);
      expect(body).toMatchObject({
        status: 'degraded',
        store: { engine: 'postgres', state: 'error' },
        schema: null,
      });
      expect(body.store.error).toMatch(/^the postgres store cannot be read: /);
    } finally {
      await sql(`ALTER SCHEMA ${schema}_away RENAME TO ${schema}`);
    }
    const again = await getJson(server, '/api/health');
    expect(again.body).toMatchObject({ status: 'ok', store: { state: 'ready' } });
  });
});
