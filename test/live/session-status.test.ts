/**
 * Status transitions (DESIGN §4) under a controllable clock, and the live fields of a session's
 * detail (reconciliation, kept-after-deletion) — in process: a real store, `createApp` with an
 * injected clock, events and transcripts written by the same sender the server uses to replay
 * the hook spool.
 */
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app.js';
import { defaultSettings } from '../../src/config/settings.js';
import { sourceDeletionId } from '../../src/core/source-deletion.js';
import { storeSink } from '../../src/ingest/sink.js';
import { hookEventDoc, payloadHash } from '../../src/live/hook-event.js';
import { parseHookPayload, type HookPayload } from '../../src/live/hook-payload.js';
import { livePaths } from '../../src/live/live-paths.js';
import { createSender, type LiveSender } from '../../src/live/sender.js';
import { createMigrator } from '../../src/migrations/runner.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/contract.js';
import { claudeCorpusDir } from '../support/paths.js';

const MIN = 60_000;
const settings = defaultSettings();
const WINDOW = settings.system.sessions.liveWindowMs;

let dir: string;
let store: Store;
let sender: LiveSender;
let clock = 0;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ct-status-'));
  store = await openStore({ dataDir: path.join(dir, 'data') });
  await createMigrator(store).up({});
  sender = createSender({
    sink: storeSink(store),
    writeDocs: (docs) => store.docs.commit(docs, []),
    hostname: hostname(),
    paths: livePaths(path.join(dir, 'data')),
  });
  app = createApp({ store, settings, now: () => clock });
});

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function hook(
  sessionId: string,
  transcript: string,
  event: string,
  at: number,
  fields: Record<string, unknown> = {},
) {
  const input = Buffer.from(
    JSON.stringify({
      session_id: sessionId,
      transcript_path: transcript,
      cwd: '/w',
      hook_event_name: event,
      ...fields,
    }),
  );
  const p = parseHookPayload(input) as HookPayload & { sessionId: string };
  await sender.sendEvents([hookEventDoc(p, payloadHash(input), { now: at, hostname: 'box' })]);
  await sender.shipTranscript({ sessionId, path: transcript }, 1000);
}

async function session(id: string) {
  const res = await app.request(`/api/sessions/${id}`);
  expect(res.status).toBe(200);
  return (await res.json()) as {
    status: string;
    endedAt: string | null;
    endReason: string | null;
    hookRecorded: boolean;
    reconciliation: Record<string, unknown> & { state: string };
    sourceDeleted: unknown;
  };
}

function line(id: string, at: number, n: number, extra: Record<string, unknown> = {}) {
  return `${JSON.stringify({
    type: 'user',
    sessionId: id,
    uuid: `${id}-${n}`,
    timestamp: new Date(at).toISOString(),
    message: { role: 'user', content: `prompt ${n}` },
    ...extra,
  })}\n`;
}

describe('session status under a controllable clock', () => {
  it('runs while active, is abandoned after the live window, runs again on resume, ends on SessionEnd', async () => {
    const id = 'status-1';
    const t0 = Date.parse('2025-07-01T10:00:00Z');
    const file = path.join(dir, 'projects', 'p', `${id}.jsonl`);
    mkdirSync(path.dirname(file), { recursive: true });
    appendFileSync(file, line(id, t0, 0));
    await hook(id, file, 'SessionStart', t0, { source: 'startup' });
    await hook(id, file, 'UserPromptSubmit', t0, { prompt: 'prompt 0' });

    clock = t0 + 5 * MIN;
    expect(await session(id)).toMatchObject({ status: 'running', hookRecorded: true });
    clock = t0 + WINDOW;
    expect((await session(id)).status).toBe('running');
    clock = t0 + WINDOW + 1;
    expect((await session(id)).status).toBe('abandoned');

    // The person comes back the next day: a new prompt in the same session.
    const t1 = clock + 10 * MIN;
    appendFileSync(file, line(id, t1, 1));
    await hook(id, file, 'UserPromptSubmit', t1, { prompt: 'prompt 1' });
    clock = t1 + MIN;
    expect((await session(id)).status).toBe('running');

    await hook(id, file, 'SessionEnd', t1 + 2 * MIN, { reason: 'logout' });
    expect(await session(id)).toMatchObject({ status: 'ended', endReason: 'logout' });
    clock = t1 + 10 * WINDOW;
    expect((await session(id)).status).toBe('ended');

    // `claude --resume` keeps the id and transcript: a SessionStart after the end opens it again.
    const t2 = clock + MIN;
    await hook(id, file, 'SessionStart', t2, { source: 'resume' });
    appendFileSync(file, line(id, t2 + MIN, 2));
    await hook(id, file, 'UserPromptSubmit', t2 + MIN, { prompt: 'prompt 2' });
    clock = t2 + 2 * MIN;
    expect(await session(id)).toMatchObject({ status: 'running', endedAt: null, endReason: null });
    const list = (await (await app.request('/api/sessions')).json()) as {
      sessions: Array<{ id: string; status: string }>;
    };
    expect(list.sessions.find((s) => s.id === id)?.status).toBe('running');
    clock = t2 + WINDOW + 2 * MIN;
    expect((await session(id)).status).toBe('abandoned');
    await hook(id, file, 'SessionEnd', clock, { reason: 'prompt_input_exit' });
    expect(await session(id)).toMatchObject({ status: 'ended', endReason: 'prompt_input_exit' });
  });

  it('ends a session no hook recorded once it is silent past the window', async () => {
    const id = 'status-2';
    const t0 = Date.parse('2025-07-02T10:00:00Z');
    const file = path.join(dir, 'projects', 'p', `${id}.jsonl`);
    appendFileSync(file, line(id, t0, 0));
    await sender.shipTranscript({ sessionId: id, path: file }, 1000);
    clock = t0 + MIN;
    expect(await session(id)).toMatchObject({ status: 'running', hookRecorded: false });
    clock = t0 + WINDOW + 1;
    expect((await session(id)).status).toBe('ended');
  });
});

describe('live fields of a session', () => {
  it('reconciles hook events with the transcript', async () => {
    // A corpus session, and hook events for all but one of its tool results, plus one ghost.
    const id = '1af7fc5e-8455-4414-9ccd-011d40f70b2a';
    const source = path.join(claudeCorpusDir, 'd-kimuson__claude-code-viewer', `${id}.jsonl`);
    const file = path.join(dir, 'projects', 'demo', `${id}.jsonl`);
    mkdirSync(path.dirname(file), { recursive: true });
    const lines = readFileSync(source, 'utf8').split('\n').filter(Boolean);
    appendFileSync(file, `${lines.join('\n')}\n`);
    const results: Array<{ id: string; at: number }> = [];
    for (const l of lines) {
      const rec = JSON.parse(l) as { timestamp?: string; message?: { content?: unknown } };
      const content = Array.isArray(rec.message?.content) ? rec.message.content : [];
      for (const b of content as Array<{ type?: string; tool_use_id?: string }>)
        if (b.type === 'tool_result' && b.tool_use_id)
          results.push({ id: b.tool_use_id, at: Date.parse(rec.timestamp!) });
    }
    expect(results.length).toBeGreaterThan(3);
    const first = Date.parse((JSON.parse(lines[0]!) as { timestamp: string }).timestamp);
    await hook(id, file, 'SessionStart', first - 1000);
    const missed = results[1]!;
    for (const r of results)
      if (r !== missed)
        await hook(id, file, 'PostToolUse', r.at, { tool_name: 'Read', tool_use_id: r.id, tool_input: {} });
    await hook(id, file, 'PreToolUse', first + 1000, {
      tool_name: 'Bash',
      tool_use_id: 'toolu_ghost',
      tool_input: { command: 'ls' },
    });
    await hook(id, file, 'SessionEnd', results.at(-1)!.at + 5000, { reason: 'other' });

    clock = results.at(-1)!.at + MIN;
    const s = await session(id);
    expect(s.reconciliation).toMatchObject({
      state: 'differences',
      hookToolCalls: results.length,
      toolCallsWithoutEvents: { count: 1, items: [{ toolUseId: missed.id }] },
      eventsWithoutTranscript: {
        count: 1,
        items: [{ toolUseId: 'toolu_ghost', event: 'PreToolUse', toolName: 'Bash' }],
      },
      transcriptStalled: null,
    });
    expect(s.sourceDeleted).toBeNull();
  });

  it('shows a session kept after its transcript was deleted', async () => {
    const id = 'status-2';
    await store.docs.putLocal(sourceDeletionId(id), {
      v: 1,
      detectedAt: '2025-08-01T00:00:00.000Z',
      files: [{ path: '/gone/status-2.jsonl', objectName: 'transcript.jsonl' }],
    });
    expect((await session(id)).sourceDeleted).toEqual({
      detectedAt: '2025-08-01T00:00:00.000Z',
      files: [{ path: '/gone/status-2.jsonl', objectName: 'transcript.jsonl' }],
    });
    const list = (await (await app.request('/api/sessions')).json()) as {
      sessions: Array<Record<string, unknown>>;
    };
    expect(list.sessions[0]).not.toHaveProperty('reconciliation');
  });
});
