/**
 * A session the target holds in a different version is never half-overwritten: import leaves it
 * exactly as the target has it (documents and objects), writes the rest, names the session and
 * exits 1. The dry run reports the conflict beforehand.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, sendJson, startTestServer, type TestServer } from '../support/api-server.js';
import { testEngine } from '../support/engines.js';
import { runCommand } from '../support/bundle-cli.js';
import { RATE_LIMIT } from '../support/corpus-sessions.js';

let a: TestServer;
let b: TestServer;
let tmp: string;
let bundle: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'ct-conflict-'));
  bundle = path.join(tmp, 'bundle');
  [a, b] = await Promise.all([startTestServer({ corpus: testEngine('sqlite') }), startTestServer()]);
  expect(
    (await runCommand(['export', bundle, '--session', RATE_LIMIT, '--session', 'chat', '--webapi', a.url]))
      .code,
  ).toBe(0);
  // B already holds its own version of rate-limit.jsonl's session: another title.
  const { _rev, ...summary } = (await getJson(a, `/api/store/docs/summary:${RATE_LIMIT}`)).body;
  expect(
    (await sendJson(b, 'POST', '/api/ingest/docs', { docs: [{ ...summary, title: 'renamed on B' }] })).status,
  ).toBe(200);
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await rm(tmp, { recursive: true, force: true });
});

describe('import with a conflicting session', () => {
  it('the dry run reports it, counts none of its documents as new, and exits as the import would', async () => {
    const r = await runCommand(['import', bundle, '--dry-run', '--webapi', b.url]);
    expect(r.code).toBe(1);
    // Only chat's documents are new; rate-limit's others are skipped with it.
    const chat = (
      await runCommand(['export', path.join(tmp, 'chat'), '--session', 'chat', '--webapi', a.url])
    ).stdout;
    const chatDocs = Number(/(\d+) documents/.exec(chat)![1]);
    expect(r.stdout).toContain(`documents: ${chatDocs} new, 0 unchanged, 1 conflicting, `);
    expect(r.stdout).toMatch(/\d+ skipped \(the rest of the conflicting sessions\)/);
    expect(r.stdout).toMatch(/1 session differs from the target's and would be left as the target has it/);
    expect(r.stderr).toMatch(new RegExp(`${RATE_LIMIT}: document summary:${RATE_LIMIT} differs`));
  });

  it('leaves that session as the target has it, writes the others, and exits 1 naming it', async () => {
    const r = await runCommand(['import', bundle, '--webapi', b.url]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(`${RATE_LIMIT}: document summary:${RATE_LIMIT} differs from the target's`),
    );
    expect((await getJson(b, `/api/store/docs/summary:${RATE_LIMIT}`)).body.title).toBe('renamed on B');
    expect((await getJson(b, `/api/store/objects/${RATE_LIMIT}/`)).body.objects).toEqual([]);
    expect((await getJson(b, '/api/sessions/chat')).status).toBe(200);
    expect((await getJson(b, '/api/store/objects/chat/')).body.objects).toHaveLength(1);
  });

  it('run again, with nothing left to write: says so without writing or reindexing, and exits 1', async () => {
    const dry = await runCommand(['import', bundle, '--dry-run', '--webapi', b.url]);
    expect(dry.code).toBe(1);
    expect(dry.stdout).toMatch(/documents: 0 new, \d+ unchanged, 1 conflicting, \d+ skipped/);
    const r = await runCommand(['import', bundle, '--webapi', b.url]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/nothing to import: .* in another version; nothing written/);
    expect(r.stdout).not.toMatch(/reindexed/);
    expect(r.stderr).toMatch(new RegExp(`${RATE_LIMIT}: document summary:${RATE_LIMIT} differs`));
  });
});
