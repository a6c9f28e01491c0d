/**
 * Migrations through the routes: status, dry runs that change nothing, a real round trip down and
 * up (search turns itself off while the full-text view is gone), and range errors as 400s. The
 * start log, which reports the migrations, also holds no warning from the libraries underneath.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  backfillCorpus,
  getJson,
  sendJson,
  startTestServer,
  type TestServer,
  readJson,
} from '../support/api-server.js';
import { describeEngines } from '../support/engines.js';
import { latestVersion } from '../../src/migrations/runner.js';

/** The latest schema version, and the steps down to 8, the version before full-text search. */
const LATEST = latestVersion();
const TO_8 = LATEST - 8;

let server: TestServer;

describeEngines('migrate routes', (engine) => {
  beforeAll(async () => {
    server = await startTestServer({ env: await engine.serverEnv() });
    await backfillCorpus(server);
  });

  afterAll(async () => {
    await server?.stop();
  });

  describe('migrations', () => {
    it('were applied at start, and the log says so', async () => {
      expect(server.logs()).toMatch(new RegExp(`migrations: applied ${LATEST} pending`));
      const { status, body } = await getJson(server, '/api/migrate/status');
      expect(status).toBe(200);
      expect(body).toMatchObject({ currentVersion: LATEST, latestVersion: LATEST, pending: [] });
      expect(body.applied).toHaveLength(LATEST);
      for (const a of body.applied)
        expect(a).toMatchObject({ version: expect.any(Number), name: expect.any(String) });
    });

    it('the server starts without a warning from the libraries under it (the S3 SDK has one on Node 20)', () => {
      expect(server.logs()).not.toMatch(/\(node:\d+\) \w*Warning/);
    });

    it('dry runs report the plan and change nothing', async () => {
      const down = await sendJson(server, 'POST', '/api/migrate/down', { steps: TO_8, dryRun: true });
      expect(down.status).toBe(200);
      expect(down.body).toMatchObject({ dryRun: true, from: LATEST, to: 8 });
      expect(down.body.steps.map((s: { version: number; status: string }) => [s.version, s.status])).toEqual(
        Array.from({ length: TO_8 }, (_, i) => [LATEST - i, 'planned']),
      );
      expect((await getJson(server, '/api/migrate/status')).body.currentVersion).toBe(LATEST);
    });

    it('round-trips down and up; search is off while full_text is gone', async () => {
      const before = (await getJson(server, '/api/search?q=pomodoro')).body.total;
      const down = await sendJson(server, 'POST', '/api/migrate/down', { steps: TO_8 });
      expect(down.body).toMatchObject({ dryRun: false, from: LATEST, to: 8 });
      expect(
        down.body.steps.every(
          (s: { status: string; direction: string }) => s.status === 'applied' && s.direction === 'down',
        ),
      ).toBe(true);

      const status = await getJson(server, '/api/migrate/status');
      expect(status.body.currentVersion).toBe(8);
      expect(status.body.pending.map((p: { version: number }) => p.version)).toEqual(
        Array.from({ length: TO_8 }, (_, i) => 9 + i),
      );

      const search = await getJson(server, '/api/search?q=pomodoro');
      expect(search.status).toBe(200);
      expect(search.body).toMatchObject({ enabled: false, total: 0, hits: [], ignored: [] });
      expect(search.body.reason).toBe(
        'search is off: the full-text index is not built (run `transcripts migrate up`)',
      );
      // The terms it would leave out are named even while it is off.
      const emoji = await getJson(server, `/api/search?q=${encodeURIComponent('pomodoro 🎉')}`);
      expect(emoji.body).toMatchObject({ enabled: false, ignored: ['🎉'] });
      const health = await getJson(server, '/api/health');
      expect(health.body.status).toBe('degraded');
      expect(health.body.search.enabled).toBe(false);
      expect((await getJson(server, '/api/blueprint')).body.system.search.enabled).toBe(false);
      // The calendar's view is gone too: 503, not 500.
      const activity = await getJson(server, '/api/activity');
      expect(activity.status).toBe(503);
      expect(activity.body.error.code).toBe('service_unavailable');
      // Reindexing needs the full-text view.
      expect((await sendJson(server, 'POST', '/api/ingest/reindex', {})).status).toBe(503);

      const upTo9 = await sendJson(server, 'POST', '/api/migrate/up', { to: 9 });
      expect(upTo9.body).toMatchObject({ from: 8, to: 9 });
      const up = await sendJson(server, 'POST', '/api/migrate/up', {});
      expect(up.body).toMatchObject({ from: 9, to: LATEST });
      expect((await getJson(server, '/api/search?q=pomodoro')).body).toMatchObject({
        enabled: true,
        total: before,
      });
      expect((await getJson(server, '/api/health')).body.status).toBe('ok');
    });

    it('a POST without Content-Type is refused and changes nothing (a cross-site form could send it)', async () => {
      for (const path of ['/api/migrate/down', '/api/migrate/up', '/api/ingest/reindex']) {
        const res = await fetch(`${server.url}${path}`, { method: 'POST' });
        expect(res.status, path).toBe(415);
        expect((await readJson(res)).error.message).toContain('needs Content-Type: application/json');
      }
      expect((await getJson(server, '/api/migrate/status')).body.currentVersion).toBe(LATEST);
    });

    it('an empty JSON object means "all pending" / "one step"', async () => {
      const up = await fetch(`${server.url}/api/migrate/up`, {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      expect(up.status).toBe(200);
      expect(await readJson(up)).toMatchObject({ from: LATEST, to: LATEST, steps: [] });
      const down = await fetch(`${server.url}/api/migrate/down`, {
        method: 'POST',
        body: '{"dryRun":true}',
        headers: { 'content-type': 'application/json' },
      });
      expect((await readJson(down)).steps).toHaveLength(1);
    });

    it('rejects bad targets and bodies with 400 naming the field', async () => {
      const cases: Array<[string, unknown, string]> = [
        ['/api/migrate/up', { to: 99 }, 'to'],
        ['/api/migrate/up', { to: -1 }, 'to'],
        ['/api/migrate/up', { to: 'ten' }, 'to'],
        ['/api/migrate/up', { to: 1.5 }, 'to'],
        ['/api/migrate/up', { to: 3 }, 'to'],
        ['/api/migrate/up', { dryRun: 'yes' }, 'dryRun'],
        ['/api/migrate/up', { steps: 1 }, 'steps'],
        ['/api/migrate/down', { steps: LATEST + 1 }, 'steps'],
        ['/api/migrate/down', { steps: -1 }, 'steps'],
        ['/api/migrate/down', { to: 1 }, 'to'],
        ['/api/migrate/down', [1, 2], 'request body'],
      ];
      for (const [path, body, field] of cases) {
        const r = await sendJson(server, 'POST', path, body);
        expect(r.status, `${path} ${JSON.stringify(body)}`).toBe(400);
        expect(r.body.error.code).toBe('bad_request');
        // Named once, up front: `body field to: must be …`, not `body field to: to must be …`.
        expect(r.body.error.message).toMatch(new RegExp(`^(body field )?${field}: (?!${field} )`));
      }
      expect((await getJson(server, '/api/migrate/status')).body.currentVersion).toBe(LATEST);
    });
  });
});
