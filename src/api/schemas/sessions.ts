/** Wire schemas of the session routes: the session, its transcript, turns and events. */
import { annotationSummarySchema } from './annotations.js';
import { z } from '@hono/zod-openapi';
import { projectedEntrySchema, summaryDocSchema, tokenUsageSchema } from '../../core/documents.js';
import { SESSION_SORT_KEYS, SORT_DIRECTIONS } from '../../store/contract.js';

export const sessionStatusSchema = z.enum(['running', 'abandoned', 'ended']);

export const sessionCostSchema = z
  .object({
    usd: z.number().nullable().openapi({
      description: 'US dollars for the tokens that have a price; null when there are tokens and none has one',
    }),
    complete: z.boolean().openapi({
      description: 'whether every token was priced (false: some model has no price, or the split is unknown)',
    }),
    byModel: z.record(z.string(), z.number().nullable()).openapi({
      description: "each model's dollars, null for a model without a price",
    }),
  })
  .openapi('SessionCost', {
    description:
      "the tokens at list prices (Anthropic's for the Claude models it prices, under config.json's `prices`); " +
      'an estimate: cache writes at the five-minute rate, no long-context surcharge',
  });

export const sessionSchema = z
  .object({
    id: z.string(),
    // As the summary document has them (version: of Claude Code that wrote the transcript).
    ...summaryDocSchema.pick({
      title: true,
      titleSource: true,
      cwd: true,
      project: true,
      models: true,
      hostname: true,
      gitBranch: true,
      source: true,
      provenance: true,
      version: true,
    }).shape,
    agent: z.string().openapi({
      description:
        'The agent that wrote the session: `claude-code`, `codex`, `gemini`, `opencode` (the `agent` filter)',
    }),
    /** The main model: the one that wrote most of the main conversation (`models` comes in that order). */
    model: z.string().nullable(),
    status: sessionStatusSchema,
    hookRecorded: z.boolean(),
    startedAt: z.string().nullable(),
    lastActivity: z.string().nullable(),
    endedAt: z.string().nullable(),
    endReason: z.string().nullable(),
    runtimeMs: z.number().nullable(),
    /** Runtime minus gaps longer than system.sessions.idleThresholdMs; null when not derivable. */
    activeTimeMs: z.number().nullable(),
    /** The summary's counts plus the number of event documents. */
    counts: summaryDocSchema.shape.counts.extend({ events: z.number() }),
    toolCallsByName: z.record(z.string(), z.number()),
    tokens: tokenUsageSchema,
    tokensByModel: z
      .record(z.string(), tokenUsageSchema)
      .nullable()
      .openapi({
        description:
          "`tokens` by the model that wrote each message (`''`: lines naming none); null for a " +
          'session first ingested by a version that did not keep the split and that used several models ' +
          '(one that used a single model has all its tokens from it)',
      }),
    cost: sessionCostSchema,
    transcriptBytes: z.number(),
    subagents: z.number(),
    files: summaryDocSchema.shape.files,
    secrets: z
      .object({ total: z.number(), byRule: z.record(z.string(), z.number()) })
      .nullable()
      .openapi({
        description:
          'likely secrets counted at ingest (secretlint’s recommended preset and config.json’s ' +
          '`secrets.patterns`): how many, and by rule — never a secret; null for a session ingested ' +
          'before secrets were counted',
      }),
  })
  .openapi('Session');
export type Session = z.infer<typeof sessionSchema>;

const toolItemSchema = z.object({
  toolUseId: z.string(),
  toolName: z.string().nullable(),
  timestamp: z.string(),
});

export const reconciliationSchema = z
  .object({
    state: z.enum(['consistent', 'differences', 'not_hook_recorded']).openapi({
      description: '`not_hook_recorded`: no live hook event, nothing to compare',
    }),
    window: z
      .object({ from: z.string(), to: z.string() })
      .nullable()
      .openapi({ description: 'the span the hooks were recording (first to last hook event)' }),
    hookToolCalls: z.number().openapi({ description: 'distinct tool-use ids the hooks reported' }),
    transcriptToolCalls: z
      .number()
      .openapi({ description: 'tool results in the transcript inside the window' }),
    toolCallsWithoutEvents: z
      .object({ count: z.number(), items: z.array(toolItemSchema) })
      .openapi({ description: 'tool results in the transcript no hook event reported (first 20 listed)' }),
    eventsWithoutTranscript: z
      .object({ count: z.number(), items: z.array(toolItemSchema.extend({ event: z.string() })) })
      .openapi({
        description: 'hook tool events whose tool use the transcript never shows (first 20 listed)',
      }),
    transcriptStalled: z
      .object({ lastLineAt: z.string().nullable(), lastEventAt: z.string(), eventsAfter: z.number() })
      .nullable()
      .openapi({
        description: 'hooks kept reporting prompts and tool calls after the transcript stopped growing',
      }),
  })
  .openapi('Reconciliation');

export const sourceDeletionSchema = z
  .object({
    detectedAt: z.string(),
    files: z.array(z.object({ path: z.string(), objectName: z.string() })),
  })
  .openapi('SourceDeletion');

export const sessionDetailSchema = sessionSchema
  .extend({
    reconciliation: reconciliationSchema,
    sourceDeleted: sourceDeletionSchema.nullable().openapi({
      description:
        'set when transcript files this instance recorded were deleted from the projects directory ' +
        '(Claude Code removes old ones): the session is kept, and this says which and since when',
    }),
  })
  .openapi('SessionDetail');
export type SessionDetail = z.infer<typeof sessionDetailSchema>;

/** `sort` and `dir` of the session list: its order, over columns both engines index or keep. */
export const sessionSortQueryShape = {
  sort: z
    .enum(SESSION_SORT_KEYS, { error: `must be one of ${SESSION_SORT_KEYS.join(', ')}` })
    .optional()
    .openapi({
      param: { name: 'sort', in: 'query' },
      description:
        'order of the list: `lastActivity` (default), `startedAt`, `runtime`, `tokens` (all kinds summed) ' +
        'or `entries`; sessions without the value come last either way, ties by id',
    }),
  dir: z
    .enum(SORT_DIRECTIONS, { error: 'must be asc or desc' })
    .optional()
    .openapi({
      param: { name: 'dir', in: 'query' },
      description: '`desc` (default: largest, newest first) or `asc`',
    }),
};

export const sessionListSchema = z
  .object({
    total: z.number(),
    offset: z.number(),
    limit: z.number(),
    sessions: z.array(sessionSchema),
    /** Stars, tags, notes and bookmarks of the sessions on this page that have any, by id. */
    annotations: z.record(z.string(), annotationSummarySchema).optional(),
  })
  .openapi('SessionList');
export type SessionList = z.infer<typeof sessionListSchema>;

// Shared with core (created before the OpenAPI extension loads), so it is used as is, unnamed.
export const entrySchema = projectedEntrySchema;

export const transcriptPageSchema = z
  .object({
    sessionId: z.string(),
    file: z.string(),
    total: z.number(),
    offset: z.number(),
    limit: z.number(),
    entries: z.array(entrySchema),
  })
  .openapi('TranscriptPage');
export type TranscriptPage = z.infer<typeof transcriptPageSchema>;

export const turnSchema = z
  .object({
    index: z.number(),
    file: z.string(),
    role: z.enum(['user', 'assistant']),
    timestamp: z.string().nullable(),
    text: z.string(),
    model: z.string().optional(),
  })
  .openapi('Turn');

export const turnsSchema = z
  .object({ total: z.number(), offset: z.number(), limit: z.number(), turns: z.array(turnSchema) })
  .openapi('Turns');
export type Turns = z.infer<typeof turnsSchema>;

/** What a result from many sessions says of its session (search hits, turns across sessions). */
export const sessionContextSchema = z
  .object({
    title: z.string().nullable(),
    project: z.string().nullable(),
    lastActivity: z.string().nullable(),
  })
  .openapi('SessionContext');
export type SessionContext = z.infer<typeof sessionContextSchema>;

export const sessionTurnSchema = turnSchema
  .extend({
    sessionId: z.string(),
    /** Session context for the list; null while the session list is not materialised. */
    session: sessionContextSchema.nullable(),
  })
  .openapi('SessionTurn');

export const turnsAcrossSchema = z
  .object({ total: z.number(), offset: z.number(), limit: z.number(), turns: z.array(sessionTurnSchema) })
  .openapi('TurnsAcrossSessions');
export type TurnsAcross = z.infer<typeof turnsAcrossSchema>;

export const eventSchema = z
  .object({
    id: z.string(),
    event: z.string(),
    timestamp: z.string(),
    reconstructed: z.boolean(),
    toolName: z.string().optional(),
    success: z.boolean().optional(),
  })
  .openapi('SessionEvent');

export const eventsSchema = z
  .object({ total: z.number(), offset: z.number(), limit: z.number(), events: z.array(eventSchema) })
  .openapi('SessionEvents');
export type SessionEvents = z.infer<typeof eventsSchema>;
