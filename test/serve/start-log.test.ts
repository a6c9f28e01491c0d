/**
 * What `transcripts serve` says when it starts over an empty store of each engine: the
 * migrations it applied, and no warning from the libraries under it (the S3 SDK has one on
 * Node 20). The migrate routes themselves are tested in process (test/api/migrate-routes.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/migrations/index.js';
import { getJson, startTestServer, type TestServer } from '../support/api-server.js';
import { describeEngines } from '../support/engines.js';

let server: TestServer;

describeEngines('serve start log', (engine) => {
  beforeAll(async () => {
    server = await startTestServer({ env: await engine.serverEnv() });
    // Reads the store (documents and objects) once, so a warning on first use would show too.
    expect((await getJson(server, '/api/health')).status).toBe(200);
  });

  afterAll(async () => {
    await server?.stop();
  });

  describe('migrations', () => {
    it('were applied at start, and the log says so', () => {
      expect(server.logs()).toMatch(new RegExp(`migrations: applied ${MIGRATIONS.length} pending`));
    });

    it('the server starts without a warning from the libraries under it (the S3 SDK has one on Node 20)', () => {
      expect(server.logs()).not.toMatch(/\(node:\d+\) \w*Warning/);
    });
  });
});
