import { describe, expect, it } from 'vitest';
import { classifyTranscriptPath } from './transcript-path.js';

describe('classifyTranscriptPath', () => {
  it('reads the layouts of Claude Code projects', () => {
    const id = '1b2c0332-e2dc-459f-88b9-1aad6e941e18';
    expect(classifyTranscriptPath(`/p/proj/${id}.jsonl`)).toEqual({
      kind: 'main',
      sessionId: id,
      objectName: 'transcript.jsonl',
      agent: 'claude-code',
    });
    // Not named by a session id (a renamed copy, another tool's export): its lines must say.
    expect(classifyTranscriptPath('/p/proj/session.jsonl')).toEqual({
      kind: 'main',
      sessionId: null,
      objectName: 'transcript.jsonl',
      agent: 'claude-code',
    });
    expect(classifyTranscriptPath('/p/proj/abc/subagents/agent-1.jsonl')).toEqual({
      kind: 'subagent',
      sessionId: 'abc',
      objectName: 'subagents/agent-1.jsonl',
      agent: 'claude-code',
    });
    expect(classifyTranscriptPath('/p/proj/agent-9.jsonl')).toEqual({
      kind: 'subagent',
      sessionId: null,
      objectName: 'subagents/agent-9.jsonl',
      agent: 'claude-code',
    });
    expect(classifyTranscriptPath('/p/proj/notes.txt')).toBeNull();
  });

  it("names a Codex rollout's session by the uuid at the end of its name", () => {
    const rollout =
      '/h/.codex/sessions/2026/03/13/rollout-2026-03-13T10-33-37-019CE50A-d285-7a52-b98a-6a3a66a48547.jsonl';
    expect(classifyTranscriptPath(rollout)).toEqual({
      kind: 'main',
      sessionId: '019ce50a-d285-7a52-b98a-6a3a66a48547',
      objectName: 'transcript.jsonl',
      agent: 'codex',
    });
    // Without a uuid it is a main transcript whose lines must name the session.
    expect(classifyTranscriptPath('/p/rollout-notes.jsonl')?.sessionId).toBeNull();
  });
});
