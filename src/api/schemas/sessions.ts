/** Wire schemas of the session routes: the session, its transcript, turns and events. */
import { z } from '@hono/zod-openapi';
import { projectedEntrySchema, tokenUsageSchema } from '../../core/documents.js';

export const sessionStatusSchema = z.enum(['running', 'abandoned', 'ended']);

export const sessionSchema = z
  .object({
    id: z.string(),
    title: z.string().nullable(),
    titleSource: z.enum(['custom', 'ai', 'summary', 'prompt']).nullable(),
    cwd: z.string().nullable(),
    project: z.string().nullable(),
    /** The main model (the first non-synthetic one the session used). */
    model: z.string().nullable(),
    models: z.array(z.string()),
    hostname: z.string().nullable(),
    gitBranch: z.string().nullable(),
    source: z.string(),
    provenance: z.enum(['live', 'backfilled']),
    /** Claude Code version that wrote the transcript. */
    version: z.string().nullable(),
    status: sessionStatusSchema,
    hookRecorded: z.boolean(),
    startedAt: z.string().nullable(),
    lastActivity: z.string().nullable(),
    endedAt: z.string().nullable(),
    endReason: z.string().nullable(),
    runtimeMs: z.number().nullable(),
    /** Runtime minus gaps longer than system.sessions.idleThresholdMs; null when not derivable. */
    activeTimeMs: z.number().nullable(),
    counts: z.object({
      entries: z.number(),
      prompts: z.number(),
      assistantMessages: z.number(),
      toolCalls: z.number(),
      toolErrors: z.number(),
      malformed: z.number(),
      sidechainEntries: z.number(),
      compactions: z.number(),
      images: z.number(),
      events: z.number(),
    }),
    toolCallsByName: z.record(z.string(), z.number()),
    tokens: tokenUsageSchema,
    transcriptBytes: z.number(),
    subagents: z.number(),
    files: z.array(
      z.object({ name: z.string(), bytes: z.number(), entries: z.number(), agentId: z.string().optional() }),
    ),
  })
  .openapi('Session');
export type Session = z.infer<typeof sessionSchema>;

export const sessionListSchema = z
  .object({
    total: z.number(),
    offset: z.number(),
    limit: z.number(),
    sessions: z.array(sessionSchema),
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
