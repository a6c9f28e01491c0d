/** The schema of an accumulator state, for validating one read back from storage. */
import { z } from 'zod';
import { summaryDocSchema } from '../documents.js';
import { usageStateSchema } from '../usage-schema.js';
import { ACCUMULATOR_STATE_VERSION, type AccumulatorState } from './accumulator-state.js';

const byFile = z.object({ main: z.string().nullable(), other: z.string().nullable() });

export const accumulatorStateSchema = z.object({
  v: z.literal(ACCUMULATOR_STATE_VERSION),
  cwd: byFile,
  gitBranch: byFile,
  version: byFile,
  models: z.record(z.string(), z.number().nullable()),
  mainMessages: z.record(z.string(), z.number()).optional(),
  sidechainThreads: z.number().optional(),
  secrets: z.record(z.string(), z.number()).optional(),
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
  pendingTools: z.array(z.tuple([z.string(), z.string()])),
  sessionStartEmitted: z.boolean(),
  fileState: z.record(
    z.string(),
    z.object({ lastTimestamp: z.string().nullable(), boundaryOpen: z.boolean() }),
  ),
});

// The hand-written type and the schema must agree, both ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const agrees: Same<z.infer<typeof accumulatorStateSchema>, AccumulatorState> = true;
void agrees;
