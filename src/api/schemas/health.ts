/** Wire schemas of /api/health, including the first-start import progress. */
import { z } from '@hono/zod-openapi';

export const importStatusSchema = z
  .object({
    state: z.enum(['idle', 'skipped', 'running', 'done', 'failed']),
    /** Why it was skipped or failed, in words. */
    reason: z.string().optional(),
    roots: z.array(z.string()).openapi({
      description:
        'the transcript trees this import reads, in order (`~/.claude/projects`, then `~/.codex/sessions`); once it runs, only those that exist',
    }),
    root: z.string().optional().openapi({ description: 'the tree being read now (the last one, once done)' }),
    startedAt: z.string().optional(),
    finishedAt: z.string().optional(),
    filesTotal: z.number(),
    filesDone: z.number(),
    bytesTotal: z.number(),
    bytesDone: z.number(),
    currentFile: z.string().optional(),
    sessions: z.number().optional(),
    failedFiles: z.number().optional(),
  })
  .openapi('ImportStatus');
export type ImportStatus = z.infer<typeof importStatusSchema>;

export const watchStatusSchema = z
  .object({
    enabled: z.boolean().openapi({
      description: 'false when the server runs with `serve --no-watch` (or is not run by `serve`)',
    }),
    trees: z.array(
      z.object({
        path: z.string(),
        state: z.enum(['watching', 'starting', 'absent', 'failed', 'off']).openapi({
          description:
            '`watching`: changes are recorded live; `starting`: waiting for the first-start import or its ' +
            'catch-up; `absent`: the directory does not exist (watched once it appears); `failed`: it ' +
            'cannot be watched (`error` says why); `off`: watching is turned off',
        }),
        error: z.string().optional(),
      }),
    ),
  })
  .openapi('WatchStatus');
export type WatchStatus = z.infer<typeof watchStatusSchema>;

export const healthSchema = z
  .object({
    status: z.enum(['ok', 'degraded']),
    version: z.string(),
    uptimeMs: z.number(),
    store: z.object({ engine: z.string(), state: z.enum(['ready', 'error']), error: z.string().optional() }),
    counts: z
      .object({ documents: z.number(), sessions: z.number(), objects: z.number(), objectBytes: z.number() })
      .nullable(),
    /** Null while the store cannot be read. */
    schema: z
      .object({
        currentVersion: z.number(),
        latestVersion: z.number(),
        pending: z.array(z.object({ version: z.number(), name: z.string() })),
      })
      .nullable(),
    search: z.object({
      enabled: z.boolean(),
      /** Some entries are not in the full-text index as they are (see the search response's `stale`). */
      stale: z.boolean(),
    }),
    import: importStatusSchema,
    /** The transcript trees the server watches (Claude Code's projects, Codex's sessions). */
    watch: watchStatusSchema,
  })
  .openapi('Health');
export type Health = z.infer<typeof healthSchema>;
