/**
 * Stars, tags, notes, bookmarks and forget over a real server on each engine, through the API and
 * the CLI: bad input (unknown id, bad tag, huge note, stale revision), the list filters, the tag
 * facet, bookmarks, and notes found by full-text search; then forget, and the session stays gone through the watcher,
 * backfill, a restart, migrate down and up and the import of an older bundle that holds it; a
 * bundle carries annotations and tombstones to another instance; unforget lets backfill read it
 * again; --purge-source deletes the source file.
 */
import { appendFile, copyFile, mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getJson, runCli, sendJson, startTestServer, type TestServer } from '../support/api-server.js';
import { describeEngines } from '../support/engines.js';
import { claudeCorpusDir } from '../support/paths.js';
import { POMODORO, RATE_LIMIT } from '../support/corpus-sessions.js';
import { latestVersion } from '../../src/migrations/runner.js';

/** A word only the Pomodoro session holds, in its transcript and its title. */
const PHRASE = 'Pomodoro';
/** Words of the note put on it below, found in no transcript. */
const NOTE_PHRASE = encodeURIComponent('"see pomodoro app"');
const FILES = {
  [POMODORO]: path.join('yoavf__ai-sessions', 'claude-code-pomodoro-timer.jsonl'),
  [RATE_LIMIT]: path.join('slopus__happy', 'rate-limit.jsonl'),
};

describeEngines('annotations and forget', (engine) => {
  let root: string;
  let projects: string;
  let server: TestServer;
  let tmp: string;
  const cli = (args: string[]) => runCli([...args, '--webapi', server.url], { env: server.env });
  const until = async (what: string, check: () => Promise<boolean>) => {
    for (let i = 0; i < 300; i++) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`gave up waiting for ${what}`);
  };
  const listed = async (id: string) =>
    (await getJson(server, `/api/sessions?idPrefix=${id}&limit=0`)).body.total as number;
  /** Everything the store answers about the session: list, search, documents, objects. */
  const traces = async (id: string) => {
    const found: string[] = [];
    if ((await listed(id)) > 0) found.push('list');
    if ((await getJson(server, `/api/search?q=${PHRASE}`)).body.total > 0) found.push('search');
    const docs = (await getJson(server, `/api/store/docs?include_docs=true&limit=10000`)).body;
    for (const r of docs.rows) {
      if (r.id === `tombstone:${id}`) continue;
      const text = JSON.stringify(r);
      if (text.includes(id) || text.includes(PHRASE)) found.push(`doc ${r.id}`);
    }
    const objects = await getJson(server, `/api/store/objects/${id}/`);
    if (objects.status === 200 && JSON.stringify(objects.body).includes(`${id}/`)) found.push('objects');
    // The session's note, which full-text search finds with the entries.
    if ((await getJson(server, `/api/search?q=${NOTE_PHRASE}`)).body.total > 0) found.push('notes');
    if (JSON.stringify((await getJson(server, '/api/bookmarks')).body).includes(id)) found.push('bookmarks');
    return found;
  };

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'ct-annot-'));
    tmp = await mkdtemp(path.join(os.tmpdir(), 'ct-annot-b-'));
    projects = path.join(root, 'home', '.claude', 'projects', 'p');
    await mkdir(projects, { recursive: true });
    for (const f of Object.values(FILES))
      await copyFile(path.join(claudeCorpusDir, f), path.join(projects, path.basename(f)));
    // The first-start import reads them.
    server = await startTestServer({ root, env: await engine.serverEnv() });
    await until(
      'the first-start import',
      async () => (await listed(POMODORO)) === 1 && (await listed(RATE_LIMIT)) === 1,
    );
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await rm(tmp, { recursive: true, force: true });
  });

  it('refuses bad input: unknown id, bad tag, huge note, stale revision', async () => {
    expect((await sendJson(server, 'PUT', '/api/sessions/no-such-session/star', {})).status).toBe(404);
    const bad = await sendJson(server, 'PATCH', `/api/sessions/${POMODORO}/tags`, { add: ['Bad Tag'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/"Bad Tag" is not a valid tag: a tag is a short lowercase word/);
    const huge = await sendJson(server, 'PUT', `/api/sessions/${POMODORO}/note`, {
      note: 'x'.repeat(20_000),
    });
    expect(huge.status).toBe(413);
    expect(huge.body.error.message).toMatch(/at most 16384 are kept/);
    // Every kind of edit names the unknown session; a bookmark's note has its own limit.
    for (const [method, route, body] of [
      ['PATCH', 'tags', { add: ['ok'] }],
      ['PUT', 'note', { note: 'x' }],
      ['PUT', 'bookmarks/1', {}],
    ] as const) {
      const r = await sendJson(server, method, `/api/sessions/no-such-session/${route}`, body);
      expect(r.status, route).toBe(404);
    }
    const longMark = await sendJson(server, 'PUT', `/api/sessions/${POMODORO}/bookmarks/1`, {
      note: 'y'.repeat(1001),
    });
    expect(longMark.status).toBe(413);
    expect(longMark.body.error.message).toMatch(/1001 characters; at most 1000 are kept/);
    const noEntry = await sendJson(server, 'PUT', `/api/sessions/${POMODORO}/bookmarks/999999`, {});
    expect(noEntry.status).toBe(404);
    // Nothing of the refused edits was kept.
    expect((await getJson(server, `/api/sessions/${POMODORO}/annotations`)).body.rev).toBeNull();

    const first = await sendJson(server, 'PUT', `/api/sessions/${RATE_LIMIT}/note`, {
      note: 'first',
      rev: null,
    });
    expect(first.status).toBe(200);
    const rev = first.body.rev;
    const [a, b] = await Promise.all([
      sendJson(server, 'PUT', `/api/sessions/${RATE_LIMIT}/note`, { note: 'from A', rev }),
      sendJson(server, 'PUT', `/api/sessions/${RATE_LIMIT}/note`, { note: 'from B', rev }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const lost = a.status === 409 ? a : b;
    expect(lost.body.error.code).toBe('conflict');
    const now = (await getJson(server, `/api/sessions/${RATE_LIMIT}/annotations`)).body;
    expect(now.note).toBe(a.status === 200 ? 'from A' : 'from B');
    // A tag or bookmark edit from the stale revision is refused too, and changes nothing.
    for (const [method, route, body] of [
      ['PATCH', 'tags', { add: ['late'], rev }],
      ['PUT', 'bookmarks/0', { note: 'late', rev }],
    ] as const) {
      const r = await sendJson(server, method, `/api/sessions/${RATE_LIMIT}/${route}`, body);
      expect(r.status, route).toBe(409);
    }
    expect((await getJson(server, `/api/sessions/${RATE_LIMIT}/annotations`)).body).toMatchObject({
      tags: [],
      bookmarks: [],
      rev: now.rev,
    });
    expect((await sendJson(server, 'DELETE', `/api/sessions/${RATE_LIMIT}/note`, undefined)).status).toBe(
      200,
    );
  });

  it('stars, tags, notes and bookmarks through the API and the CLI, and finds them', async () => {
    expect((await cli(['star', POMODORO.slice(0, 8)])).code).toBe(0);
    expect((await cli(['tag', POMODORO, 'add', 'demo', 'area/ui'])).stdout).toContain('area/ui demo');
    expect((await cli(['tag', RATE_LIMIT, 'add', 'demo'])).code).toBe(0);
    const badTag = await cli(['tag', RATE_LIMIT, 'add', 'No']);
    expect(badTag.code).toBe(2);
    expect(badTag.stderr).toMatch(/not a valid tag/);
    expect((await cli(['note', POMODORO, 'Timer', 'works,', 'see', 'pomodoro', '**app**'])).code).toBe(0);
    expect((await cli(['note', POMODORO, '--show'])).stdout).toContain('Timer works, see pomodoro **app**');
    const mark = await sendJson(server, 'PUT', `/api/sessions/${POMODORO}/bookmarks/2`, { note: 'the plan' });
    expect(mark.status).toBe(200);
    expect((await sendJson(server, 'PUT', `/api/sessions/${POMODORO}/bookmarks/999999`, {})).status).toBe(
      404,
    );

    const ids = async (q: string) =>
      (await getJson(server, `/api/sessions?${q}`)).body.sessions.map((s: { id: string }) => s.id).sort();
    expect(await ids('starred=true')).toEqual([POMODORO]);
    expect(await ids('tag=demo')).toEqual([POMODORO, RATE_LIMIT].sort());
    expect(await ids('tag=demo&tag=area/ui')).toEqual([POMODORO]);
    expect(await ids('hasNote=true')).toEqual([POMODORO]);
    expect((await getJson(server, '/api/sessions?tag=Nope')).status).toBe(400);
    const list = (await getJson(server, '/api/sessions')).body;
    expect(list.annotations[POMODORO]).toEqual({
      starred: true,
      tags: ['area/ui', 'demo'],
      hasNote: true,
      bookmarks: 1,
    });
    expect((await getJson(server, '/api/tags')).body.tags).toEqual([
      { value: 'demo', sessions: 2 },
      { value: 'area/ui', sessions: 1 },
    ]);
    const marks = (await getJson(server, '/api/bookmarks')).body;
    expect(marks.bookmarks).toEqual([
      expect.objectContaining({ sessionId: POMODORO, index: 2, note: 'the plan', file: 'transcript.jsonl' }),
    ]);
    expect(marks.bookmarks[0].title).toMatch(/Pomodoro/);
    // Notes are searched with the entries: the session's note, and the bookmark's on its entry.
    const noteHits = async (q: string, filter = '') =>
      (await getJson(server, `/api/search?q=${encodeURIComponent(q)}&limit=100${filter}`)).body.hits
        .filter((h: { kind: string }) => h.kind !== 'entry')
        .map((h: { kind: string; sessionId: string; file: string; index: number }) => [
          h.kind,
          h.sessionId,
          h.file,
          h.index,
        ]);
    expect(await noteHits('"works, SEE pomodoro app"')).toEqual([['note', POMODORO, '', -1]]);
    expect(await noteHits('"the plan"')).toEqual([['bookmark', POMODORO, 'transcript.jsonl', 2]]);
    expect(await noteHits('"see pomodoro app"', '&project=nothing-here')).toEqual([]);
    const cliList = JSON.parse((await cli(['sessions', '--starred', '--tag', 'demo', '--json'])).stdout);
    expect(cliList.sessions.map((s: { id: string }) => s.id)).toEqual([POMODORO]);
    expect((await cli(['unstar', POMODORO])).code).toBe(0);
    expect(await ids('starred=true')).toEqual([]);
    expect((await cli(['star', POMODORO])).code).toBe(0);
  });

  it('forgets a session, which stays gone through every source, and travels in bundles', async () => {
    // An older bundle of the session alone (the other one grows below, which would be a conflict).
    const older = path.join(tmp, 'older');
    expect((await cli(['export', older, '--session', POMODORO])).code).toBe(0);
    expect(
      (await readFile(path.join(older, 'docs.ndjson'), 'utf8')).includes(`"annotation:${POMODORO}"`),
    ).toBe(true);

    const forget = await cli(['forget', POMODORO]);
    expect(forget.code).toBe(0);
    expect(forget.stdout).toMatch(/forgot .*documents? and 1 object removed/);
    expect(await traces(POMODORO)).toEqual([]);
    expect((await getJson(server, `/api/sessions/${POMODORO}`)).status).toBe(404);
    expect((await cli(['forgotten'])).stdout).toContain(POMODORO);

    // The watcher: both files grow; once the other session shows its new line, the forgotten one
    // has been seen too, and is still gone.
    const line = (id: string, text: string) =>
      JSON.stringify({
        type: 'user',
        sessionId: id,
        uuid: `u-${id}-late`,
        timestamp: '2026-01-01T00:00:00.000Z',
        message: { role: 'user', content: text },
      }) + '\n';
    const entriesOf = async (id: string) =>
      (await getJson(server, `/api/sessions/${id}`)).body.counts.entries;
    const before = await entriesOf(RATE_LIMIT);
    await appendFile(
      path.join(projects, path.basename(FILES[POMODORO])),
      line(POMODORO, `${PHRASE} once more`),
    );
    await appendFile(path.join(projects, path.basename(FILES[RATE_LIMIT])), line(RATE_LIMIT, 'a late line'));
    await until('the watcher', async () => (await entriesOf(RATE_LIMIT)) > before);
    expect(await listed(POMODORO)).toBe(0);
    expect(await traces(POMODORO)).toEqual([]);

    // backfill, a restart (first-start import, watcher), migrate down and up, an older bundle.
    expect((await cli(['backfill', '--dir', path.dirname(projects)])).code).toBe(0);
    expect(await listed(POMODORO)).toBe(0);
    await server.stop({ keep: true });
    server = await startTestServer({ root, env: server.env });
    expect(await listed(POMODORO)).toBe(0);
    // Every migration down (the views go; user data and tombstones stay), then up again.
    expect((await cli(['migrate', 'down', '--steps', String(latestVersion())])).code).toBe(0);
    expect((await cli(['migrate', 'up'])).code).toBe(0);
    expect(await listed(POMODORO)).toBe(0);
    const imported = await cli(['import', older]);
    expect(imported.stderr + imported.stdout).not.toMatch(/conflict/i);
    expect(imported.code).toBe(0);
    expect(imported.stdout, imported.stdout).toMatch(/1 session forgotten/);
    expect(await listed(POMODORO)).toBe(0);
    expect(await traces(POMODORO)).toEqual([]);

    // A new bundle carries the tombstone and the other session's tags to another instance.
    const newer = path.join(tmp, 'newer');
    expect((await cli(['export', newer])).code).toBe(0);
    const other = await startTestServer({ env: await engine.serverEnv() });
    try {
      expect((await runCli(['import', newer, '--webapi', other.url], { env: other.env })).code).toBe(0);
      expect(
        (await getJson(other, '/api/forgotten')).body.forgotten.map(
          (f: { sessionId: string }) => f.sessionId,
        ),
      ).toEqual([POMODORO]);
      expect((await getJson(other, `/api/sessions/${RATE_LIMIT}/annotations`)).body.tags).toEqual(['demo']);
      // And the older bundle, which still holds the session, does not bring it back there either.
      expect((await runCli(['import', older, '--webapi', other.url], { env: other.env })).code).toBe(0);
      expect((await getJson(other, `/api/sessions?idPrefix=${POMODORO}&limit=0`)).body.total).toBe(0);
    } finally {
      await other.stop();
    }

    // unforget: the next backfill reads it again; forget --purge-source deletes the file.
    expect((await cli(['unforget', POMODORO])).code).toBe(0);
    const again = await cli(['backfill', '--dir', path.dirname(projects)]);
    expect(again.code).toBe(0);
    expect(await listed(POMODORO), again.stdout + again.stderr).toBe(1);
    const source = path.join(projects, path.basename(FILES[POMODORO]));
    const purge = await cli(['forget', POMODORO, '--purge-source']);
    expect(purge.code).toBe(0);
    expect(purge.stdout).toContain(`deleted ${source}`);
    await expect(stat(source)).rejects.toThrow(/ENOENT/);
    expect(await listed(POMODORO)).toBe(0);
  }, 180_000); // a dozen CLI runs and two server starts
});
