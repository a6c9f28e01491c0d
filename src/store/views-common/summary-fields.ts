/**
 * The fields of a summary document the rollup tables hold, read defensively: the doc store
 * accepts any JSON, and a malformed summary must not abort the write that carries it.
 */
import { mergeActivity, parseTimestamp, type Segment } from '../../core/active-time.js';
import { summaryAgent } from '../../core/agents.js';
import type { EventStats } from './event-stats.js';

export interface SummaryFields {
  title: string | null;
  cwd: string | null;
  project: string | null;
  hostname: string | null;
  source: string | null;
  /** The agent (agents.ts `summaryAgent`: an older summary's is told from its models). */
  agent: string;
  models: string[];
  firstMs: number | null;
  lastMs: number | null;
  activity: Segment[];
}

export function summaryFields(doc: Record<string, unknown>): SummaryFields {
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  const models = Array.isArray(doc.models)
    ? doc.models.filter((m): m is string => typeof m === 'string')
    : [];
  const activity = Array.isArray(doc.activity)
    ? doc.activity.filter(
        (s): s is Segment =>
          Array.isArray(s) &&
          s.length === 2 &&
          Number.isFinite(s[0]) &&
          Number.isFinite(s[1]) &&
          s[0] <= s[1],
      )
    : [];
  return {
    title: str(doc.title),
    cwd: str(doc.cwd),
    project: str(doc.project),
    hostname: str(doc.hostname),
    source: str(doc.source),
    agent: summaryAgent(doc),
    models: [...new Set(models)],
    firstMs: parseTimestamp(doc.firstActivity),
    lastMs: parseTimestamp(doc.lastActivity),
    activity,
  };
}

/** Activity over transcript and events, and first/last activity over both. */
export function combinedActivity(
  summary: SummaryFields,
  events: EventStats,
): { activity: Segment[]; firstMs: number | null; lastMs: number | null } {
  const activity = mergeActivity(summary.activity, events.activity);
  const firsts = [summary.firstMs, activity[0]?.[0]].filter((v): v is number => typeof v === 'number');
  const lasts = [summary.lastMs, activity[activity.length - 1]?.[1]].filter(
    (v): v is number => typeof v === 'number',
  );
  return {
    activity,
    firstMs: firsts.length > 0 ? Math.min(...firsts) : null,
    lastMs: lasts.length > 0 ? Math.max(...lasts) : null,
  };
}
