import { describe, expect, it } from 'vitest';
import { classifyTranscriptPath } from './transcript-path.js';

describe('classifyTranscriptPath', () => {
  it('reads the layouts of Claude Code projects', () => {
    expect(classifyTranscriptPath('/p/proj/abc.jsonl')).toEqual({
      kind: 'main',
      sessionId: 'abc',
      objectName: 'transcript.jsonl',
    });
    expect(classifyTranscriptPath('/p/proj/abc/subagents/agent-1.jsonl')).toEqual({
      kind: 'subagent',
      sessionId: 'abc',
      objectName: 'subagents/agent-1.jsonl',
    });
    expect(classifyTranscriptPath('/p/proj/agent-9.jsonl')).toEqual({
      kind: 'subagent',
      sessionId: null,
      objectName: 'subagents/agent-9.jsonl',
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
    });
    // Without a uuid it is an ordinary main transcript, named by its stem.
    expect(classifyTranscriptPath('/p/rollout-notes.jsonl')?.sessionId).toBe('rollout-notes');
  });
});
