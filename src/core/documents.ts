/**
 * The document model (DESIGN §3): the three stored document kinds and the projected transcript
 * entry, as zod schemas so every boundary (HTTP ingest, bundle import) validates the same way and
 * an error names the offending field. Types are inferred from the schemas: one source of truth.
 */
import { z } from 'zod';

/** ISO 8601 timestamp (any offset accepted on input; we write UTC `Z`). */
const isoTimestamp = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO 8601 timestamp');

/** Token usage of one assistant message; streamed duplicates of a message are counted once. */
export const tokenUsageSchema = z.object({
  input: z.number().int().nonnegative(),
  output: z.number().int().nonnegative(),
  cacheWrite: z.number().int().nonnegative(),
  cacheRead: z.number().int().nonnegative(),
});
export type TokenUsage = z.infer<typeof tokenUsageSchema>;

export const entryRoles = ['user', 'assistant', 'tool_result', 'system', 'other'] as const;
export type EntryRole = (typeof entryRoles)[number];

/**
 * One JSONL line of a transcript, projected to what the readers and search need. The raw line is
 * always reachable through `byteStart`/`byteEnd` (a range of the stored transcript object, newline
 * excluded), so projection may shorten large fields (`truncated: true`) without losing anything.
 */
export const projectedEntrySchema = z.object({
  index: z.number().int().nonnegative(),
  byteStart: z.number().int().nonnegative(),
  byteEnd: z.number().int().nonnegative(),
  role: z.enum(entryRoles),
  /** The line's `type`, refined by `subtype` (`system:compact_boundary`); `malformed` for non-JSON. */
  kind: z.string(),
  uuid: z.string().optional(),
  parentUuid: z.string().nullable().optional(),
  timestamp: z.string().optional(),
  text: z.string().optional(),
  thinking: z.string().optional(),
  toolUses: z.array(z.object({ id: z.string(), name: z.string(), input: z.unknown() })).optional(),
  toolResults: z
    .array(
      z.object({
        toolUseId: z.string(),
        content: z.string(),
        isError: z.boolean(),
        /** The subagent a Task call ran (Claude Code 2.x `toolUseResult.agentId`): its file is
         *  `subagents/agent-<agentId>.jsonl`. */
        agentId: z.string().optional(),
      }),
    )
    .optional(),
  images: z.array(z.object({ mediaType: z.string(), bytes: z.number().int().nonnegative() })).optional(),
  isSidechain: z.boolean().optional(),
  isMeta: z.boolean().optional(),
  isCompactSummary: z.boolean().optional(),
  agentId: z.string().optional(),
  model: z.string().optional(),
  messageId: z.string().optional(),
  usage: tokenUsageSchema.optional(),
  malformed: z.boolean().optional(),
  error: z.string().optional(),
  truncated: z.boolean().optional(),
});
export type ProjectedEntry = z.infer<typeof projectedEntrySchema>;

const docBase = {
  _id: z.string().min(1),
  _rev: z.string().optional(),
  sessionId: z.string().min(1),
  timestamp: isoTimestamp,
};

/** Activity segments `[startMs, endMs]`, merged at the minimum idle threshold (see active-time.ts). */
export const activitySchema = z.array(z.tuple([z.number(), z.number()]));

export const summaryDocSchema = z.object({
  ...docBase,
  type: z.literal('summary'),
  cwd: z.string().nullable(),
  project: z.string().nullable(),
  /** Most assistant messages of the main conversation first, then by first use. */
  models: z.array(z.string()),
  hostname: z.string().nullable(),
  gitBranch: z.string().nullable(),
  source: z.string(),
  provenance: z.enum(['live', 'backfilled']),
  version: z.string().nullable(),
  firstActivity: isoTimestamp.nullable(),
  lastActivity: isoTimestamp.nullable(),
  title: z.string().nullable(),
  titleSource: z.enum(['custom', 'ai', 'summary', 'prompt']).nullable(),
  counts: z.object({
    entries: z.number().int().nonnegative(),
    prompts: z.number().int().nonnegative(),
    assistantMessages: z.number().int().nonnegative(),
    toolCalls: z.number().int().nonnegative(),
    toolErrors: z.number().int().nonnegative(),
    malformed: z.number().int().nonnegative(),
    sidechainEntries: z.number().int().nonnegative(),
    compactions: z.number().int().nonnegative(),
    images: z.number().int().nonnegative(),
  }),
  toolCallsByName: z.record(z.string(), z.number().int().nonnegative()),
  tokens: tokenUsageSchema,
  /**
   * `tokens` split by the model that wrote each message (`''`: lines that named none); they sum to
   * `tokens`. Absent from summaries written before the split was kept, and from a session whose
   * earlier part was counted then (usage.ts).
   */
  tokensByModel: z.record(z.string(), tokenUsageSchema).optional(),
  transcriptBytes: z.number().int().nonnegative(),
  files: z.array(
    z.object({
      name: z.string(),
      bytes: z.number().int().nonnegative(),
      entries: z.number().int().nonnegative(),
      agentId: z.string().optional(),
    }),
  ),
  /** Subagent files, plus subagent threads inside the main transcript (the older layout). */
  subagents: z.number().int().nonnegative(),
  activity: activitySchema,
});
export type SummaryDoc = z.infer<typeof summaryDocSchema>;

export const eventDocSchema = z.object({
  ...docBase,
  type: z.literal('event'),
  /** Claude Code hook event name (`SessionStart`, `UserPromptSubmit`, `PostToolUse`, …) or a future one. */
  event: z.string().min(1),
  reconstructed: z.boolean().optional(),
  cwd: z.string().optional(),
  hostname: z.string().optional(),
  toolName: z.string().optional(),
  toolUseId: z.string().optional(),
  success: z.boolean().optional(),
  preview: z.string().optional(),
  error: z.string().optional(),
  reason: z.string().optional(),
  trigger: z.string().optional(),
  agentId: z.string().optional(),
  entryIndex: z.number().int().nonnegative().optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});
export type EventDoc = z.infer<typeof eventDocSchema>;

export const chunkDocSchema = z.object({
  ...docBase,
  type: z.literal('chunk'),
  /** Object name within the session: `transcript.jsonl` or `subagents/<name>.jsonl`. */
  file: z.string().min(1),
  byteStart: z.number().int().nonnegative(),
  byteEnd: z.number().int().nonnegative(),
  firstIndex: z.number().int().nonnegative(),
  entryCount: z.number().int().nonnegative(),
  /** Present on a full-content chunk; absent on an index-only chunk. */
  entries: z.array(projectedEntrySchema).optional(),
});
export type ChunkDoc = z.infer<typeof chunkDocSchema>;

export const sessionDocSchema = z.discriminatedUnion('type', [
  summaryDocSchema,
  eventDocSchema,
  chunkDocSchema,
]);
export type SessionDoc = z.infer<typeof sessionDocSchema>;

export { docIds, MAIN_TRANSCRIPT } from './doc-ids.js';

/**
 * Formats a zod error as one line naming each failing field by path, e.g.
 * `summary.counts.prompts: expected number, received string`.
 */
export function describeZodError(err: z.ZodError, prefix = ''): string {
  return err.issues
    .map((i) => {
      const path = [prefix, ...i.path.map(String)].filter(Boolean).join('.');
      return `${path || '(root)'}: ${i.message}`;
    })
    .join('; ');
}
