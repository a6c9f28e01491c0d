/**
 * The resumable state of a session accumulator: plain JSON, bounded, so ingest can keep it in a
 * `_local` document, stop after any chunk and feed only the new lines of an appended transcript.
 * It is read back from storage, so it has a schema; a state of another `v` is not resumed (re-run
 * the session from its first line instead).
 */
import type { SummaryDoc } from '../documents.js';
import { zeroUsage, type UsageState } from '../usage.js';

export const ACCUMULATOR_STATE_VERSION = 1;

/** The first value from the main transcript wins; other files only fill in when it has none. */
export interface ByFile {
  main: string | null;
  other: string | null;
}

/**
 * The state itself. Its schema (`accumulatorStateSchema`, for validating a stored state) lives in
 * `accumulator-state-schema.ts`: ingest runs in the hook process, which must not load zod.
 */
export interface AccumulatorState {
  v: typeof ACCUMULATOR_STATE_VERSION;
  cwd: ByFile;
  gitBranch: ByFile;
  /** Claude Code version: the last one seen (per main / other files). */
  version: ByFile;
  /** Model → earliest timestamp it was seen at (null when untimed). Ordered on output by that
   *  time, so feeding files in another order (incremental vs clean runs) gives the same list. */
  models: Record<string, number | null>;
  /** Model → assistant messages in the main conversation (not sidechains, not subagent files):
   *  the most used is the session's primary model. Absent in states from before it was kept. */
  mainMessages?: Record<string, number>;
  /** Subagent threads inside the main transcript (the layout before subagent files): sidechain
   *  lines that start a thread. Absent in states from before it was kept. */
  sidechainThreads?: number;
  /** Likely secrets by rule, summed over the entries' own counts. Absent in states from before
   *  they were counted: such a session's summary then says nothing about secrets. */
  secrets?: Record<string, number>;
  firstMs: number | null;
  lastMs: number | null;
  titles: { custom: string | null; ai: string | null; prompt: string | null; summary: string | null };
  counts: SummaryDoc['counts'];
  toolCallsByName: Record<string, number>;
  usage: UsageState;
  files: Record<string, { bytes: number; entries: number; agentId?: string }>;
  activity: Array<[number, number]>;
  /** Tool uses waiting for their result, `[toolUseId, toolName]`, oldest first (bounded). */
  pendingTools: Array<[string, string]>;
  sessionStartEmitted: boolean;
  /** Per file: the last parseable timestamp (events of untimed lines use it) and whether a
   *  compact boundary awaits its summary line (the pair is one compaction). */
  fileState: Record<string, { lastTimestamp: string | null; boundaryOpen: boolean }>;
}

export function emptyAccumulatorState(): AccumulatorState {
  return {
    v: ACCUMULATOR_STATE_VERSION,
    cwd: { main: null, other: null },
    gitBranch: { main: null, other: null },
    version: { main: null, other: null },
    models: {},
    mainMessages: {},
    sidechainThreads: 0,
    secrets: {},
    firstMs: null,
    lastMs: null,
    titles: { custom: null, ai: null, prompt: null, summary: null },
    counts: {
      entries: 0,
      prompts: 0,
      assistantMessages: 0,
      toolCalls: 0,
      toolErrors: 0,
      malformed: 0,
      sidechainEntries: 0,
      compactions: 0,
      images: 0,
    },
    toolCallsByName: {},
    usage: { totals: zeroUsage(), recent: [] },
    files: {},
    activity: [],
    pendingTools: [],
    sessionStartEmitted: false,
    fileState: {},
  };
}
