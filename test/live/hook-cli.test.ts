/**
 * `transcripts hook` as Claude Code runs it (the built CLI, payload on stdin): bad payloads are
 * recorded as far as possible and explained in the hook log, never failing the call; a full
 * spool counts what it drops and still ships the transcript; `hooks status` says what happened.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, runCli, startTestServer, type TestServer } from '../support/api-server.js';
import { callHook, hookEnv } from './play.js';

let server: TestServer;
let transcript: string;
const SID = 'hook-cli-session';

beforeAll(async () => {
  server = await startTestServer({
    args: ['--no-watch'],
    env: { CT_SPOOL_REPLAY_MS: '0', CT_NOW: '2025-07-01T10:05:00Z' },
  });
  transcript = path.join(server.root, 'home', '.claude', 'projects', 'p', `${SID}.jsonl`);
  mkdirSync(path.dirname(transcript), { recursive: true });
  appendFileSync(
    transcript,
    `${JSON.stringify({ type: 'user', sessionId: SID, uuid: 'u0', timestamp: '2025-07-01T10:00:00.000Z', message: { role: 'user', content: 'hello' } })}\n`,
  );
});

afterAll(async () => {
  await server?.stop();
});

const env = (extra: Record<string, string> = {}) => ({
  ...hookEnv(server.env, '2025-07-01T10:00:01.000Z'),
  ...extra,
});

function lastLog(): {
  outcome: string;
  problems?: string[];
  sessionId: string | null;
  notes?: string[];
  ms: number;
} {
  const lines = readFileSync(path.join(server.root, 'ct', 'data', 'live', 'hook.log'), 'utf8')
    .trim()
    .split('\n');
  return JSON.parse(lines.at(-1)!);
}

async function hookEvents(sessionId: string): Promise<Array<Record<string, unknown>>> {
  const { body } = await getJson(
    server,
    `/api/store/docs?startkey=${encodeURIComponent(JSON.stringify(`event:${sessionId}:`))}&endkey=${encodeURIComponent(JSON.stringify(`event:${sessionId}:\uffff`))}&include_docs=true`,
  );
  return (body.rows as Array<{ doc: Record<string, unknown> }>)
    .map((r) => r.doc)
    .filter((d) => d.reconstructed !== true);
}

function expectSilentSuccess(c: { code: number | null; stdout: string; stderr: string }) {
  expect(c.code, c.stderr).toBe(0);
  expect(c.stdout).toBe('');
  expect(c.stderr).toBe('');
}

describe('transcripts hook with bad payloads', () => {
  it('a payload that is not JSON: exit 0, nothing recorded, the log says why', async () => {
    expectSilentSuccess(await callHook('this is not json {', env()));
    expect(lastLog()).toMatchObject({ outcome: 'skipped', sessionId: null });
    expect(lastLog().problems!.join('\n')).toMatch(/not JSON[\s\S]*no session_id/);
  });

  it('a cut-off payload that still names its session is recorded, flagged', async () => {
    const cut = JSON.stringify({
      session_id: 'cut-session',
      hook_event_name: 'Notification',
      transcript_path: '/nowhere/cut-session.jsonl',
      message: 'waiting',
    }).slice(0, -20);
    expectSilentSuccess(await callHook(cut, env()));
    expect(lastLog()).toMatchObject({ outcome: 'sent', sessionId: 'cut-session' });
    const [doc] = await hookEvents('cut-session');
    expect(doc).toMatchObject({ event: 'Notification', data: { _salvaged: true } });
  });

  it('no session_id: taken from transcript_path, or nothing recorded', async () => {
    expectSilentSuccess(
      await callHook(JSON.stringify({ hook_event_name: 'Stop', transcript_path: transcript }), env()),
    );
    expect(lastLog()).toMatchObject({ outcome: 'sent', sessionId: SID });
    expectSilentSuccess(await callHook(JSON.stringify({ hook_event_name: 'Stop', cwd: '/w' }), env()));
    expect(lastLog()).toMatchObject({
      outcome: 'skipped',
      problems: expect.arrayContaining(['no session_id: nothing can be recorded']),
    });
  });

  it('wrong types: what is usable is recorded, the rest reported', async () => {
    const payload = {
      session_id: SID,
      transcript_path: transcript,
      hook_event_name: ['PreToolUse'],
      tool_name: 42,
      tool_use_id: { x: 1 },
      cwd: 7,
    };
    expectSilentSuccess(await callHook(JSON.stringify(payload), env({ CT_NOW: '2025-07-01T10:00:02.000Z' })));
    const log = lastLog();
    expect(log.outcome).toBe('sent');
    expect(log.problems!.join('\n')).toMatch(/hook_event_name: expected a string, got an array/);
    const doc = (await hookEvents(SID)).find((d) => d.timestamp === '2025-07-01T10:00:02.000Z')!;
    expect(doc).toMatchObject({ event: 'Unknown', data: { tool_name: 42, tool_use_id: { x: 1 } } });
    expect(doc.toolName).toBeUndefined();
  });

  it('a 10 MB payload: exit 0, recorded small', async () => {
    const big = JSON.stringify({
      session_id: SID,
      transcript_path: transcript,
      cwd: '/w',
      hook_event_name: 'PostToolUse',
      tool_name: 'Read',
      tool_use_id: 'toolu_big',
      tool_input: { file_path: '/big.txt' },
      tool_response: { content: 'x'.repeat(10 * 1024 * 1024) },
    });
    const c = await callHook(big, env({ CT_NOW: '2025-07-01T10:00:03.000Z' }));
    expectSilentSuccess(c);
    expect(lastLog().outcome).toBe('sent');
    const doc = (await hookEvents(SID)).find((d) => d.toolUseId === 'toolu_big')!;
    expect(doc).toMatchObject({ event: 'PostToolUse', success: true, preview: '/big.txt' });
    expect(JSON.stringify(doc).length).toBeLessThan(4000);
  });

  it('prints a hint, not a hang, when run by hand on a terminal-less empty stdin', async () => {
    expectSilentSuccess(await callHook('', env()));
    expect(lastLog().problems).toContain('empty payload on stdin');
  });
});

describe('the spool at its bound', () => {
  it('counts the events it cannot keep, ships the transcript anyway, and replays in order', async () => {
    await server.stop({ keep: true });
    const small = env({ CT_SPOOL_MAX_BYTES: '4096' });
    const sent: string[] = [];
    for (let i = 0; i < 12; i++) {
      const at = `2025-07-01T10:01:${String(i).padStart(2, '0')}.000Z`;
      appendFileSync(
        transcript,
        `${JSON.stringify({ type: 'user', sessionId: SID, uuid: `s${i}`, timestamp: at, message: { role: 'user', content: `prompt ${i} ${'y'.repeat(300)}` } })}\n`,
      );
      const payload = {
        session_id: SID,
        transcript_path: transcript,
        cwd: '/w',
        hook_event_name: 'UserPromptSubmit',
        prompt: `prompt ${i} ${'y'.repeat(600)}`,
      };
      expectSilentSuccess(await callHook(JSON.stringify(payload), { ...small, CT_NOW: at }));
      sent.push(at);
    }
    const logs = readFileSync(path.join(server.root, 'ct', 'data', 'live', 'hook.log'), 'utf8');
    expect(logs).toMatch(
      /spool full \(\d+ of 4096 bytes\): dropped UserPromptSubmit of session hook-cli-session \(counted; its transcript is still shipped on replay\)/,
    );
    const status = await runCli(['hooks', 'status', '--json'], { env: small });
    const spool = JSON.parse(status.stdout).spool;
    expect(spool.records).toBeGreaterThan(0);
    expect(spool.overflow.dropped).toBe(12 - spool.records);

    // Back up: the next call replays everything, then records itself.
    server = await startTestServer({
      root: server.root,
      args: ['--no-watch'],
      env: { CT_SPOOL_REPLAY_MS: '0', CT_NOW: '2025-07-01T10:05:00Z' },
    });
    expectSilentSuccess(
      await callHook(
        JSON.stringify({ session_id: SID, transcript_path: transcript, cwd: '/w', hook_event_name: 'Stop' }),
        { ...small, CT_NOW: '2025-07-01T10:02:00.000Z' },
      ),
    );
    expect(lastLog().outcome).toBe('replayed');
    const events = await hookEvents(SID);
    const prompts = events.filter((e) => e.event === 'UserPromptSubmit').map((e) => e.timestamp);
    expect(prompts).toEqual(sent.slice(0, spool.records));
    const overflow = events.filter((e) => e.event === 'transcripts:SpoolOverflow');
    expect(overflow).toHaveLength(1);
    expect(overflow[0]).toMatchObject({
      data: { dropped: spool.overflow.dropped, events: { UserPromptSubmit: spool.overflow.dropped } },
    });
    // Every transcript line arrived, dropped events or not.
    const s = (await getJson(server, `/api/sessions/${SID}`)).body;
    expect(s.transcriptBytes).toBe(readFileSync(transcript).length);
    const after = JSON.parse((await runCli(['hooks', 'status', '--json'], { env: small })).stdout);
    expect(after.spool).toMatchObject({ records: 0, overflow: null });
    expect(after.calls.last.outcome).toBe('replayed');
  });
});

describe('transcripts hook without the instance’s token', () => {
  it('keeps the events in the spool, not rejected for good, and delivers them once the token is right', async () => {
    const s = await startTestServer({
      args: ['--no-watch'],
      env: { CT_API_TOKEN: 'right-token', CT_SPOOL_REPLAY_MS: '0', CT_NOW: '2025-07-01T10:05:00Z' },
    });
    try {
      const sid = 'hook-token-session';
      const file = path.join(s.root, 'home', '.claude', 'projects', 'p', `${sid}.jsonl`);
      mkdirSync(path.dirname(file), { recursive: true });
      appendFileSync(
        file,
        `${JSON.stringify({ type: 'user', sessionId: sid, uuid: 'u0', timestamp: '2025-07-01T10:00:00.000Z', message: { role: 'user', content: 'hello' } })}\n`,
      );
      const payload = (event: string) =>
        JSON.stringify({
          session_id: sid,
          transcript_path: file,
          cwd: '/w',
          hook_event_name: event,
          prompt: 'hello',
        });
      const live = path.join(s.root, 'ct', 'data', 'live');
      const last = () =>
        JSON.parse(readFileSync(path.join(live, 'hook.log'), 'utf8').trim().split('\n').at(-1)!);

      const { CT_API_TOKEN: _token, ...withoutToken } = hookEnv(s.env, '2025-07-01T10:00:01.000Z');
      expectSilentSuccess(await callHook(payload('UserPromptSubmit'), withoutToken));
      expect(last().outcome).toBe('spooled');
      expect(existsSync(path.join(live, 'spool', 'rejected.ndjson'))).toBe(false);

      expectSilentSuccess(await callHook(payload('Stop'), hookEnv(s.env, '2025-07-01T10:00:02.000Z')));
      const events = await getJson(
        s,
        `/api/store/docs?startkey=${encodeURIComponent(JSON.stringify(`event:${sid}:`))}&endkey=${encodeURIComponent(JSON.stringify(`event:${sid}:\uffff`))}&include_docs=true`,
        { headers: { authorization: 'Bearer right-token' } },
      );
      const names = (events.body.rows as Array<{ doc: { event: string; reconstructed?: boolean } }>)
        .map((r) => r.doc)
        .filter((d) => d.reconstructed !== true)
        .map((d) => d.event)
        .sort();
      expect(names).toEqual(['Stop', 'UserPromptSubmit']);
    } finally {
      await s.stop();
    }
  });
});
