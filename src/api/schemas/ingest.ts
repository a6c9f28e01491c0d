/** Wire schemas of the ingest (write) routes. */
import { z } from '@hono/zod-openapi';

export const ingestDocsRequestSchema = z
  .object({
    /** Session documents (summary, event, chunk) or `_design/…` documents; each validated. */
    docs: z.array(z.record(z.string(), z.unknown())).max(100_000),
    /** Instance-local state written in the same transaction (`_local/…` ids). */
    locals: z
      .array(
        z
          .object({
            id: z.string().regex(/^_local\/./, { error: 'must start with _local/' }),
            value: z.unknown(),
          })
          .strict(),
      )
      .max(10_000)
      .optional(),
    deferSearch: z
      .boolean()
      .optional()
      .openapi({
        description:
          'Leave these documents out of the full-text index until `POST /api/ingest/reindex` (a bulk import ' +
          'that reindexes when done); meanwhile search answers `stale: true`',
      }),
  })
  .strict()
  .openapi('IngestDocsRequest');
export type IngestDocsRequest = z.infer<typeof ingestDocsRequestSchema>;

export const writeResultSchema = z
  .object({
    id: z.string(),
    status: z.enum(['written', 'unchanged', 'conflict']),
    rev: z.string().optional(),
    reason: z.string().optional(),
  })
  .openapi('WriteResult');

export const ingestDocsResultSchema = z
  .object({
    results: z.array(writeResultSchema),
    written: z.number(),
    unchanged: z.number(),
    conflicts: z.number(),
  })
  .openapi('IngestDocsResult');
export type IngestDocsResult = z.infer<typeof ingestDocsResultSchema>;

export const putObjectResultSchema = z
  .object({ key: z.string(), size: z.number(), sha256: z.string() })
  .openapi('PutObjectResult');
export type PutObjectResultBody = z.infer<typeof putObjectResultSchema>;

export const reindexResultSchema = z
  .object({ entries: z.number(), sessions: z.number() })
  .openapi('ReindexResult');
export type ReindexResult = z.infer<typeof reindexResultSchema>;
