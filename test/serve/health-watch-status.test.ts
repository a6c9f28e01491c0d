/**
 * `GET /api/health` says which transcript trees the server watches — Claude Code's projects and
 * Codex's sessions — and whether watching is off (`serve --no-watch`); the OpenAPI document
 * describes it. Real servers (the built CLI) over temporary HOMEs.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getJson, startTestServer, type TestServer } from '../support/api-server.js';

interface Watch {
  enabled: boolean;
  trees: Array<{ path: string; state: string; error?: string }>;
}

async function watchOf(s: TestServer): Promise<Watch> {
  const { status, body } = await getJson(s, '/api/health');
  expect(status).toBe(200);
  return body.watch as Watch;
}

/** Polls health until `ok` holds (the watcher starts after the first-start import). */
async function until(s: TestServer, ok: (w: Watch) => boolean): Promise<Watch> {
  let w = await watchOf(s);
  for (let i = 0; i < 200 && !ok(w); i++) {
    await new Promise((r) => setTimeout(r, 100));
    w = await watchOf(s);
  }
  return w;
}

describe('GET /api/health: watch', () => {
  it('names each tree: watching, or absent until it appears', async () => {
    const s = await startTestServer({ env: { CT_SPOOL_REPLAY_MS: '0' } });
    try {
      const home = path.join(s.root, 'home');
      const claude = path.join(home, '.claude', 'projects');
      const codex = path.join(home, '.codex', 'sessions');
      const gemini = path.join(home, '.gemini', 'tmp');
      const opencode = path.join(home, '.local', 'share', 'opencode');
      expect((await watchOf(s)).enabled).toBe(true);

      mkdirSync(claude, { recursive: true });
      const w = await until(s, (x) => x.trees[0]?.state === 'watching');
      expect(w).toEqual({
        enabled: true,
        trees: [
          { path: claude, state: 'watching' },
          { path: codex, state: 'absent' },
          { path: gemini, state: 'absent' },
          { path: opencode, state: 'absent' },
        ],
      });

      mkdirSync(codex, { recursive: true });
      mkdirSync(gemini, { recursive: true });
      mkdirSync(opencode, { recursive: true });
      const all = await until(s, (x) => x.trees.every((t) => t.state === 'watching'));
      expect(all.trees.map((t) => t.state)).toEqual(['watching', 'watching', 'watching', 'watching']);
    } finally {
      await s.stop();
    }
  });

  it('with serve --no-watch: enabled false, every tree off', async () => {
    const s = await startTestServer({ args: ['--no-watch', '--no-import'] });
    try {
      const home = path.join(s.root, 'home');
      expect(await watchOf(s)).toEqual({
        enabled: false,
        trees: [
          { path: path.join(home, '.claude', 'projects'), state: 'off' },
          { path: path.join(home, '.codex', 'sessions'), state: 'off' },
          { path: path.join(home, '.gemini', 'tmp'), state: 'off' },
          { path: path.join(home, '.local', 'share', 'opencode'), state: 'off' },
        ],
      });
      const doc = (await getJson(s, '/api/openapi.json')).body;
      const health = doc.components.schemas.Health;
      expect(health.required).toContain('watch');
      expect(JSON.stringify(doc.components.schemas.WatchStatus ?? health.properties.watch)).toContain(
        'serve --no-watch',
      );
    } finally {
      await s.stop();
    }
  });
});
