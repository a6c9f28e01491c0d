/**
 * Store read routes (used by export): documents in CouchDB `_all_docs` shape, single documents
 * (ids contain `:` and `/`; `_local/…` reads instance-local state), current revisions in bulk,
 * and objects — listing per session and streaming with Content-Length and byte ranges.
 *
 * Routes whose path ends in a multi-segment name are plain Hono handlers (OpenAPI paths cannot
 * express `{name...}`) documented through `registerPath`, and validate their input by hand.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { bundleLinePieces, isBundledId } from '../../bundle/bundle-doc.js';
import { hashStream } from '../../bundle/checksum.js';
import { sessionDocRanges } from '../../bundle/selection.js';
import { allDocsJson } from '../all-docs-stream.js';
import { jsonBody } from '../middleware/body-limit.js';
import { objectKeyProblem, sessionIdProblem, splitObjectKey } from '../../core/object-key.js';
import type { DocStore } from '../../store/contract.js';
import type { ApiDeps } from '../deps.js';
import { clampLimit, DEFAULT_LIMIT, MAX_LIMIT } from '../deps.js';
import { badRequest, HttpError, notFound } from '../http-error.js';
import { parseRange } from '../range.js';
import { streamedResponse, nodeStreamResponse } from '../streamed-response.js';
import { reprDigest, wantsSha256 } from '../repr-digest.js';
import { createRouter } from '../router.js';
import { errorResponses, errorSchema, intParam, limitParam } from '../schemas/common.js';
import {
  allDocsSchema,
  localDocSchema,
  objectListSchema,
  objectPageSchema,
  revsRequestSchema,
  revsResultSchema,
  storedDocSchema,
} from '../schemas/store.js';

const keyParam = (name: string, description: string) =>
  z
    .string()
    .optional()
    .openapi({ param: { name, in: 'query' }, description, example: '"summary:"' });

const allDocsRoute = createRoute({
  method: 'get',
  path: '/docs',
  summary: 'Documents in id order, CouchDB `_all_docs` shape',
  description:
    '`startkey`/`endkey` are JSON-encoded strings as in CouchDB (a bare string is accepted too). ' +
    'Page with `startkey` = the last id and drop that ' +
    'row when it comes back (CouchDB’s `skip=1` works too, but skips a row when the last one was deleted ' +
    'in between). ' +
    '`_local/` documents are never listed.',
  tags: ['store'],
  request: {
    query: z
      .object({
        startkey: keyParam('startkey', 'first id (inclusive)'),
        start_key: keyParam('start_key', 'alias of startkey'),
        endkey: keyParam('endkey', 'last id (inclusive)'),
        end_key: keyParam('end_key', 'alias of endkey'),
        limit: limitParam({ max: MAX_LIMIT.allDocs, default: DEFAULT_LIMIT.allDocs }),
        skip: intParam('skip', 'rows to skip'),
        include_docs: z
          .enum(['true', 'false'], { error: 'must be true or false' })
          .optional()
          .openapi({ param: { name: 'include_docs', in: 'query' } }),
      })
      .strict(),
  },
  responses: {
    200: { description: 'Rows', content: { 'application/json': { schema: allDocsSchema } } },
    ...errorResponses(400),
  },
});

const objectPageRoute = createRoute({
  method: 'get',
  path: '/objects',
  summary: 'Objects of every session in key order, a page at a time',
  description:
    'Lists the whole object store without one request per session (what export does). `after` is the ' +
    "previous page's `next` (the last key it held).",
  tags: ['store'],
  request: {
    query: z
      .object({
        after: z
          .string()
          .optional()
          .openapi({ param: { name: 'after', in: 'query' }, description: 'list the keys after this one' }),
        limit: limitParam({ max: MAX_LIMIT.objects, default: DEFAULT_LIMIT.objects, min: 1 }),
      })
      .strict(),
  },
  responses: {
    200: { description: 'Objects', content: { 'application/json': { schema: objectPageSchema } } },
    ...errorResponses(400),
  },
});

const revsBody = jsonBody(revsRequestSchema, { required: true });

const revsRoute = createRoute({
  method: 'post',
  path: '/revs',
  summary: 'Current revisions of the given ids (absent ids omitted)',
  tags: ['store'],
  middleware: revsBody.middleware,
  request: { body: revsBody.body },
  responses: {
    200: { description: 'Revisions by id', content: { 'application/json': { schema: revsResultSchema } } },
    ...errorResponses(400),
    ...revsBody.responses,
  },
});

/** CouchDB keys are JSON; ids are strings. A bare (non-JSON) string is taken as the id itself. */
function parseKey(raw: string | undefined, name: string): string | undefined {
  if (raw === undefined) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return raw;
  }
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return raw;
  throw badRequest(
    `query parameter ${name}: must be a JSON string such as "summary:" (document ids are strings)`,
  );
}

function contentTypeFor(key: string): string {
  if (key.endsWith('.jsonl')) return 'application/x-ndjson';
  if (key.endsWith('.json')) return 'application/json';
  if (key.endsWith('.md') || key.endsWith('.txt')) return 'text/plain; charset=utf-8';
  return 'application/octet-stream';
}

/** `where` names the parameter as the route takes it: `path parameter sessionId`, `query parameter session`. */
function checkSessionId(id: string, where = 'path parameter sessionId'): void {
  const problem = sessionIdProblem(id);
  if (problem) throw badRequest(`${where}: ${problem}`);
}

/** Rows and bytes per page of `/docs.ndjson`: a few MB in memory, whatever the documents' size. */
const BUNDLE_PAGE = { limit: 512, maxBytes: 4 * 1024 * 1024 };

/**
 * The bundle lines of ranges of documents, one buffer per page, all read from one snapshot of the
 * store. Pages are separate queries, and a session's documents lie far apart in id order (its
 * chunks, then its events, then its summary): read as of different moments, a session written to
 * during an export came out with its chunks from before and its summary from after. A snapshot
 * (`DocStore.snapshot`: a read-only transaction of its own, which never blocks the writers) is
 * simpler than detecting changed sessions and reading them again, and cannot miss one.
 */
async function* bundleLinePages(
  docs: DocStore,
  ranges: Array<{ startkey?: string; endkey?: string }>,
): AsyncGenerator<Buffer> {
  const snapshot = await docs.snapshot();
  try {
    for (const { startkey, endkey } of ranges) {
      let after: string | undefined;
      for (;;) {
        const rows = await snapshot.bodies({ startkey, after, endkey, ...BUNDLE_PAGE });
        if (rows.length === 0) break;
        const pieces: Uint8Array[] = [];
        for (const r of rows) if (isBundledId(r.id)) pieces.push(...bundleLinePieces(r.id, r.body));
        if (pieces.length) yield Buffer.concat(pieces);
        after = rows[rows.length - 1]!.id;
      }
    }
  } finally {
    // Also when the client goes away: the response stream returns this generator.
    await snapshot.close();
  }
}

export function storeRoutes(deps: ApiDeps) {
  const app = createRouter();
  const { store } = deps;

  app.openapi(allDocsRoute, async (c) => {
    const q = c.req.valid('query');
    if (q.startkey !== undefined && q.start_key !== undefined)
      throw badRequest('query parameter start_key: give startkey or start_key, not both');
    if (q.endkey !== undefined && q.end_key !== undefined)
      throw badRequest('query parameter end_key: give endkey or end_key, not both');
    const page = {
      startkey: parseKey(q.startkey ?? q.start_key, q.startkey !== undefined ? 'startkey' : 'start_key'),
      endkey: parseKey(q.endkey ?? q.end_key, q.endkey !== undefined ? 'endkey' : 'end_key'),
      limit: clampLimit(q.limit, DEFAULT_LIMIT.allDocs, MAX_LIMIT.allDocs),
      skip: q.skip ?? 0,
    };
    if (q.include_docs !== 'true') return c.json(await store.docs.allDocs(page), 200);
    // With documents, streamed a few MB at a time (see all-docs-stream.ts); the same JSON as the
    // typed branch, so the route's declared response still holds.
    const streamed = await streamedResponse(c, allDocsJson(store.docs, page), {
      headers: { 'content-type': 'application/json' },
    });
    return streamed as never;
  });

  app.openapi(revsRoute, async (c) => {
    const { ids } = c.req.valid('json');
    const revs = await store.docs.getRevs(ids);
    return c.json({ revs: Object.fromEntries(revs) }, 200);
  });

  // --- bundle form ---------------------------------------------------------------------------
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/docs.ndjson',
    summary: 'Session documents in bundle form, streamed as NDJSON (what export writes to docs.ndjson)',
    description:
      'Every live session document in id order, one per line: `_id` first, then the stored content, ' +
      'revision marker removed; design and `_local/` documents left out. `startkey`/`endkey` (inclusive, ' +
      'JSON-encoded or bare) select a range; `session` (repeatable) instead selects whole sessions, each ' +
      "one's chunks, events and summary in turn. The whole response is read from one snapshot of the " +
      'store, so a session written to meanwhile comes out as it was when the response began. The body is ' +
      'streamed in pages, so memory stays flat; a failure part-way ends the chunked response without its ' +
      'terminator, which clients see as an error.',
    tags: ['store'],
    request: {
      query: z.object({
        startkey: keyParam('startkey', 'first id (inclusive)'),
        endkey: keyParam('endkey', 'last id (inclusive)'),
        session: z
          .union([z.string(), z.array(z.string())])
          .optional()
          .openapi({
            description:
              'a session id (repeatable): every document of these sessions; not with startkey/endkey',
          }),
      }),
    },
    responses: {
      200: { description: 'NDJSON lines', content: { 'application/x-ndjson': { schema: z.string() } } },
      ...errorResponses(400),
    },
  });
  // Registered above; handled by hand, since `session` repeats (c.req.queries) and the stream is raw.
  app.get('/docs.ndjson', async (c) => {
    // Other query parameters were refused before this (middleware/known-query.ts).
    const query = c.req.queries();
    const sessions = [...new Set(query.session ?? [])];
    let ranges: Array<{ startkey?: string; endkey?: string }>;
    if (sessions.length) {
      if (query.startkey || query.endkey)
        throw badRequest('query parameter session: give session or startkey/endkey, not both');
      for (const id of sessions) checkSessionId(id, 'query parameter session');
      ranges = sessions.sort().flatMap(sessionDocRanges);
    } else
      ranges = [
        {
          startkey: parseKey(c.req.query('startkey'), 'startkey'),
          endkey: parseKey(c.req.query('endkey'), 'endkey'),
        },
      ];
    return streamedResponse(c, bundleLinePages(store.docs, ranges), {
      headers: { 'content-type': 'application/x-ndjson; charset=utf-8' },
    });
  });

  // --- one document -------------------------------------------------------------------------
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/docs/{id}',
    summary: 'One document by id (`_local/…` ids read instance-local state as `{_id, value}`)',
    description: 'Ids contain `:` and `/`; send them as they are or percent-encoded.',
    tags: ['store'],
    request: {
      params: z.object({
        id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: 'summary:abc' }),
      }),
    },
    responses: {
      200: {
        description: 'The document',
        content: { 'application/json': { schema: z.union([storedDocSchema, localDocSchema]) } },
      },
      404: { description: 'No such document', content: { 'application/json': { schema: errorSchema } } },
    },
  });
  app.get('/docs/:id{.+}', async (c) => {
    const id = c.req.param('id');
    if (id.startsWith('_local/')) {
      const value = await store.docs.getLocal(id);
      if (value === null) throw notFound(`local document "${id}" not found`);
      return c.json({ _id: id, value });
    }
    const doc = await store.docs.get(id);
    if (!doc) throw notFound(`document "${id}" not found`);
    return c.json(doc);
  });

  // --- objects ------------------------------------------------------------------------------
  app.openapi(objectPageRoute, async (c) => {
    const q = c.req.valid('query');
    // A page of none could never say where the next one starts.
    if (q.limit === 0) throw badRequest('query parameter limit: must be at least 1');
    const limit = clampLimit(q.limit, DEFAULT_LIMIT.objects, MAX_LIMIT.objects);
    const objects = await store.objects.listPage({ after: q.after, limit });
    return c.json(
      {
        objects: objects.map((o) => ({ ...o, ...splitObjectKey(o.key) })),
        next: objects.length === limit ? objects[limit - 1]!.key : null,
      },
      200,
    );
  });

  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/objects/{sessionId}/',
    summary: "A session's objects, in key order",
    tags: ['store'],
    request: {
      params: z.object({ sessionId: z.string().openapi({ param: { name: 'sessionId', in: 'path' } }) }),
    },
    responses: {
      200: { description: 'Objects', content: { 'application/json': { schema: objectListSchema } } },
      ...errorResponses(400, 404),
    },
  });
  const listObjects = async (c: Context) => {
    const sessionId = c.req.param('sessionId')!;
    checkSessionId(sessionId);
    const objects = await store.objects.list(sessionId);
    if (objects.length === 0 && !(await store.docs.get(`summary:${sessionId}`)))
      throw notFound(`session "${sessionId}" has no objects`);
    return c.json({
      sessionId,
      objects: objects.map((o) => ({ ...o, name: o.key.slice(sessionId.length + 1) })),
    });
  };
  app.get('/objects/:sessionId/', listObjects);
  app.get('/objects/:sessionId', listObjects);

  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/objects/{sessionId}/{name}',
    summary: 'One object, streamed (Range supported)',
    description:
      '`name` may contain slashes (`subagents/agent-1.jsonl`). Honours a single `Range: bytes=…` ' +
      '(206 with Content-Range; 416 when unsatisfiable). Sends Content-Length and Accept-Ranges. ' +
      'A HEAD request with `Want-Repr-Digest: sha-256=10` is answered with `Repr-Digest: ' +
      'sha-256=:<base64>:` (RFC 9530), the whole object hashed by the server.',
    tags: ['store'],
    request: {
      params: z.object({
        sessionId: z.string().openapi({ param: { name: 'sessionId', in: 'path' } }),
        name: z.string().openapi({ param: { name: 'name', in: 'path' }, example: 'transcript.jsonl' }),
      }),
    },
    responses: {
      200: {
        description: 'The bytes',
        content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } },
      },
      206: {
        description: 'A byte range',
        content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } },
      },
      ...errorResponses(400, 404, 416),
    },
  });
  app.get('/objects/:sessionId/:name{.+}', async (c) => {
    const sessionId = c.req.param('sessionId');
    const name = c.req.param('name');
    checkSessionId(sessionId);
    const key = `${sessionId}/${name}`;
    const problem = objectKeyProblem(key);
    if (problem) throw badRequest(`path parameter name: ${problem}`);
    const info = await store.objects.stat(key);
    if (!info) throw notFound(`object "${key}" not found`);
    const range = parseRange(c.req.header('range'), info.size);
    const headers: Record<string, string> = {
      'content-type': contentTypeFor(key),
      'accept-ranges': 'bytes',
      'last-modified': new Date(info.mtime).toUTCString(),
    };
    if (range.kind === 'unsatisfiable')
      throw new HttpError(
        416,
        'range_not_satisfiable',
        `range ${c.req.header('range')} is outside the object's ${info.size} bytes`,
        {
          'content-range': `bytes */${info.size}`,
        },
      );
    const [start, end] = range.kind === 'partial' ? [range.start, range.end] : [0, info.size];
    const status = range.kind === 'partial' ? 206 : 200;
    headers['content-length'] = String(end - start);
    if (range.kind === 'partial') headers['content-range'] = `bytes ${start}-${end - 1}/${info.size}`;
    if (c.req.method === 'HEAD' && wantsSha256(c.req.header('want-repr-digest'))) {
      // Hashed here, next to the bytes: the client learns the digest without downloading them.
      const whole = await store.objects.get(key);
      if (!whole) throw notFound(`object "${key}" not found`);
      headers['repr-digest'] = reprDigest((await hashStream(whole)).sha256);
    }
    if (c.req.method === 'HEAD' || end === start) return new Response(null, { status, headers });
    const stream = await store.objects.get(key, range.kind === 'partial' ? { start, end } : undefined);
    if (!stream) throw notFound(`object "${key}" not found`);
    return nodeStreamResponse(c, stream, { status, headers });
  });

  return app;
}
