/**
 * Reconciliation: what the live hooks reported about a session, compared with what its transcript
 * holds. Both sides are already event documents — hook events (`reconstructed` absent) and the
 * events ingest rebuilds from transcript lines (`reconstructed: true`, one per tool result and
 * prompt) — plus the tool uses still waiting for a result (the ingest cursor's pending list).
 *
 * Three findings:
 * - tool calls without events: a tool result in the transcript, inside the span the hooks were
 *   recording, that no hook event mentions (a hook that failed, timed out or was not registered);
 * - events without transcript lines: a hook tool event whose tool-use id the transcript never
 *   shows, once the transcript has moved past it (lines lost, or a transcript that was replaced);
 * - a stalled transcript: hooks kept reporting activity that writes transcript lines, but the
 *   transcript stopped growing (disk full, file moved, shipping failing).
 */

/** Hook events whose work Claude Code writes to the transcript (a prompt line, tool lines). */
const WRITING_EVENTS = new Set(['UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PostToolUseFailure']);
/** At most this many examples per finding. */
export const RECONCILE_EXAMPLES = 20;
/** Hook clock vs transcript clock: the same machine, but a line is stamped a moment apart. */
const SLACK_MS = 2_000;
/** A hook tool event is only "without transcript line" once the transcript is this far past it. */
const SETTLE_MS = 60_000;
/** "Stalled": at least this many writing events this long after the transcript's last line. */
const STALL_AFTER_MS = 120_000;
const STALL_EVENTS = 3;

export interface ReconcileEvent {
  id: string;
  event: string;
  timestamp: string;
  reconstructed: boolean;
  toolUseId?: string;
  toolName?: string;
}

export interface ReconcileInput {
  /** Every event document of the session (hook and reconstructed), any order. */
  events: ReconcileEvent[];
  /** Tool uses seen in the transcript whose result has not arrived yet (`[id, name]`). */
  pendingToolUses: Array<[string, string]>;
  /** Time of the transcript's last timed line (the summary's lastActivity). */
  transcriptLastAt: string | null;
  /** Whether a SessionEnd was recorded. */
  ended: boolean;
}

export interface ReconcileToolItem {
  toolUseId: string;
  toolName: string | null;
  timestamp: string;
}

export interface ReconcileEventItem extends ReconcileToolItem {
  event: string;
}

export interface Reconciliation {
  /** `not_hook_recorded`: no hook event, nothing to compare. */
  state: 'consistent' | 'differences' | 'not_hook_recorded';
  /** The span the hooks were recording (first to last hook event). */
  window: { from: string; to: string } | null;
  /** Distinct tool-use ids the hooks reported. */
  hookToolCalls: number;
  /** Distinct tool results in the transcript inside the window. */
  transcriptToolCalls: number;
  toolCallsWithoutEvents: { count: number; items: ReconcileToolItem[] };
  eventsWithoutTranscript: { count: number; items: ReconcileEventItem[] };
  transcriptStalled: { lastLineAt: string | null; lastEventAt: string; eventsAfter: number } | null;
}

const ms = (iso: string | null | undefined) => {
  const t = iso ? Date.parse(iso) : Number.NaN;
  return Number.isFinite(t) ? t : null;
};

const byTime = <T extends { timestamp: string }>(a: T, b: T) =>
  a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : 0;

export function reconcile(input: ReconcileInput): Reconciliation {
  const hook = input.events.filter((e) => !e.reconstructed && ms(e.timestamp) !== null).sort(byTime);
  const empty = {
    hookToolCalls: 0,
    transcriptToolCalls: 0,
    toolCallsWithoutEvents: { count: 0, items: [] },
    eventsWithoutTranscript: { count: 0, items: [] },
    transcriptStalled: null,
  };
  if (hook.length === 0) return { state: 'not_hook_recorded', window: null, ...empty };

  const from = hook[0]!.timestamp;
  const to = hook[hook.length - 1]!.timestamp;
  const fromMs = ms(from)! - SLACK_MS;
  const toMs = ms(to)! + SLACK_MS;

  // What the hooks saw, by tool-use id.
  const hookTools = new Map<string, ReconcileEvent>();
  for (const e of hook) if (e.toolUseId && !hookTools.has(e.toolUseId)) hookTools.set(e.toolUseId, e);

  // What the transcript holds: tool results (rebuilt events) and tool uses still awaiting one.
  const transcriptTools = new Map<string, ReconcileEvent>();
  for (const e of input.events)
    if (e.reconstructed && e.toolUseId && !transcriptTools.has(e.toolUseId))
      transcriptTools.set(e.toolUseId, e);
  const pending = new Set(input.pendingToolUses.map(([id]) => id));

  const missingEvents: ReconcileToolItem[] = [];
  let inWindow = 0;
  for (const [id, e] of transcriptTools) {
    const t = ms(e.timestamp);
    if (t === null || t < fromMs || t > toMs) continue;
    inWindow++;
    if (!hookTools.has(id))
      missingEvents.push({ toolUseId: id, toolName: e.toolName ?? null, timestamp: e.timestamp });
  }

  const lastLineMs = ms(input.transcriptLastAt);
  const missingLines: ReconcileEventItem[] = [];
  for (const [id, e] of hookTools) {
    if (transcriptTools.has(id) || pending.has(id)) continue;
    // Until the transcript has moved well past the event, its line may simply not be shipped yet.
    const t = ms(e.timestamp)!;
    const settled = input.ended || (lastLineMs !== null && lastLineMs - t >= SETTLE_MS);
    if (!settled) continue;
    missingLines.push({
      event: e.event,
      toolUseId: id,
      toolName: e.toolName ?? null,
      timestamp: e.timestamp,
    });
  }

  const writingAfter = hook.filter(
    (e) =>
      WRITING_EVENTS.has(e.event) && (lastLineMs === null || ms(e.timestamp)! - lastLineMs > STALL_AFTER_MS),
  );
  const transcriptStalled =
    writingAfter.length >= STALL_EVENTS
      ? {
          lastLineAt: input.transcriptLastAt,
          lastEventAt: writingAfter[writingAfter.length - 1]!.timestamp,
          eventsAfter: writingAfter.length,
        }
      : null;

  missingEvents.sort(byTime);
  missingLines.sort(byTime);
  const differences = missingEvents.length > 0 || missingLines.length > 0 || transcriptStalled !== null;
  return {
    state: differences ? 'differences' : 'consistent',
    window: { from, to },
    hookToolCalls: hookTools.size,
    transcriptToolCalls: inWindow,
    toolCallsWithoutEvents: {
      count: missingEvents.length,
      items: missingEvents.slice(0, RECONCILE_EXAMPLES),
    },
    eventsWithoutTranscript: { count: missingLines.length, items: missingLines.slice(0, RECONCILE_EXAMPLES) },
    transcriptStalled,
  };
}
