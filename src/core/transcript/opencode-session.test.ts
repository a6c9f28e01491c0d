import { describe, expect, it } from 'vitest';
import { emptyOpenCodeCursor, openCodeLines, type OpenCodeSession } from './opencode-session.js';

const user = (id: string, text: string, created: number) => ({
  info: { id, role: 'user', time: { created } },
  parts: [{ id: `prt_${id}`, type: 'text', text }],
});

/** A session as OpenCode rewrites it through one turn: snapshots taken while it runs. */
function growing(): OpenCodeSession[] {
  const info = {
    id: 'ses_1',
    title: 'New session - 2025-11-24T16:00:00.000Z',
    directory: '/w',
    version: '1.0.0',
  };
  const running = {
    info: { id: 'msg_2', role: 'assistant', modelID: 'm', time: { created: 2 } },
    parts: [
      {
        id: 'prt_a',
        type: 'tool',
        callID: 'c',
        tool: 'bash',
        state: { status: 'running', input: {}, time: { start: 2 } },
      },
    ],
  };
  const done = {
    info: { ...running.info, time: { created: 2, completed: 3 } },
    parts: [
      {
        id: 'prt_a',
        type: 'tool',
        callID: 'c',
        tool: 'bash',
        state: {
          status: 'completed',
          input: {},
          output: 'ok',
          title: '',
          metadata: {},
          time: { start: 2, end: 3 },
        },
      },
      {
        id: 'prt_b',
        type: 'step-finish',
        reason: 'stop',
        cost: 0,
        tokens: { input: 1, output: 1, reasoning: 0, cache: { read: 0, write: 0 } },
      },
    ],
  };
  return [
    { info, messages: [{ info: { id: 'msg_1', role: 'user', time: { created: 1 } }, parts: [] }] },
    { info, messages: [user('msg_1', 'hi', 1), running] },
    { info: { ...info, title: 'Say hi' }, messages: [user('msg_1', 'hi', 1), done] },
    {
      info: { ...info, title: 'Say hi' },
      messages: [user('msg_1', 'hi', 1), done, user('msg_3', 'again', 4)],
    },
  ];
}

describe('openCodeLines', () => {
  it('appends only what is settled, never twice, and ends where a clean read ends', () => {
    const steps = growing();
    let cursor = emptyOpenCodeCursor();
    const appended: string[] = [];
    const counts: number[] = [];
    for (const s of steps) {
      const next = openCodeLines(s, cursor);
      appended.push(...next.lines);
      counts.push(next.lines.length);
      cursor = next.cursor;
    }
    // The user message waits for its part; the assistant waits until it completes; the new
    // title is one more session line.
    expect(counts).toEqual([1, 2, 1 + 3, 2]);
    const clean = openCodeLines(steps[3]!, emptyOpenCodeCursor()).lines;
    const withoutSession = (ls: string[]) => ls.filter((l) => !l.includes('"opencode.session"'));
    expect(withoutSession(appended)).toEqual(withoutSession(clean));
    expect(new Set(appended).size).toBe(appended.length);
    expect(openCodeLines(steps[3]!, cursor).lines).toEqual([]);
  });

  it('says where the tokens come from, and tags a child session', () => {
    const s = growing()[2]!;
    const lines = openCodeLines(s, emptyOpenCodeCursor(), { agentId: 'ses_child' }).lines.map(
      (l) => JSON.parse(l) as Record<string, unknown>,
    );
    expect(lines.every((l) => l.agentId === 'ses_child')).toBe(true);
    expect(
      lines.find(
        (l) => l.type === 'opencode.message' && (l.message as { role: string }).role === 'assistant',
      ),
    ).toMatchObject({
      tokensFrom: 'steps',
    });
  });

  it('orders messages and parts by id, whatever order they were read in', () => {
    const s: OpenCodeSession = {
      info: { id: 'ses_1' },
      messages: [user('msg_b', 'second', 2), user('msg_a', 'first', 1)],
    };
    const texts = openCodeLines(s, emptyOpenCodeCursor())
      .lines.map((l) => JSON.parse(l) as { part?: { text?: string } })
      .flatMap((l) => (l.part?.text ? [l.part.text] : []));
    expect(texts).toEqual(['first', 'second']);
  });
});
