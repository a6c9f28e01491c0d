/**
 * The resumable state of a session accumulator: plain JSON, bounded, so ingest can keep it in a
 * `_local` document, stop after any chunk and feed only the new lines of an appended transcript.
 * It is read back from storage, so it has a schema; a state of another `v` is not resumed (re-run
 * the session from its first line instead).
 */
import { z } from 'zod';
import { summaryDocSchema } from '../documents.js';
import { usageStateSchema, zeroUsage } from '../usage.js';

export const ACCUMULATOR_STATE_VERSION = 1;

/** The first value from the main transcript wins; other files only fill in when it has none. */
const byFile = z.object({ main: z.string().nullable(), other: z.string().nullable() });

export const accumulatorStateSchema = z.object({
  v: z.literal(ACCUMULATOR_STATE_VERSION),
  cwd: byFile,
  gitBranch: byFile,
  /** Claude Code version: the last one seen (per main / other files). */
  version: byFile,
  /** Model → earliest timestamp it was seen at (null when untimed). Ordered on output by that
   *  time, so feeding files in another order (incremental vs clean runs) gives the same list. */
  models: z.record(z.string(), z.number().nullable()),
  firstMs: z.number().nullable(),
  lastMs: z.number().nullable(),
  titles: z.object({
    custom: z.string().nullable(),
    ai: z.string().nullable(),
    prompt: z.string().nullable(),
    summary: z.string().nullable(),
  }),
  counts: summaryDocSchema.shape.counts,
  toolCallsByName: z.record(z.string(), z.number()),
  usage: usageStateSchema,
  files: z.record(
    z.string(),
    z.object({ bytes: z.number(), entries: z.number(), agentId: z.string().optional() }),
  ),
  activity: z.array(z.tuple([z.number(), z.number()])),
  /** Tool uses waiting for their result, `[toolUseId, toolName]`, oldest first (bounded). */
  pendingTools: z.array(z.tuple([z.string(), z.string()])),
  sessionStartEmitted: z.boolean(),
  /** Per file: the last parseable timestamp (events of untimed lines use it) and whether a
   *  compact boundary awaits its summary line (the pair is one compaction). */
  fileState: z.record(
    z.string(),
    z.object({ lastTimestamp: z.string().nullable(), boundaryOpen: z.boolean() }),
  ),
});
export type AccumulatorState = z.infer<typeof accumulatorStateSchema>;

export function emptyAccumulatorState(): AccumulatorState {
  return {
    v: ACCUMULATOR_STATE_VERSION,
    cwd: { main: null, other: null },
    gitBranch: { main: null, other: null },
    version: { main: null, other: null },
    models: {},
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
