/** Wire schemas of the migration routes (shapes fixed by DESIGN §7). */
import { z } from '@hono/zod-openapi';

export const migrateStatusSchema = z
  .object({
    currentVersion: z.number(),
    latestVersion: z.number(),
    pending: z.array(z.object({ version: z.number(), name: z.string(), transformsDocs: z.boolean() })),
    applied: z.array(
      z.object({
        version: z.number(),
        name: z.string(),
        transformsDocs: z.boolean(),
        at: z.string().nullable(),
      }),
    ),
  })
  .openapi('MigrateStatus');
export type MigrateStatusBody = z.infer<typeof migrateStatusSchema>;

export const migrateUpRequestSchema = z
  .object({
    to: z.number().int().min(0).optional().openapi({ description: 'target version (default: latest)' }),
    dryRun: z.boolean().optional(),
  })
  .strict()
  .openapi('MigrateUpRequest');

export const migrateDownRequestSchema = z
  .object({
    steps: z
      .number()
      .int()
      .min(0)
      .optional()
      .openapi({ description: 'how many migrations to revert (default 1)' }),
    dryRun: z.boolean().optional(),
  })
  .strict()
  .openapi('MigrateDownRequest');

export const migrateResultSchema = z
  .object({
    dryRun: z.boolean(),
    from: z.number(),
    to: z.number(),
    steps: z.array(
      z.object({
        version: z.number(),
        name: z.string(),
        direction: z.enum(['up', 'down']),
        status: z.enum(['applied', 'planned', 'failed']),
        error: z.string().optional(),
      }),
    ),
    error: z.string().optional(),
  })
  .openapi('MigrateResult');
export type MigrateResultBody = z.infer<typeof migrateResultSchema>;
