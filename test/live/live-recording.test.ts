/**
 * Live recording end to end, with real servers and the real `transcripts hook`: a corpus session
 * is played line by line (test/live/play.ts) and must end up stored exactly as a clean backfill of
 * the same file stores it — plus exactly one event document per hook call — whether
 * - the hooks record it alone (status running during, ended after, reconciliation consistent);
 * - the API is stopped for the middle third (the hook spools; the next call that reaches the API
 *   replays the spool in order);
 * - the server is killed mid-session (the restarted server replays the spool itself);
 * - the watcher and the hooks both record it (the very same documents as the hooks alone), or the
 *   watcher alone (the backfill's documents, live).
 */
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { EventDoc } from '../../src/core/documents.js';
import { canonicalJson } from '../../src/core/revision.js';
import { ingestTree } from '../../src/ingest/ingest-tree.js';
import { storeSink } from '../../src/ingest/sink.js';
import { openStore } from '../../src/store/open-store.js';
import { getJson, startTestServer, type TestServer } from '../support/api-server.js';
import { snapshotApi, type ApiSnapshot } from '../support/api-snapshot.js';
import { claudeCorpusDir, corpusDir, repoRoot } from '../support/paths.js';
import { snapshotStore } from '../support/store-snapshot.js';
import { expectedHookDocs, hookEnv, play, planSession, type HookCall, type Step } from './play.js';

const SIMPLE = {
  id: '1af7fc5e-8455-4414-9ccd-011d40f70b2a',
  source: {
    main: path.join(
      claudeCorpusDir,
      'd-kimuson__claude-code-viewer',
      '1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl',
    ),
  },
};
const WITH_AGENT = {
  id: 'cc1df109-4282-4321-8248-8bbcd471da78',
  source: {
    main: path.join(
      claudeCorpusDir,
      'aaaAlexanderaaa__cchistory',
      'cc1df109-4282-4321-8248-8bbcd471da78.jsonl',
    ),
    subagents: [
      path.join(
        claudeCorpusDir,
        'aaaAlexanderaaa__cchistory',
        'cc1df109-4282-4321-8248-8bbcd471da78',
        'subagents',
        'agent-a0a2928875cb36a92.jsonl',
      ),
    ],
  },
};

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop().catch(() => undefined);
  rmSync(sharedHome, { recursive: true, force: true });
});

async function server(options: { root?: string; args?: string[]; env?: Record<string, string> } = {}) {
  const s = await startTestServer({ root: options.root, args: options.args, env: options.env });
  servers.push(s);
  return s;
}

/** The session's plan, written under HOME (`<home>/.claude/projects`, what the watcher watches). */
function planFor(home: string, session: typeof SIMPLE | typeof WITH_AGENT) {
  const transcriptPath = path.join(home, '.claude', 'projects', '-work-app', `${session.id}.jsonl`);
  const steps = planSession(session.source, { sessionId: session.id, transcriptPath, cwd: '/work/app' });
  const end = steps.reduce((m, s) => (s.kind === 'hook' && s.at > m ? s.at : m), '');
  // The server's clock stands just after the session: "running" while it plays, for the whole day.
  const now = new Date(Date.parse(end) + 60_000).toISOString();
  return { steps, now, projects: path.join(home, '.claude', 'projects') };
}

/** A temp root whose HOME has a (still empty) ~/.claude/projects, as after installing Claude Code. */
async function freshRoot(): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'ct-live-'));
  mkdirSync(path.join(root, 'home', '.claude', 'projects'), { recursive: true });
  return root;
}

/**
 * One HOME for the hooks-alone and the watcher-and-hooks runs: the transcript path is part of each
 * hook payload (hence of each event id), so both runs must write the same path to be comparable.
 */
const sharedHome = mkdtempSync(path.join(tmpdir(), 'ct-live-home-'));
function emptySharedProjects(): void {
  rmSync(path.join(sharedHome, '.claude'), { recursive: true, force: true });
  mkdirSync(path.join(sharedHome, '.claude', 'projects'), { recursive: true });
}

/** What a clean backfill of the final files stores (in process, the same pipeline as `backfill`). */
async function backfillSnapshot(projects: string) {
  const dir = await mkdtemp(path.join(tmpdir(), 'ct-live-ref-'));
  const store = await openStore({ dataDir: dir });
  try {
    const r = await ingestTree({
      root: projects,
      sink: storeSink(store),
      hostname: hostname(),
      source: 'backfill',
      provenance: 'backfilled',
    });
    expect(r.failed).toEqual([]);
    return await snapshotStore(store);
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Splits a snapshot into the hook events and the rest, the summary's recorder fields blanked. */
function split(docs: Map<string, string>) {
  const hook: Record<string, string> = {};
  const rest: Record<string, string> = {};
  for (const [id, json] of docs) {
    const doc = JSON.parse(json) as Record<string, unknown>;
    if (doc.type === 'event' && doc.reconstructed !== true) hook[id] = json;
    else if (doc.type === 'summary') rest[id] = canonicalJson({ ...doc, source: '*', provenance: '*' });
    else rest[id] = json;
  }
  return { hook, rest };
}

async function expectBackfillPlusEvents(
  s: TestServer,
  projects: string,
  steps: Step[],
  hooks = true,
): Promise<ApiSnapshot> {
  const live = await snapshotApi(s.url);
  const ref = await backfillSnapshot(projects);
  const l = split(live.docs);
  const r = split(ref.docs);
  expect(l.rest).toEqual(r.rest);
  expect(Object.fromEntries(live.objects)).toEqual(Object.fromEntries(ref.objects));
  const expected = hooks ? expectedHookDocs(steps) : [];
  expect(new Set(expected.map((d) => d._id)).size).toBe(expected.length);
  expect(l.hook).toEqual(Object.fromEntries(expected.map((d: EventDoc) => [d._id, canonicalJson(d)])));
  return live;
}

function expectQuiet(calls: HookCall[]) {
  for (const c of calls) {
    expect(c.code, c.stderr).toBe(0);
    expect(c.stdout).toBe('');
    expect(c.stderr).toBe('');
  }
}

function hookLog(s: TestServer): Array<{ outcome: string; event: string; error?: string }> {
  return readFileSync(path.join(s.root, 'ct', 'data', 'live', 'hook.log'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { outcome: string; event: string });
}

let hooksAlone: ApiSnapshot | undefined;

// Each test plays a whole session through real hook processes (one node start per event): on a
// loaded two-core machine that alone took 30 s, half the default timeout.
describe('live recording', { timeout: 180_000 }, () => {
  it('records a session through the hooks alone: running, then ended, stored once, as a backfill would', async () => {
    emptySharedProjects();
    const { steps, now, projects } = planFor(sharedHome, WITH_AGENT);
    const s = await server({ args: ['--no-watch'], env: { CT_NOW: now, HOME: sharedHome } });
    let midway: { status: string; hookRecorded: boolean; provenance: string } | undefined;
    const calls = await play(steps, {
      env: (at) => hookEnv(s.env, at),
      before: async (i, total) => {
        if (i === Math.floor(total / 2)) midway = (await getJson(s, `/api/sessions/${WITH_AGENT.id}`)).body;
      },
    });
    expectQuiet(calls);
    expect(midway).toMatchObject({ status: 'running', hookRecorded: true, provenance: 'live' });
    expect(hookLog(s).every((l) => l.outcome === 'sent')).toBe(true);

    const done = (await getJson(s, `/api/sessions/${WITH_AGENT.id}`)).body;
    expect(done).toMatchObject({
      status: 'ended',
      endReason: 'prompt_input_exit',
      source: 'live',
      provenance: 'live',
      subagents: 1,
      sourceDeleted: null,
      reconciliation: {
        state: 'consistent',
        toolCallsWithoutEvents: { count: 0 },
        eventsWithoutTranscript: { count: 0 },
      },
    });
    expect(done.reconciliation.hookToolCalls).toBeGreaterThan(10);
    hooksAlone = await expectBackfillPlusEvents(s, projects, steps);
  });

  it('spools while the API is stopped for the middle third, and the next call that reaches it replays', async () => {
    const root = await freshRoot();
    const { steps, now, projects } = planFor(path.join(root, 'home'), SIMPLE);
    // The server replays nothing itself here: the hook has to.
    const env = { CT_NOW: now, CT_SPOOL_REPLAY_MS: '0' };
    let s = await server({ root, args: ['--no-watch'], env });
    const third = Math.floor(steps.length / 3);
    const calls = await play(steps, {
      env: (at) => hookEnv(s.env, at),
      before: async (i) => {
        if (i === third) await s.stop({ keep: true });
        if (i === 2 * third) s = await server({ root, args: ['--no-watch'], env });
      },
    });
    expectQuiet(calls);
    const log = hookLog(s);
    const outcomes = log.map((l) => l.outcome);
    expect(outcomes).toContain('spooled');
    expect(outcomes).toContain('replayed');
    // Once replayed, calls go straight to the API again.
    expect(outcomes.at(-1)).toBe('sent');
    expect(log.find((l) => l.outcome === 'spooled')!.error).toMatch(/cannot reach the transcripts API/);
    expect((await getJson(s, `/api/sessions/${SIMPLE.id}`)).body).toMatchObject({
      status: 'ended',
      endReason: 'prompt_input_exit',
    });
    await expectBackfillPlusEvents(s, projects, steps);
  });

  it('survives the server being killed mid-session: the restarted server replays the spool', async () => {
    const root = await freshRoot();
    const { steps, now, projects } = planFor(path.join(root, 'home'), SIMPLE);
    const env = { CT_NOW: now };
    let s = await server({ root, args: ['--no-watch'], env });
    const half = Math.floor(steps.length / 2);
    const calls = await play(steps, {
      env: (at) => hookEnv(s.env, at),
      before: async (i) => {
        if (i === half) {
          const exited = new Promise((r) => s.process.once('exit', r));
          s.process.kill('SIGKILL');
          await exited;
        }
        if (i === half + 6) {
          s = await server({ root, args: ['--no-watch'], env });
          await waitFor(async () => /spool: replayed [1-9]/.test(s.logs()));
        }
      },
    });
    expectQuiet(calls);
    expect(hookLog(s).map((l) => l.outcome)).toContain('spooled');
    expect((await getJson(s, `/api/sessions/${SIMPLE.id}`)).body.status).toBe('ended');
    await expectBackfillPlusEvents(s, projects, steps);
  });

  it('stores exactly what the hooks alone store when the watcher records too', async () => {
    emptySharedProjects();
    const { steps, now, projects } = planFor(sharedHome, WITH_AGENT);
    const s = await server({ env: { CT_NOW: now, HOME: sharedHome } });
    await waitFor(async () => /watch: recording changes/.test(s.logs()));
    const calls = await play(steps, { env: (at) => hookEnv(s.env, at) });
    expectQuiet(calls);
    // The watcher may still be on the last append: wait until the store holds both whole files
    // (the subagent's too: a snapshot taken before the watcher reached it once lacked its chunk
    // and events).
    const size = readFileSync(path.join(projects, '-work-app', `${WITH_AGENT.id}.jsonl`)).length;
    const subagent = readFileSync(WITH_AGENT.source.subagents[0]!).length;
    let files: Array<{ bytes?: number }> | undefined;
    await waitFor(
      async () => {
        files = (await getJson(s, `/api/sessions/${WITH_AGENT.id}`)).body.files;
        return files?.[0]?.bytes === size && files?.[1]?.bytes === subagent;
      },
      // Once seen under a loaded CI machine: say what was stored, and what the server said.
      () =>
        `stored ${JSON.stringify(files?.map((f) => f.bytes))} of [${size}, ${subagent}] bytes; ` +
        `server log:\n${s.logs().slice(-4000)}`,
    );
    const both = await expectBackfillPlusEvents(s, projects, steps);
    expect(hooksAlone, 'the hooks-alone run comes first').toBeDefined();
    expect(Object.fromEntries(both.docs)).toEqual(Object.fromEntries(hooksAlone!.docs));
    expect(Object.fromEntries(both.objects)).toEqual(Object.fromEntries(hooksAlone!.objects));
  });

  it('records a session through the watcher alone, within about a second of each append', async () => {
    const root = await freshRoot();
    const { steps, now, projects } = planFor(path.join(root, 'home'), WITH_AGENT);
    const s = await server({ root, env: { CT_NOW: now } });
    await waitFor(async () => /watch: recording changes/.test(s.logs()));
    const lines = steps.filter((x) => x.kind === 'line');
    let seen = 0;
    await play(steps, {
      env: (at) => hookEnv(s.env, at),
      noHooks: true,
      before: async (i, _total, step) => {
        // Halfway, the appended lines show up without any hook call.
        if (step.kind === 'line' && ++seen === Math.floor(lines.length / 2)) {
          const started = Date.now();
          await waitFor(async () => (await getJson(s, `/api/sessions/${WITH_AGENT.id}`)).status === 200);
          expect(Date.now() - started).toBeLessThan(5000);
        }
      },
    });
    const size = readFileSync(path.join(projects, '-work-app', `${WITH_AGENT.id}.jsonl`)).length;
    await waitFor(
      async () => (await getJson(s, `/api/sessions/${WITH_AGENT.id}`)).body.files?.[0]?.bytes === size,
    );
    const subagent = readFileSync(WITH_AGENT.source.subagents[0]!).length;
    await waitFor(
      async () => (await getJson(s, `/api/sessions/${WITH_AGENT.id}`)).body.files?.[1]?.bytes === subagent,
    );
    const body = (await getJson(s, `/api/sessions/${WITH_AGENT.id}`)).body;
    // Never hook-recorded: "ended" once silent past the window, and live because it was seen growing.
    expect(body).toMatchObject({
      hookRecorded: false,
      provenance: 'live',
      source: 'live',
      reconciliation: { state: 'not_hook_recorded' },
    });
    await expectBackfillPlusEvents(s, projects, steps, false);
  });
});

describe('live recording of Codex rollouts', () => {
  it('records a rollout growing under CODEX_HOME/sessions, by the uuid in its name', async () => {
    const id = '019ce50a-d285-7a52-b98a-6a3a66a48547';
    const name = `rollout-2026-03-13T10-33-37-${id}.jsonl`;
    const lines = readFileSync(path.join(corpusDir, 'codex', 'aaaAlexanderaaa__cchistory', name), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => `${l}\n`);
    const root = await freshRoot();
    const codexHome = path.join(root, 'codex');
    const day = path.join(codexHome, 'sessions', '2026', '03', '13');
    mkdirSync(day, { recursive: true });
    const file = path.join(day, name);
    // Written before the server starts: the catch-up reads it.
    writeFileSync(file, lines.slice(0, 6).join(''));
    const s = await server({ root, env: { CODEX_HOME: codexHome, CT_NOW: '2026-03-13T02:46:00.000Z' } });
    await waitFor(async () =>
      s.logs().includes(`watch: recording changes in ${path.join(codexHome, 'sessions')}`),
    );
    expect((await getJson(s, `/api/sessions/${id}`)).body.counts.prompts).toBe(1);
    // The rest is appended while it runs.
    for (const line of lines.slice(6)) appendFileSync(file, line);
    const size = readFileSync(file).length;
    await waitFor(async () => (await getJson(s, `/api/sessions/${id}`)).body.files?.[0]?.bytes === size);
    const body = (await getJson(s, `/api/sessions/${id}`)).body;
    expect(body).toMatchObject({
      provenance: 'live',
      models: ['gpt-5.4'],
      cwd: '/Users/mock_user/workspace/history-lab',
    });
    const turns = (await getJson(s, `/api/sessions/${id}/turns`)).body.turns as Array<{ role: string }>;
    expect(turns.map((t) => t.role)).toEqual(['user', 'assistant', 'assistant', 'assistant']);
    const raw = await fetch(`${s.url}/api/store/objects/${id}/transcript.jsonl`);
    expect(await raw.text()).toBe(lines.join(''));
  });
});

async function waitFor(
  check: () => Promise<boolean>,
  explain: () => string = () => '',
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting ${explain()}`.trim());
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('live recording of Gemini CLI sessions', () => {
  it('records a new session under GEMINI_CLI_HOME, rewritten as it grows, once per message', async () => {
    const id = '7a0c1e2b-5d3f-4c1a-9e8b-2f4a6c8d0e1f';
    const hash = '02226788d1ed76a8b8cbb0990426125cbb3b10fa2afcdb390d2aea3dc7708dff';
    const name = 'session-2025-11-03T01-41-7a0c1e2b.json';
    const fixture = path.join(repoRoot, 'test', 'fixtures', 'gemini', 'json', hash, 'chats', name);
    const full = JSON.parse(readFileSync(fixture, 'utf8')) as { messages: unknown[] };
    const root = await freshRoot();
    const geminiHome = path.join(root, 'gemini-home');
    const tree = path.join(geminiHome, '.gemini', 'tmp');
    mkdirSync(tree, { recursive: true });
    const s = await server({
      root,
      env: { GEMINI_CLI_HOME: geminiHome, CT_NOW: '2025-11-03T01:45:00.000Z' },
    });
    await waitFor(async () => s.logs().includes(`watch: recording changes in ${tree}`));
    // A session Gemini CLI starts after the server: its project folder and chats/ appear too.
    const chats = path.join(tree, hash, 'chats');
    mkdirSync(chats, { recursive: true });
    const file = path.join(chats, name);
    const prompts = async () => (await getJson(s, `/api/sessions/${id}`)).body.counts?.prompts;
    for (const [n, expected] of [
      [3, 1],
      [8, 3],
      [full.messages.length, 4],
    ] as const) {
      // Gemini CLI writes the whole conversation again at each change.
      writeFileSync(file, JSON.stringify({ ...full, messages: full.messages.slice(0, n) }, null, 2));
      await waitFor(
        async () => (await prompts()) === expected,
        () => `${n} messages: ${expected} prompts`,
      );
    }
    const body = (await getJson(s, `/api/sessions/${id}`)).body;
    expect(body).toMatchObject({ provenance: 'live', title: 'Fix the login token length check' });
    const transcript = (await getJson(s, `/api/sessions/${id}/transcript?limit=100`)).body;
    expect(transcript.total).toBe(17);
    const raw = await fetch(`${s.url}/api/store/objects/${id}/transcript.jsonl`);
    expect(await raw.text()).toBe(readFileSync(file, 'utf8'));
  });
});

describe('live recording of OpenCode sessions', () => {
  it('records a new session in its data folder (XDG_DATA_HOME), and the messages added to it', async () => {
    const id = 'ses_52a0d1b3effeQ7nV2kLx9TfWcA';
    const root = await freshRoot();
    const data = path.join(root, 'xdg', 'opencode');
    mkdirSync(data, { recursive: true });
    const s = await server({
      root,
      env: { XDG_DATA_HOME: path.join(root, 'xdg'), CT_NOW: '2025-11-24T17:00:00.000Z' },
    });
    await waitFor(async () => s.logs().includes(`watch: recording changes in ${data}`));
    // OpenCode starts after the server: its storage/ folders appear, a file per document.
    cpSync(path.join(repoRoot, 'test', 'fixtures', 'opencode', 'storage'), path.join(data, 'storage'), {
      recursive: true,
    });
    const session = async () => (await getJson(s, `/api/sessions/${id}`)).body;
    await waitFor(
      async () => (await session()).counts?.prompts === 3,
      () => 'the fixture session: 3 prompts',
    );
    expect(await session()).toMatchObject({ agent: 'opencode', provenance: 'live', subagents: 1 });
    // A new prompt: its message, then its part.
    const message = 'msg_ad4f6d0b8001Rk3Ab7LmYj1Ex9';
    writeFileSync(
      path.join(data, 'storage', 'message', id, `${message}.json`),
      JSON.stringify({ role: 'user', time: { created: 1764000500000 }, id: message, sessionID: id }),
    );
    mkdirSync(path.join(data, 'storage', 'part', message));
    writeFileSync(
      path.join(data, 'storage', 'part', message, 'prt_ad4f6d0b8001032Zp32kQ.json'),
      JSON.stringify({ type: 'text', text: 'now write the test', id: 'prt_ad4f6d0b8001032Zp32kQ' }),
    );
    await waitFor(
      async () => (await session()).counts?.prompts === 4,
      () => 'the new prompt',
    );
    const transcript = (await getJson(s, `/api/sessions/${id}/transcript?limit=100`)).body;
    expect(transcript.total).toBe(45 + 2);
  });
});
