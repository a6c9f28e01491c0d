import { describe, expect, it } from 'vitest';
import type { Health } from '../../../client/api-client.js';
import { assessApi, assessHealth, assessInstanceEnv, type Probe } from './api-checks.js';

const health = (over: Partial<Health> = {}): Health => ({
  status: 'ok',
  version: '0.1.0',
  uptimeMs: 90_000,
  store: { engine: 'sqlite', state: 'ready' },
  counts: { documents: 10, sessions: 2, objects: 2, objectBytes: 2048 },
  schema: { currentVersion: 10, latestVersion: 10, pending: [] },
  search: { enabled: true, stale: false },
  import: {
    state: 'done',
    roots: ['/home/me/.claude/projects'],
    filesTotal: 1,
    filesDone: 1,
    bytesTotal: 1,
    bytesDone: 1,
    sessions: 2,
  },
  watch: { enabled: true, trees: [{ path: '/home/me/.claude/projects', state: 'watching' }] },
  ...over,
});
const up = (h: Health): Probe => ({ ok: true, url: 'http://127.0.0.1:7650', health: h });
const down: Probe = { ok: false, url: 'http://127.0.0.1:7650', kind: 'unreachable', reason: 'ECONNREFUSED' };
const start = 'transcripts serve';

describe('the API check', () => {
  it('says where the instance was found; an address from the environment may be the mistake', () => {
    const env = { url: 'http://127.0.0.1:7700', source: 'env' as const, detail: 'WEBAPI_PORT=7700' };
    expect(assessApi(env, up(health()), start)).toMatchObject({ status: 'ok' });
    const r = assessApi(env, { ...down, url: env.url }, start);
    expect(r.message).toBe(
      'http://127.0.0.1:7700 (from the environment: WEBAPI_PORT=7700): nothing answers (ECONNREFUSED)',
    );
    expect(r.fix).toBe('transcripts serve; or unset WEBAPI_PORT (they lead here)');
    const refused = assessApi(
      env,
      { ...down, kind: 'refused', reason: 'HTTP 401 unauthorized: token' },
      start,
    );
    expect(refused.fix).toMatch(/^set CT_API_TOKEN/);
    expect(assessApi({ error: 'WEBAPI_PORT: "x" is not a port' }, null, start).status).toBe('fail');
  });
});

describe('what the health answer says', () => {
  const byId = (h: Health) => new Map(assessHealth(up(h), '0.1.0', start).map((r) => [r.id, r]));

  it('all ok for a current, healthy instance', () => {
    expect([...byId(health()).values()].map((r) => r.status)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok']);
  });

  it('watching: the trees named; off warns for a server on this machine, not for a shared one', () => {
    const projects = '/home/me/.claude/projects';
    const codex = '/home/me/.codex/sessions';
    expect(
      byId(
        health({
          watch: {
            enabled: true,
            trees: [
              { path: projects, state: 'watching' },
              { path: codex, state: 'absent' },
            ],
          },
        }),
      ).get('watch'),
    ).toMatchObject({ status: 'ok', message: `watching ${projects} and ${codex} once it exists` });
    const off = {
      enabled: false,
      trees: [
        { path: projects, state: 'off' as const },
        { path: codex, state: 'off' as const },
      ],
    };
    expect(byId(health({ watch: off })).get('watch')).toMatchObject({
      status: 'warn',
      message: expect.stringMatching(/^off \(serve --no-watch\): \/home\/me\/\.claude\/projects and /),
      fix: expect.stringContaining('restart the server without --no-watch (transcripts serve)'),
    });
    const shared = assessHealth(
      { ok: true, url: 'https://transcripts.internal', health: health({ watch: off }) },
      '0.1.0',
      start,
    ).find((r) => r.id === 'watch');
    expect(shared).toMatchObject({
      status: 'ok',
      message: expect.stringMatching(/^off on the server at https:/),
    });
    const failed = byId(
      health({ watch: { enabled: true, trees: [{ path: projects, state: 'failed', error: 'EACCES' }] } }),
    ).get('watch');
    expect(failed).toMatchObject({ status: 'warn', message: `cannot watch ${projects}: EACCES` });
    // An older server does not say: not checked.
    const { watch: _watch, ...older } = health();
    expect(byId(older as Health).get('watch')?.status).toBe('skip');
  });

  it('version mismatch, pending migrations, search off or stale, a failed import', () => {
    expect(byId(health({ version: '0.2.0' })).get('version')).toMatchObject({ status: 'warn' });
    const pending = byId(
      health({
        schema: {
          currentVersion: 8,
          latestVersion: 10,
          pending: [
            { version: 9, name: 'full-text' },
            { version: 10, name: 'daily-activity' },
          ],
        },
        search: { enabled: false, stale: false },
      }),
    );
    expect(pending.get('schema')).toMatchObject({ status: 'fail', fix: 'transcripts migrate up' });
    expect(pending.get('schema')!.message).toMatch(
      /^version 8 of 10: 2 pending migrations \(9 full-text, 10 daily-activity\)/,
    );
    expect(pending.get('search')).toMatchObject({ status: 'warn', fix: 'transcripts migrate up' });
    expect(byId(health({ search: { enabled: true, stale: true } })).get('search')).toMatchObject({
      status: 'warn',
      fix: 'transcripts reindex',
    });
    const failed = byId(health({ import: { ...health().import, state: 'failed', reason: 'EACCES' } })).get(
      'import',
    )!;
    expect(failed.status).toBe('warn');
    expect(failed.fix).toMatch(/^transcripts backfill/);
    expect(
      byId(health({ store: { engine: 'postgres', state: 'error', error: 'gone' }, counts: null })).get(
        'store',
      )!.status,
    ).toBe('fail');
  });

  it('one skip line while the API does not answer', () => {
    expect(assessHealth(down, '0.1.0', start).map((r) => [r.id, r.status])).toEqual([['health', 'skip']]);
  });
});

describe('instance.env', () => {
  const file = '/c/instance.env';
  it('ok when it names an instance that answers; stale when nothing answers there', () => {
    expect(
      assessInstanceEnv({ file, exists: true, url: down.url }, up(health()), down.url, start).status,
    ).toBe('ok');
    const stale = assessInstanceEnv(
      { file, exists: true, url: down.url },
      down,
      'http://127.0.0.1:7700',
      start,
    );
    expect(stale.status).toBe('fail');
    expect(stale.message).toContain('names http://127.0.0.1:7650, where nothing answers (ECONNREFUSED)');
    expect(stale.message).toContain('this CLI uses http://127.0.0.1:7700');
    expect(stale.fix).toBe('transcripts serve (it writes instance.env again at start)');
  });

  it('absent: fine while the default answers; a warning when nothing does; unreadable: fail', () => {
    const absent = { file, exists: false, url: down.url, namesNone: true };
    expect(assessInstanceEnv(absent, up(health()), down.url, start).status).toBe('ok');
    expect(assessInstanceEnv(absent, down, down.url, start)).toMatchObject({ status: 'warn', fix: start });
    expect(
      assessInstanceEnv({ file, exists: true, problem: 'WEBAPI_PORT: "x" is not a port' }, null, null, start)
        .status,
    ).toBe('fail');
  });
});
