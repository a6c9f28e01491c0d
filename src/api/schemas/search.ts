/** Wire schemas of search, the activity rollup (calendar) and the filter facets. */
import { z } from '@hono/zod-openapi';
import { sessionContextSchema } from './sessions.js';

export const searchHitSchema = z
  .object({
    kind: z.enum(['entry', 'note', 'bookmark']).openapi({
      description:
        "What matched: an entry's text, the session's note (then `file` is empty and `index` is " +
        '-1), or the note of a bookmark on the entry at `file` and `index`',
    }),
    sessionId: z.string(),
    file: z.string(),
    /** Entry index; open `/api/sessions/{sessionId}/transcript?file=…&offset=…` at it. */
    index: z.number(),
    /** The entry's role; `note` or `bookmark` for a note. */
    role: z.string(),
    entryKind: z
      .string()
      .nullable()
      .openapi({
        description:
          'What the entry is, as the reader names it: `You`, `Claude`, `tool call`, `tool result`, a ' +
          "notice's label (`compaction summary`, `system reminder`, `prompt of /init`, …) or a " +
          "bookkeeping line's kind (`progress`); null for a session's note (no entry)",
        example: 'compaction summary',
      }),
    timestamp: z.string().nullable(),
    /** Plain-text segments; `mark: true` segments matched. Render as text, never as HTML. */
    snippet: z.array(z.object({ text: z.string(), mark: z.boolean() })),
    rank: z.number(),
    /** Session context for the results list. */
    session: sessionContextSchema.nullable(),
  })
  .openapi('SearchHit');

export const searchResultSchema = z
  .object({
    enabled: z.boolean(),
    /** Why search is off (when `enabled` is false). */
    reason: z.string().optional(),
    q: z.string(),
    ignored: z.array(z.string()).openapi({
      description:
        'Terms of `q` that were not searched, as typed: they hold no letter or digit (emoji, ' +
        'punctuation such as `->`), and the index keeps only words. Empty when every term was searched',
      example: ['🎉'],
    }),
    total: z.number(),
    totalExact: z.boolean().openapi({
      description:
        'false when there are more matches than `total` (shown as "5,000+"): an unfiltered search ' +
        'on the PostgreSQL engine stops counting past its ranking window',
    }),
    stale: z.boolean().openapi({
      description:
        'true while some entries are not in the index as they are: written by an import ' +
        '(`deferSearch`) that has not reindexed yet, or indexed by an earlier version. Hits may be ' +
        'missing until the import reindexes at its end; the server rebuilds an index an earlier ' +
        'version made, or one an import left behind for ten minutes; `transcripts reindex` does it now',
    }),
    offset: z.number(),
    limit: z.number(),
    hits: z.array(searchHitSchema),
  })
  .openapi('SearchResult');
export type SearchResult = z.infer<typeof searchResultSchema>;

export const activityDaySchema = z
  .object({
    day: z.string().openapi({ example: '2025-07-01' }),
    sessions: z.number(),
    activeMs: z.number(),
    entries: z.number(),
    items: z.array(
      z.object({
        sessionId: z.string(),
        project: z.string().nullable(),
        activeMs: z.number(),
        entries: z.number(),
      }),
    ),
  })
  .openapi('ActivityDay');

export const activitySchema = z
  .object({ from: z.string(), to: z.string(), days: z.array(activityDaySchema) })
  .openapi('Activity');
export type Activity = z.infer<typeof activitySchema>;

export const facetAttributes = ['cwd', 'model', 'hostname', 'source', 'agent'] as const;

export const facetsSchema = z
  .object({
    attribute: z.enum(facetAttributes),
    values: z.array(z.object({ value: z.string(), sessions: z.number() })),
  })
  .openapi('Facets');
export type Facets = z.infer<typeof facetsSchema>;
