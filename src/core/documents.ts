/**
 * The document model (DESIGN §3): the three stored document kinds and the projected transcript
 * entry, as zod schemas so every boundary (HTTP ingest, bundle import) validates the same way and
 * an error names the offending field. Types are inferred from the schemas: one source of truth.
 */
import { z } from 'zod';
import {
  ACTIVITY_MIN_MS,
  activityMaxMs,
  DOC_TIME_MIN_MS,
  MAX_ACTIVITY_SEGMENTS,
  MAX_AMOUNT,
  MAX_COUNT,
  MAX_LIST,
  MAX_NAME_CHARS,
  MAX_TEXT_CHARS,
} from './doc-limits.js';

/** One-line strings (ids, names, paths, models): at most MAX_NAME_CHARS. */
const name = () => z.string().max(MAX_NAME_CHARS, { error: `must be at most ${MAX_NAME_CHARS} characters` });
/** Free text: at most MAX_TEXT_CHARS. */
const text = () => z.string().max(MAX_TEXT_CHARS, { error: `must be at most ${MAX_TEXT_CHARS} characters` });
/** A count or entry index: a non-negative integer up to MAX_COUNT. */
const count = () =>
  z
    .number()
    .int()
    .nonnegative()
    .max(MAX_COUNT, { error: `must be at most ${MAX_COUNT}` });
/** Bytes or tokens: a non-negative integer up to MAX_AMOUNT. */
const amount = () =>
  z
    .number()
    .int()
    .nonnegative()
    .max(MAX_AMOUNT, { error: `must be at most ${MAX_AMOUNT}` });
/** A list of at most MAX_LIST items. */
const list = <T extends z.ZodType>(item: T) =>
  z.array(item).max(MAX_LIST, { error: `must have at most ${MAX_LIST} items` });
/** A map of at most MAX_LIST members. */
const map = <T extends z.ZodType>(value: T) =>
  z
    .record(name(), value)
    .refine((r) => Object.keys(r).length <= MAX_LIST, { error: `must have at most ${MAX_LIST} members` });

const iso = (what: string, min: number, minWords: string) =>
  name().superRefine((s, ctx) => {
    const ms = Date.parse(s);
    if (!Number.isFinite(ms)) ctx.addIssue({ code: 'custom', message: 'must be an ISO 8601 timestamp' });
    else if (ms < min || ms > activityMaxMs())
      ctx.addIssue({ code: 'custom', message: `${what} must lie between ${minWords} and now + 1 day` });
  });

/** ISO 8601 timestamp of a document (any offset accepted on input; we write UTC `Z`): 1970 .. now + 1 day. */
const isoTimestamp = iso('a timestamp', DOC_TIME_MIN_MS, '1970-01-01');
/** An instant of activity: 2000-01-01 .. now + 1 day (doc-limits.ts). */
const activityTimestamp = iso('activity', ACTIVITY_MIN_MS, '2000-01-01');

/** Token usage of one assistant message; streamed duplicates of a message are counted once. */
export const tokenUsageSchema = z.object({
  input: amount(),
  output: amount(),
  cacheWrite: amount(),
  cacheRead: amount(),
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
  index: count(),
  byteStart: amount(),
  byteEnd: amount(),
  role: z.enum(entryRoles),
  /** The line's `type`, refined by `subtype` (`system:compact_boundary`); `malformed` for non-JSON. */
  kind: name(),
  uuid: name().optional(),
  parentUuid: name().nullable().optional(),
  /** As the line gave it; an instant outside 2000 .. now + 1 day is kept but flagged below. */
  timestamp: name().optional(),
  /** The line's timestamp lies outside 2000-01-01 .. now + 1 day: it is left out of the session's
   *  activity, the calendar and the turn times (doc-limits.ts). */
  timestampOutOfRange: z.boolean().optional(),
  text: text().optional(),
  thinking: text().optional(),
  toolUses: list(z.object({ id: name(), name: name(), input: z.unknown() })).optional(),
  toolResults: list(
    z.object({
      toolUseId: name(),
      content: text(),
      isError: z.boolean(),
      /** The subagent a Task call ran (Claude Code 2.x `toolUseResult.agentId`): its file is
       *  `subagents/agent-<agentId>.jsonl`. */
      agentId: name().optional(),
    }),
  ).optional(),
  images: list(z.object({ mediaType: name(), bytes: amount() })).optional(),
  isSidechain: z.boolean().optional(),
  isMeta: z.boolean().optional(),
  isCompactSummary: z.boolean().optional(),
  agentId: name().optional(),
  model: name().optional(),
  messageId: name().optional(),
  usage: tokenUsageSchema.optional(),
  malformed: z.boolean().optional(),
  error: text().optional(),
  truncated: z.boolean().optional(),
  /** Likely secrets in the entry's texts, counted by rule at ingest (never the secret itself). */
  secrets: map(count()).optional(),
});
export type ProjectedEntry = z.infer<typeof projectedEntrySchema>;

const docBase = {
  _id: name().min(1),
  _rev: name().optional(),
  sessionId: name().min(1),
  timestamp: isoTimestamp,
};

/** Activity segments `[startMs, endMs]`, merged at the minimum idle threshold (see active-time.ts). */
export const activitySchema = z
  .array(z.tuple([z.number(), z.number()]))
  .max(MAX_ACTIVITY_SEGMENTS, { error: `must have at most ${MAX_ACTIVITY_SEGMENTS} segments` })
  .superRefine((segments, ctx) => {
    const max = activityMaxMs();
    for (let i = 0; i < segments.length; i++) {
      const [start, end] = segments[i]!;
      const bad = (message: string) => ctx.addIssue({ code: 'custom', path: [i], message });
      if (!Number.isFinite(start) || !Number.isFinite(end)) return bad('must be finite numbers');
      if (start > end) return bad('start must not be after end');
      if (start < ACTIVITY_MIN_MS || end > max)
        return bad('must lie between 2000-01-01 and now + 1 day (epoch ms)');
      if (i > 0 && start < segments[i - 1]![1]) return bad('must start after the previous segment ends');
    }
  });

export const summaryDocSchema = z.object({
  ...docBase,
  type: z.literal('summary'),
  cwd: name().nullable(),
  project: name().nullable(),
  /** Most assistant messages of the main conversation first, then by first use. */
  models: list(name()),
  hostname: name().nullable(),
  gitBranch: name().nullable(),
  source: name(),
  /** The agent that wrote the session (`claude-code`, `codex`, `gemini`, `opencode`: agents.ts).
   *  Absent from summaries written before it was kept; agents.ts `summaryAgent` tells those. */
  agent: name().optional(),
  provenance: z.enum(['live', 'backfilled']),
  version: name().nullable(),
  firstActivity: activityTimestamp.nullable(),
  lastActivity: activityTimestamp.nullable(),
  title: name().nullable(),
  titleSource: z.enum(['custom', 'ai', 'summary', 'prompt']).nullable(),
  counts: z.object({
    entries: count(),
    prompts: count(),
    assistantMessages: count(),
    toolCalls: count(),
    toolErrors: count(),
    malformed: count(),
    sidechainEntries: count(),
    compactions: count(),
    images: count(),
  }),
  toolCallsByName: map(count()),
  tokens: tokenUsageSchema,
  /**
   * `tokens` split by the model that wrote each message (`''`: lines that named none); they sum to
   * `tokens`. Absent from summaries written before the split was kept, and from a session whose
   * earlier part was counted then (usage.ts).
   */
  tokensByModel: map(tokenUsageSchema).optional(),
  transcriptBytes: amount(),
  files: list(
    z.object({
      name: name(),
      bytes: amount(),
      entries: count(),
      agentId: name().optional(),
    }),
  ),
  /** Subagent files, plus subagent threads inside the main transcript (the older layout). */
  subagents: count(),
  activity: activitySchema,
  /**
   * Likely secrets in the session's entries (secretlint's recommended preset and config.json's
   * patterns): how many, and how many by rule; never the secrets. Absent from summaries written
   * before they were counted, and from a session whose earlier part was ingested then.
   */
  secrets: z.object({ total: count(), byRule: map(count()) }).optional(),
});
export type SummaryDoc = z.infer<typeof summaryDocSchema>;

export const eventDocSchema = z.object({
  ...docBase,
  type: z.literal('event'),
  /** When it happened: it counts as the session's activity, so inside 2000 .. now + 1 day. */
  timestamp: activityTimestamp,
  /** Claude Code hook event name (`SessionStart`, `UserPromptSubmit`, `PostToolUse`, …) or a future one. */
  event: name().min(1),
  reconstructed: z.boolean().optional(),
  cwd: name().optional(),
  hostname: name().optional(),
  toolName: name().optional(),
  toolUseId: name().optional(),
  success: z.boolean().optional(),
  preview: text().optional(),
  error: text().optional(),
  reason: text().optional(),
  trigger: name().optional(),
  agentId: name().optional(),
  entryIndex: count().optional(),
  data: z.record(name(), z.unknown()).optional(),
});
export type EventDoc = z.infer<typeof eventDocSchema>;

export const chunkDocSchema = z.object({
  ...docBase,
  type: z.literal('chunk'),
  /** Object name within the session: `transcript.jsonl` or `subagents/<name>.jsonl`. */
  file: name().min(1),
  byteStart: amount(),
  byteEnd: amount(),
  firstIndex: count(),
  entryCount: count(),
  /** Present on a full-content chunk; absent on an index-only chunk. */
  entries: list(projectedEntrySchema).optional(),
});
export type ChunkDoc = z.infer<typeof chunkDocSchema>;

export const sessionDocSchema = z.discriminatedUnion('type', [
  summaryDocSchema,
  eventDocSchema,
  chunkDocSchema,
]);
export type SessionDoc = z.infer<typeof sessionDocSchema>;

/**
 * What the schema alone cannot check of a valid summary: its activity lies inside its first and
 * last activity (which it must then have). A problem as `{field, message}`, or null.
 */
export function summaryActivityProblem(
  d: Pick<SummaryDoc, 'activity' | 'firstActivity' | 'lastActivity'>,
): { field: string; message: string } | null {
  if (d.activity.length === 0) return null;
  if (d.firstActivity === null || d.lastActivity === null)
    return {
      field: d.firstActivity === null ? 'firstActivity' : 'lastActivity',
      message: 'must be given when activity is not empty',
    };
  const first = Date.parse(d.firstActivity);
  const last = Date.parse(d.lastActivity);
  if (first > last) return { field: 'firstActivity', message: 'must not be after lastActivity' };
  const i = d.activity.findIndex(([start, end]) => start < first || end > last);
  return i < 0
    ? null
    : { field: `activity.${i}`, message: 'must lie between firstActivity and lastActivity' };
}

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
