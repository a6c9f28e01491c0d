/**
 * User data on sessions (DESIGN §13): stars, tags, notes and bookmarks — one annotation document
 * per session, edited here with revision checks so concurrent edits are refused (409), never lost
 * — the bookmarks and tags across sessions, and forgetting a session for good. Notes are searched
 * with the entries, by `GET /api/search`.
 */
import { createRoute, z } from '@hono/zod-openapi';
import {
  AnnotationInputError,
  annotationDocSchema,
  applyEdit,
  emptyAnnotation,
  isEmptyAnnotation,
  type AnnotationDoc,
  type AnnotationEdit,
} from '../../core/annotations.js';
import { annotationId, MAX_BOOKMARK_NOTE_CHARS, MAX_NOTE_BYTES } from '../../core/annotation-rules.js';
import { MAIN_TRANSCRIPT } from '../../core/doc-ids.js';
import { forgetSession, listForgotten, unforgetSession } from '../../store/forget.js';
import type { StoredDoc } from '../../store/contract.js';
import { clampLimit, type ApiDeps } from '../deps.js';
import { badRequest, conflict, notFound, tooLarge } from '../http-error.js';
import { jsonBody } from '../middleware/body-limit.js';
import { createRouter } from '../router.js';
import {
  annotationSchema,
  bookmarkListSchema,
  bookmarkRequestSchema,
  forgetResultSchema,
  forgottenListSchema,
  noteRequestSchema,
  starRequestSchema,
  tagFacetSchema,
  tagsRequestSchema,
  unforgetResultSchema,
  type AnnotationBody,
} from '../schemas/annotations.js';
import {
  errorResponses,
  listFilter,
  listFilterQueryShape,
  objectNameSchema,
  pageQueryShape,
  sessionIdParam,
  uintString,
} from '../schemas/common.js';

/** Bodies are small: a note is at most 16 KiB, escaped JSON of it a few times that. */
const MAX_BODY_BYTES = 256 * 1024;

const idParams = z.object({ id: sessionIdParam });
const indexParams = z.object({
  id: sessionIdParam,
  index: uintString().openapi({ param: { name: 'index', in: 'path' }, type: 'integer', minimum: 0 }),
});
const annotationResponse = {
  200: {
    description: 'The annotation as it now is',
    content: { 'application/json': { schema: annotationSchema } },
  },
};
const editErrors = errorResponses(400, 404, 409, 503);

function editRoute(
  method: 'put' | 'delete' | 'patch',
  path: string,
  summary: string,
  body?: z.ZodType,
  params: z.ZodObject = idParams,
  /** What else in the body answers 413 (a note past its own limit). */
  alsoTooLarge?: string,
) {
  const b = body ? jsonBody(body, { maxBytes: MAX_BODY_BYTES }) : null;
  const tooLarge = b && {
    ...b.responses[413],
    description: b.responses[413].description + (alsoTooLarge ? `, or ${alsoTooLarge}` : ''),
  };
  return createRoute({
    method,
    path,
    summary,
    tags: ['annotations'],
    ...(b ? { middleware: b.middleware } : {}),
    request: {
      params,
      ...(b ? { body: b.body } : {}),
      ...(method === 'delete' || !b
        ? {
            query: z
              .object({
                rev: z
                  .string()
                  .optional()
                  .openapi({
                    param: { name: 'rev', in: 'query' },
                    description:
                      'the annotation revision the change is based on (409 when no longer current)',
                  }),
                ...(path.includes('bookmarks')
                  ? { file: objectNameSchema.optional().openapi({ param: { name: 'file', in: 'query' } }) }
                  : {}),
              })
              .strict(),
          }
        : {}),
    },
    // A body's 413 states the limit its middleware applies.
    responses: { ...annotationResponse, ...editErrors, ...(tooLarge ? { 413: tooLarge } : {}) },
  });
}

const getRoute = createRoute({
  method: 'get',
  path: '/sessions/{id}/annotations',
  summary: "A session's star, tags, note and bookmarks (with the revision edits are based on)",
  tags: ['annotations'],
  request: { params: idParams },
  responses: { ...annotationResponse, ...errorResponses(400, 404, 503) },
});
const starRoute = editRoute('put', '/sessions/{id}/star', 'Star a session', starRequestSchema);
const unstarRoute = editRoute('delete', '/sessions/{id}/star', 'Remove the star');
const tagsRoute = editRoute(
  'patch',
  '/sessions/{id}/tags',
  'Add and remove tags (short lowercase words; `-` and `/` join words)',
  tagsRequestSchema,
);
const noteRoute = editRoute(
  'put',
  '/sessions/{id}/note',
  "Set the session's note (Markdown)",
  noteRequestSchema,
  idParams,
  `a note over ${MAX_NOTE_BYTES} bytes of UTF-8`,
);
const clearNoteRoute = editRoute('delete', '/sessions/{id}/note', "Remove the session's note");
const bookmarkRoute = editRoute(
  'put',
  '/sessions/{id}/bookmarks/{index}',
  'Bookmark an entry, with an optional note',
  bookmarkRequestSchema,
  indexParams,
  `a bookmark's note over ${MAX_BOOKMARK_NOTE_CHARS} characters`,
);
const unbookmarkRoute = editRoute(
  'delete',
  '/sessions/{id}/bookmarks/{index}',
  'Remove a bookmark',
  undefined,
  indexParams,
);

const bookmarksRoute = createRoute({
  method: 'get',
  path: '/bookmarks',
  summary: 'Every bookmarked entry with its session, newest bookmark first',
  tags: ['annotations'],
  request: { query: z.object(pageQueryShape({ max: 500, default: 100 })).strict() },
  responses: {
    200: { description: 'Bookmarks', content: { 'application/json': { schema: bookmarkListSchema } } },
    ...errorResponses(400, 503),
  },
});

const tagsFacetRoute = createRoute({
  method: 'get',
  path: '/tags',
  summary: 'Tags with the number of sessions carrying each, over the sessions the filters select',
  tags: ['annotations'],
  request: { query: z.object(listFilterQueryShape).strict() },
  responses: {
    200: {
      description: 'Tags, most used first',
      content: { 'application/json': { schema: tagFacetSchema } },
    },
    ...errorResponses(400, 503),
  },
});

const forgetRoute = createRoute({
  method: 'post',
  path: '/sessions/{id}/forget',
  summary: 'Forget a session: remove all of it and leave a tombstone so that nothing records it again',
  description:
    "Removes the session's documents (annotations too), objects, view and search rows and ingest state; " +
    'the tombstone refuses every later write for it (watcher, backfill, hooks, import). ' +
    'Forgetting a forgotten session again answers `tombstoned: false`.',
  tags: ['annotations'],
  request: { params: idParams },
  responses: {
    200: { description: 'What was removed', content: { 'application/json': { schema: forgetResultSchema } } },
    ...errorResponses(400, 404),
  },
});

const forgottenRoute = createRoute({
  method: 'get',
  path: '/forgotten',
  summary: 'Forgotten sessions (their tombstones)',
  tags: ['annotations'],
  responses: {
    200: { description: 'Tombstones', content: { 'application/json': { schema: forgottenListSchema } } },
  },
});

const unforgetRoute = createRoute({
  method: 'delete',
  path: '/forgotten/{id}',
  summary: "Lift a session's tombstone: the next backfill reads it again",
  tags: ['annotations'],
  request: { params: idParams },
  responses: {
    200: { description: 'Lifted', content: { 'application/json': { schema: unforgetResultSchema } } },
    ...errorResponses(400, 404),
  },
});

function toBody(sessionId: string, stored: StoredDoc | null): AnnotationBody {
  if (!stored)
    return { sessionId, rev: null, starred: false, tags: [], note: '', bookmarks: [], updatedAt: null };
  const a = stored as unknown as AnnotationDoc;
  return {
    sessionId,
    rev: stored._rev,
    starred: a.starred === true,
    tags: a.tags ?? [],
    note: a.note ?? '',
    bookmarks: a.bookmarks ?? [],
    updatedAt: a.timestamp ?? null,
  };
}

export function annotationRoutes(deps: ApiDeps) {
  const app = createRouter();
  const { store } = deps;

  async function requireSession(id: string) {
    if (!(await store.views.getSession(id))) throw notFound(`session "${id}" not found`);
  }

  /** Applies one edit at the current revision (or the one the client based it on). */
  async function edit(
    id: string,
    change: AnnotationEdit,
    rev: string | null | undefined,
  ): Promise<AnnotationBody> {
    await requireSession(id);
    const docId = annotationId(id);
    const current = await store.docs.get(docId);
    const currentRev = current?._rev ?? null;
    if (rev !== undefined && rev !== currentRev)
      throw conflict(
        `the annotation of session ${id} is at revision ${currentRev ?? '(none)'}, not ${rev ?? '(none)'}: ` +
          'someone else changed it; reload it and apply your change again',
      );
    const at = new Date(deps.now()).toISOString();
    const base = current
      ? annotationDocSchema.parse({ ...current, _rev: undefined })
      : emptyAnnotation(id, at);
    let next: AnnotationDoc;
    try {
      next = applyEdit(base, change, at);
    } catch (err) {
      if (err instanceof AnnotationInputError)
        throw err.tooLarge ? tooLarge(err.message) : badRequest(err.message);
      throw err;
    }
    if (isEmptyAnnotation(next)) {
      if (!current) return toBody(id, null);
      const r = await store.docs.delete(docId, current._rev);
      if (r.status === 'conflict')
        throw conflict(`the annotation of session ${id} changed meanwhile: ${r.reason ?? ''}`);
      return toBody(id, null);
    }
    const [r] = await store.docs.bulkUpsert([{ ...next, ...(current ? { _rev: current._rev } : {}) }]);
    if (r?.status === 'conflict')
      throw conflict(`the annotation of session ${id} changed meanwhile: ${r.reason ?? 'revision conflict'}`);
    return toBody(id, await store.docs.get(docId));
  }

  app.openapi(getRoute, async (c) => {
    const { id } = c.req.valid('param');
    await requireSession(id);
    return c.json(toBody(id, await store.docs.get(annotationId(id))), 200);
  });
  app.openapi(starRoute, async (c) => {
    const { id } = c.req.valid('param') as { id: string };
    const body = (c.req.valid('json' as never) ?? {}) as { rev?: string | null };
    return c.json(await edit(id, { kind: 'star', starred: true }, body.rev), 200);
  });
  app.openapi(unstarRoute, async (c) => {
    const { id } = c.req.valid('param') as { id: string };
    const q = c.req.valid('query' as never) as { rev?: string };
    return c.json(await edit(id, { kind: 'star', starred: false }, q.rev), 200);
  });
  app.openapi(tagsRoute, async (c) => {
    const { id } = c.req.valid('param') as { id: string };
    const body = c.req.valid('json' as never) as { add?: string[]; remove?: string[]; rev?: string | null };
    if (!body) throw badRequest('request body: give "add" and/or "remove", lists of tags');
    return c.json(await edit(id, { kind: 'tags', add: body.add, remove: body.remove }, body.rev), 200);
  });
  app.openapi(noteRoute, async (c) => {
    const { id } = c.req.valid('param') as { id: string };
    const body = c.req.valid('json' as never) as { note: string; rev?: string | null };
    if (!body) throw badRequest('request body: give "note", the Markdown text');
    return c.json(await edit(id, { kind: 'note', note: body.note }, body.rev), 200);
  });
  app.openapi(clearNoteRoute, async (c) => {
    const { id } = c.req.valid('param') as { id: string };
    const q = c.req.valid('query' as never) as { rev?: string };
    return c.json(await edit(id, { kind: 'note', note: '' }, q.rev), 200);
  });
  app.openapi(bookmarkRoute, async (c) => {
    const { id, index } = c.req.valid('param') as { id: string; index: number };
    const body = (c.req.valid('json' as never) ?? {}) as {
      file?: string;
      note?: string;
      rev?: string | null;
    };
    const file = body.file ?? MAIN_TRANSCRIPT;
    const page = await store.views.transcriptPage(id, file, { limit: 1, offset: index });
    if (page.total > 0 && index >= page.total)
      throw notFound(`session "${id}" has no entry ${index} in ${file} (it has ${page.total})`);
    return c.json(await edit(id, { kind: 'bookmark', file, index, note: body.note }, body.rev), 200);
  });
  app.openapi(unbookmarkRoute, async (c) => {
    const { id, index } = c.req.valid('param') as { id: string; index: number };
    const q = c.req.valid('query' as never) as { rev?: string; file?: string };
    return c.json(await edit(id, { kind: 'unbookmark', file: q.file ?? MAIN_TRANSCRIPT, index }, q.rev), 200);
  });

  app.openapi(bookmarksRoute, async (c) => {
    const q = c.req.valid('query');
    const limit = clampLimit(q.limit, 100, 500);
    const offset = q.offset ?? 0;
    const { total, bookmarks } = await store.views.bookmarks({ limit, offset });
    const sessions = new Map(
      (await store.views.getSessions([...new Set(bookmarks.map((b) => b.sessionId))])).map((r) => [
        r.summary.sessionId,
        r.summary,
      ]),
    );
    return c.json(
      {
        total,
        offset,
        limit,
        bookmarks: bookmarks.map((b) => ({
          ...b,
          title: sessions.get(b.sessionId)?.title ?? null,
          project: sessions.get(b.sessionId)?.project ?? null,
        })),
      },
      200,
    );
  });

  app.openapi(tagsFacetRoute, async (c) => {
    const filter = listFilter(c.req.valid('query'));
    // The tag facet counts over the other filters: a tag filter does not narrow its own picker.
    return c.json({ tags: await store.views.tagFacet({ ...filter, tags: undefined }) }, 200);
  });

  app.openapi(forgetRoute, async (c) => {
    const { id } = c.req.valid('param');
    const known =
      (await store.views.getSession(id)) !== null ||
      (await store.docs.getRevs([`summary:${id}`, `tombstone:${id}`])).size > 0 ||
      (await store.objects.list(id)).length > 0;
    if (!known) throw notFound(`session "${id}" not found`);
    return c.json(await forgetSession(store, id, new Date(deps.now()).toISOString()), 200);
  });

  app.openapi(forgottenRoute, async (c) => {
    const all = await listForgotten(store);
    return c.json(
      {
        total: all.length,
        forgotten: all.map((t) => ({ sessionId: t.sessionId, forgottenAt: t.timestamp })),
      },
      200,
    );
  });

  app.openapi(unforgetRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!(await unforgetSession(store, id))) throw notFound(`session "${id}" is not forgotten`);
    return c.json({ sessionId: id, lifted: true }, 200);
  });

  return app;
}
