/** Wire schemas of the user-data routes: annotations, bookmarks, tags and forgotten sessions. */
import { z } from '@hono/zod-openapi';
import { MAX_BOOKMARK_NOTE_CHARS, MAX_NOTE_BYTES, MAX_TAGS, TAG_RULE } from '../../core/annotation-rules.js';
import { objectNameSchema } from './common.js';

const revField = z
  .string()
  .nullable()
  .optional()
  .openapi({
    description:
      'the annotation revision this edit is based on (null: none yet); when given and no longer current the ' +
      'edit is refused with 409, so a concurrent edit is never silently overwritten',
  });

export const bookmarkSchema = z
  .object({
    file: z.string(),
    index: z.number().int(),
    note: z.string().optional(),
    at: z.string(),
  })
  .openapi('Bookmark');

export const annotationSchema = z
  .object({
    sessionId: z.string(),
    /** Null while the session has no annotation. */
    rev: z.string().nullable(),
    starred: z.boolean(),
    tags: z.array(z.string()),
    note: z.string(),
    bookmarks: z.array(bookmarkSchema),
    updatedAt: z.string().nullable(),
  })
  .openapi('Annotation');
export type AnnotationBody = z.infer<typeof annotationSchema>;

/** What the session list says of each session on its page that has an annotation. */
export const annotationSummarySchema = z
  .object({ starred: z.boolean(), tags: z.array(z.string()), hasNote: z.boolean(), bookmarks: z.number() })
  .openapi('AnnotationSummary');

export const starRequestSchema = z.object({ rev: revField }).strict().openapi('StarRequest');

export const tagsRequestSchema = z
  .object({
    add: z.array(z.string()).max(MAX_TAGS).optional().openapi({ description: TAG_RULE }),
    remove: z.array(z.string()).max(MAX_TAGS).optional(),
    rev: revField,
  })
  .strict()
  .openapi('TagsRequest');

export const noteRequestSchema = z
  .object({
    note: z
      .string()
      .openapi({ description: `Markdown, at most ${MAX_NOTE_BYTES} bytes of UTF-8 (413 past it)` }),
    rev: revField,
  })
  .strict()
  .openapi('NoteRequest');

export const bookmarkRequestSchema = z
  .object({
    file: objectNameSchema
      .optional()
      .openapi({ description: 'transcript file, an object name of the session (default transcript.jsonl)' }),
    note: z
      .string()
      .optional()
      .openapi({ description: `at most ${MAX_BOOKMARK_NOTE_CHARS} characters` }),
    rev: revField,
  })
  .strict()
  .openapi('BookmarkRequest');

export const bookmarkListSchema = z
  .object({
    total: z.number(),
    offset: z.number(),
    limit: z.number(),
    bookmarks: z.array(
      z.object({
        sessionId: z.string(),
        file: z.string(),
        index: z.number(),
        note: z.string().nullable(),
        at: z.string(),
        /** The session's title and project, when the session is there. */
        title: z.string().nullable(),
        project: z.string().nullable(),
      }),
    ),
  })
  .openapi('BookmarkList');

export const tagFacetSchema = z
  .object({ tags: z.array(z.object({ value: z.string(), sessions: z.number() })) })
  .openapi('TagFacet');

export const forgetResultSchema = z
  .object({
    sessionId: z.string(),
    tombstoned: z.boolean(),
    documents: z.number(),
    objects: z.number(),
  })
  .openapi('ForgetResult');

export const forgottenListSchema = z
  .object({
    total: z.number(),
    forgotten: z.array(z.object({ sessionId: z.string(), forgottenAt: z.string() })),
  })
  .openapi('ForgottenList');

export const unforgetResultSchema = z
  .object({ sessionId: z.string(), lifted: z.boolean() })
  .openapi('UnforgetResult');
