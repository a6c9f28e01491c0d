/** Wire schemas of the store read routes (CouchDB `_all_docs` shape) and the object listing. */
import { z } from '@hono/zod-openapi';

export const storedDocSchema = z
  .object({ _id: z.string(), _rev: z.string() })
  .catchall(z.unknown())
  .openapi('StoredDoc');

export const allDocsSchema = z
  .object({
    total_rows: z.number(),
    offset: z.number(),
    rows: z.array(
      z.object({
        id: z.string(),
        key: z.string(),
        value: z.object({ rev: z.string() }),
        doc: storedDocSchema.optional(),
      }),
    ),
  })
  .openapi('AllDocs');
export type AllDocs = z.infer<typeof allDocsSchema>;

export const localDocSchema = z.object({ _id: z.string(), value: z.unknown() }).openapi('LocalDoc');
export type LocalDoc = z.infer<typeof localDocSchema>;

export const revsRequestSchema = z
  .object({ ids: z.array(z.string().min(1)).max(10_000) })
  .strict()
  .openapi('RevsRequest');

export const revsResultSchema = z.object({ revs: z.record(z.string(), z.string()) }).openapi('RevsResult');
export type RevsResult = z.infer<typeof revsResultSchema>;

export const objectInfoSchema = z
  .object({ key: z.string(), name: z.string(), size: z.number(), mtime: z.string() })
  .openapi('ObjectInfo');

export const objectListSchema = z
  .object({ sessionId: z.string(), objects: z.array(objectInfoSchema) })
  .openapi('ObjectList');
export type ObjectList = z.infer<typeof objectListSchema>;

export const objectPageSchema = z
  .object({
    objects: z.array(objectInfoSchema.extend({ sessionId: z.string() })),
    next: z
      .string()
      .nullable()
      .openapi({ description: 'the `after` of the next page; null on the last one' }),
  })
  .openapi('ObjectPage');
export type ObjectPage = z.infer<typeof objectPageSchema>;
