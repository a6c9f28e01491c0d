/**
 * Shapes a session rollup row into the wire `Session`: derived status, runtime and active time
 * (with the configured idle threshold and live window), primary model, event count, and the
 * tokens' cost at the configured prices.
 */
import { summaryAgent } from '../core/agents.js';
import { activeTimeMs, runtimeMs, type Segment } from '../core/active-time.js';
import { sessionCost } from '../core/pricing.js';
import { deriveStatus } from '../core/status.js';
import type { Settings } from '../config/settings.js';
import type { SessionRow } from '../store/contract.js';
import type { Session } from './schemas/sessions.js';

/**
 * The main model: the first one (summaries list the model that wrote most of the main
 * conversation first) that is not a placeholder such as `<synthetic>`.
 */
export function primaryModel(models: readonly string[]): string | null {
  return models.find((m) => !m.startsWith('<')) ?? models[0] ?? null;
}

export function toSession(row: SessionRow, settings: Settings, nowMs: number): Session {
  const s = row.summary;
  const segments: Segment[] = row.activity?.length ? row.activity : (s.activity ?? []);
  const startedAt = row.firstActivity ?? s.firstActivity;
  const lastActivity = row.lastActivity ?? s.lastActivity;
  const { idleThresholdMs, liveWindowMs } = settings.system.sessions;
  return {
    id: s.sessionId,
    title: s.title,
    titleSource: s.titleSource,
    cwd: s.cwd,
    project: s.project,
    model: primaryModel(s.models),
    models: s.models,
    hostname: s.hostname,
    gitBranch: s.gitBranch,
    source: s.source,
    agent: summaryAgent(s),
    // Hook events are recorded while a session runs: such a session is live, whoever ingested
    // its transcript first (a backfill or the first-start import may have seen it before).
    provenance: row.hookRecorded ? 'live' : s.provenance,
    version: s.version,
    status: deriveStatus(
      { hookRecorded: row.hookRecorded, endedAt: row.endedAt, lastActivity },
      nowMs,
      liveWindowMs,
    ),
    hookRecorded: row.hookRecorded,
    startedAt,
    lastActivity,
    endedAt: row.endedAt,
    endReason: row.endReason,
    runtimeMs: runtimeMs(segments),
    activeTimeMs: activeTimeMs(segments, idleThresholdMs),
    counts: { ...s.counts, events: row.eventCount },
    toolCallsByName: s.toolCallsByName,
    tokens: s.tokens,
    tokensByModel: s.tokensByModel ?? null,
    cost: sessionCost(s.tokens, s.tokensByModel, s.models, settings.prices),
    transcriptBytes: s.transcriptBytes,
    subagents: s.subagents,
    files: s.files,
    secrets: s.secrets ?? null,
  };
}
