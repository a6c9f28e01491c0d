import { describe, expect, it } from 'vitest';
import { reconcile, type ReconcileEvent } from './reconciliation.js';

const at = (s: number) => new Date(Date.UTC(2025, 6, 1, 10, 0, 0) + s * 1000).toISOString();
let n = 0;
const hook = (event: string, s: number, toolUseId?: string): ReconcileEvent => ({
  id: `h${n++}`,
  event,
  timestamp: at(s),
  reconstructed: false,
  ...(toolUseId ? { toolUseId, toolName: 'Bash' } : {}),
});
const line = (event: string, s: number, toolUseId?: string): ReconcileEvent => ({
  id: `r${n++}`,
  event,
  timestamp: at(s),
  reconstructed: true,
  ...(toolUseId ? { toolUseId, toolName: 'Bash' } : {}),
});

describe('reconcile', () => {
  it('has nothing to compare without hook events', () => {
    const r = reconcile({
      events: [line('PostToolUse', 5, 't1')],
      pendingToolUses: [],
      transcriptLastAt: at(5),
      ended: false,
    });
    expect(r.state).toBe('not_hook_recorded');
    expect(r.window).toBeNull();
  });

  it('is consistent when every tool call has hook events and every event a line', () => {
    const r = reconcile({
      events: [
        hook('SessionStart', 0),
        hook('UserPromptSubmit', 1),
        line('UserPromptSubmit', 1),
        hook('PreToolUse', 2, 't1'),
        line('PostToolUse', 3, 't1'),
        hook('PostToolUse', 3, 't1'),
        hook('PreToolUse', 4, 't2'), // still running: the tool use is pending in the transcript
        hook('SessionEnd', 200),
      ],
      pendingToolUses: [['t2', 'Bash']],
      transcriptLastAt: at(4),
      ended: true,
    });
    expect(r).toMatchObject({
      state: 'consistent',
      window: { from: at(0), to: at(200) },
      hookToolCalls: 2,
      transcriptToolCalls: 1,
      transcriptStalled: null,
    });
  });

  it('finds tool calls the hooks missed, only inside the span they recorded', () => {
    const r = reconcile({
      events: [
        line('PostToolUse', 1, 'before'), // before the hooks were installed: not counted
        hook('UserPromptSubmit', 10),
        line('PostToolUseFailure', 20, 'missed'),
        hook('Stop', 30),
        line('PostToolUse', 500, 'after'), // after the last hook event: not judged yet
      ],
      pendingToolUses: [],
      transcriptLastAt: at(500),
      ended: false,
    });
    expect(r.state).toBe('differences');
    expect(r.toolCallsWithoutEvents).toEqual({
      count: 1,
      items: [{ toolUseId: 'missed', toolName: 'Bash', timestamp: at(20) }],
    });
    expect(r.transcriptToolCalls).toBe(1);
  });

  it('reports hook events without transcript lines once the transcript moved past them', () => {
    const events = [hook('PreToolUse', 10, 'ghost'), hook('PostToolUse', 11, 'ghost')];
    const early = reconcile({ events, pendingToolUses: [], transcriptLastAt: at(30), ended: false });
    expect(early.state).toBe('consistent');
    const late = reconcile({ events, pendingToolUses: [], transcriptLastAt: at(100), ended: false });
    expect(late.eventsWithoutTranscript).toEqual({
      count: 1,
      items: [{ event: 'PreToolUse', toolUseId: 'ghost', toolName: 'Bash', timestamp: at(10) }],
    });
    const ended = reconcile({ events, pendingToolUses: [], transcriptLastAt: at(30), ended: true });
    expect(ended.eventsWithoutTranscript.count).toBe(1);
  });

  it('notices a transcript that stopped growing while events continued', () => {
    const events = [
      hook('UserPromptSubmit', 0),
      hook('PreToolUse', 300, 'a'),
      hook('PostToolUse', 301, 'a'),
      hook('Notification', 400),
      hook('UserPromptSubmit', 600),
    ];
    const r = reconcile({ events, pendingToolUses: [['a', 'Bash']], transcriptLastAt: at(5), ended: false });
    expect(r.transcriptStalled).toEqual({ lastLineAt: at(5), lastEventAt: at(600), eventsAfter: 3 });
    expect(r.state).toBe('differences');
    // Idle notifications and a late SessionEnd are not transcript writes.
    const idle = reconcile({
      events: [
        hook('UserPromptSubmit', 0),
        hook('Notification', 400),
        hook('Notification', 500),
        hook('SessionEnd', 9000),
      ],
      pendingToolUses: [],
      transcriptLastAt: at(5),
      ended: true,
    });
    expect(idle.transcriptStalled).toBeNull();
  });

  it('caps the examples but counts everything', () => {
    const events: ReconcileEvent[] = [hook('UserPromptSubmit', 0)];
    for (let i = 0; i < 30; i++) events.push(line('PostToolUse', 1 + i, `t${i}`));
    events.push(hook('Stop', 60));
    const r = reconcile({ events, pendingToolUses: [], transcriptLastAt: at(60), ended: false });
    expect(r.toolCallsWithoutEvents.count).toBe(30);
    expect(r.toolCallsWithoutEvents.items).toHaveLength(20);
  });
});
