/**
 * Write routes used by backfill and import (DESIGN §7): bulk documents with a per-document outcome
 * (written / unchanged / conflict — idempotent: re-sending identical content is `unchanged`),
 * streaming object upload with an optional sha256 check, and a full-text reindex.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { sessionDocSchema, summaryActivityProblem } from '../../core/documents.js';
import { docIds } from '../../core/doc-ids.js';
import { activityDays, MAX_ACTIVITY_DAYS_PER_REQUEST } from '../../core/doc-limits.js';
import { isUserDocType, userDocProblem } from '../../core/annotations.js';
import { objectKeyProblem, sessionIdProblem } from '../../core/object-key.js';
import type { DocInput } from '../../store/contract.js';
import type { ApiDeps } from '../deps.js';
import { badRequest, conflict, tooLarge } from '../http-error.js';
import { byteLimitWords, jsonBody, MAX_OBJECT_BYTES, tooLargeResponse } from '../middleware/body-limit.js';
import { createRouter, describeValidationError } from '../router.js';
import { errorResponses, errorSchema } from '../schemas/common.js';
import {
  ingestDocsRequestSchema,
  ingestDocsResultSchema,
  putObjectResultSchema,
  reindexResultSchema,
} from '../schemas/ingest.js';
import { nestedDeeperThan } from '../../core/transcript/caps.js';

/** Nesting deeper than any document of ours (a tool input is cut at 64 levels). */
const MAX_DOC_DEPTH = 100;

const docsBody = jsonBody(ingestDocsRequestSchema, { required: true });

const docsRoute = createRoute({
  method: 'post',
  path: '/docs',
  summary: 'Write documents (and local state) in one transaction',
  description:
    'Each document is validated (summary, event, chunk, annotation, tombstone; `_design/…` documents pass as they are); the first ' +
    'invalid one fails the whole request with 400 naming `docs.<index>.<field>`. A document replaces a ' +
    'stored one only when its `_rev` is current; identical content is `unchanged` whatever its `_rev`.',
  tags: ['ingest'],
  middleware: docsBody.middleware,
  request: { body: docsBody.body },
  responses: {
    200: {
      description: 'Per-document outcome',
      content: { 'application/json': { schema: ingestDocsResultSchema } },
    },
    ...errorResponses(400),
    ...docsBody.responses,
  },
});

const reindexRoute = createRoute({
  method: 'post',
  path: '/reindex',
  summary: 'Rebuild the full-text index from the stored chunks',
  tags: ['ingest'],
  responses: {
    200: {
      description: 'What was indexed',
      content: { 'application/json': { schema: reindexResultSchema } },
    },
    ...errorResponses(503),
  },
});

/**
 * Problems with one document, or null, each named like the router's own validation errors
 * (`body field docs.<i>.<field>: …`). Checks the schema and that `_id` matches its content.
 */
function docProblem(doc: Record<string, unknown>, i: number): string | null {
  const at = (field: string, reason: string) => `body field docs.${i}.${field}: ${reason}`;
  // Revisions hash a canonical form built recursively; no document of ours nests this deep.
  if (nestedDeeperThan(doc, MAX_DOC_DEPTH))
    return `body field docs.${i}: nests deeper than ${MAX_DOC_DEPTH} levels`;
  const id = doc._id;
  if (typeof id === 'string' && id.startsWith('_design/')) return null;
  if (typeof id === 'string' && id.startsWith('_local/'))
    return at('_id', '_local/ documents are instance-local; send them in "locals"');
  if (isUserDocType(doc.type)) {
    const problem = userDocProblem(doc);
    const sid = typeof doc.sessionId === 'string' ? sessionIdProblem(doc.sessionId) : null;
    return problem ? `body field docs.${i}.${problem}` : sid ? at('sessionId', sid) : null;
  }
  const parsed = sessionDocSchema.safeParse(doc);
  if (!parsed.success) return describeValidationError('json', parsed.error, ['docs', i]);
  const d = parsed.data;
  const sid = sessionIdProblem(d.sessionId);
  if (sid) return at('sessionId', sid);
  const expected =
    d.type === 'summary'
      ? d._id === docIds.summary(d.sessionId)
      : d.type === 'chunk'
        ? d._id === docIds.chunk(d.sessionId, d.file, d.byteStart)
        : d._id.startsWith(`event:${d.sessionId}:`);
  if (!expected) {
    const want =
      d.type === 'summary'
        ? docIds.summary(d.sessionId)
        : d.type === 'chunk'
          ? docIds.chunk(d.sessionId, d.file, d.byteStart)
          : `event:${d.sessionId}:…`;
    return at('_id', `a ${d.type} document's id must be ${want}, got ${d._id}`);
  }
  if (d.type === 'summary') {
    const p = summaryActivityProblem(d);
    if (p) return at(p.field, p.message);
  }
  if (d.type === 'chunk') {
    const key = objectKeyProblem(`${d.sessionId}/${d.file}`);
    if (key) return at('file', key);
    if (d.byteEnd < d.byteStart) return at('byteEnd', 'must not be before byteStart');
  }
  return null;
}

class ObjectTooLarge extends Error {}

/**
 * The request body, cut off with `ObjectTooLarge` past `max` bytes. A generator over the web
 * stream, not a piped Transform: a client that goes away mid-upload then fails the store's
 * read of it, where an 'error' event on a stream nobody listened to yet ended the process.
 */
async function* limitedBody(
  body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  max: number,
): AsyncGenerator<Uint8Array> {
  let seen = 0;
  for await (const chunk of body) {
    seen += chunk.length;
    if (seen > max) throw new ObjectTooLarge(`object body is over the ${max}-byte limit`);
    yield chunk;
  }
}

export function ingestRoutes(deps: ApiDeps) {
  const app = createRouter();
  const { store } = deps;

  app.openapi(docsRoute, async (c) => {
    const body = c.req.valid('json');
    const problems: string[] = [];
    for (let i = 0; i < body.docs.length && problems.length < 20; i++) {
      const p = docProblem(body.docs[i]!, i);
      if (p) problems.push(p);
    }
    if (problems.length) throw badRequest(problems.join('; '));
    // What the calendar would write for these summaries, bounded per request (doc-limits.ts).
    let days = 0;
    for (const doc of body.docs)
      if (doc.type === 'summary') days += activityDays(doc.activity as [number, number][]);
    if (days > MAX_ACTIVITY_DAYS_PER_REQUEST)
      throw badRequest(
        `body field docs: the summaries' activity covers ${days} UTC days in all; one request may cover at ` +
          `most ${MAX_ACTIVITY_DAYS_PER_REQUEST} (send fewer summaries per request)`,
      );
    const results = await store.docs.commit(body.docs as DocInput[], body.locals ?? [], {
      deferSearch: body.deferSearch === true,
    });
    const count = (s: string) => results.filter((r) => r.status === s).length;
    return c.json(
      { results, written: count('written'), unchanged: count('unchanged'), conflicts: count('conflict') },
      200,
    );
  });

  app.openAPIRegistry.registerPath({
    method: 'put',
    path: '/objects/{sessionId}/{name}',
    summary: 'Upload an object, streamed',
    description:
      '`name` may contain slashes (`subagents/agent-1.jsonl`); `..`, absolute paths and odd characters are ' +
      'refused with 400. `?offset=N` keeps the first N stored bytes and replaces the rest (appending to a ' +
      'growing transcript); without it the object is replaced atomically. `x-content-sha256` (hex) is ' +
      'checked before anything is committed.',
    tags: ['ingest'],
    request: {
      params: z.object({
        sessionId: z.string().openapi({ param: { name: 'sessionId', in: 'path' } }),
        name: z.string().openapi({ param: { name: 'name', in: 'path' }, example: 'transcript.jsonl' }),
      }),
      query: z.object({
        offset: z
          .number()
          .int()
          .min(0)
          .optional()
          .openapi({
            param: { name: 'offset', in: 'query' },
            description: 'keep the first `offset` stored bytes and write the body after them',
          }),
      }),
      headers: z.object({ 'x-content-sha256': z.string().optional() }),
      body: {
        description: `The object's bytes, streamed, at most ${byteLimitWords(MAX_OBJECT_BYTES)}`,
        content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } },
      },
    },
    responses: {
      200: { description: 'Stored', content: { 'application/json': { schema: putObjectResultSchema } } },
      400: {
        description: 'Bad key, offset or checksum, or a query parameter other than offset',
        content: { 'application/json': { schema: errorSchema } },
      },
      409: {
        description: 'offset beyond the stored object',
        content: { 'application/json': { schema: errorSchema } },
      },
      ...tooLargeResponse(MAX_OBJECT_BYTES),
    },
  });
  app.put('/objects/:sessionId/:name{.+}', async (c) => {
    const sessionId = c.req.param('sessionId');
    const key = `${sessionId}/${c.req.param('name')}`;
    const sid = sessionIdProblem(sessionId);
    if (sid) throw badRequest(`path parameter sessionId: ${sid}`);
    const problem = objectKeyProblem(key);
    if (problem) throw badRequest(`path parameter name: ${problem}`);
    // Other query parameters were refused before this (middleware/known-query.ts).
    const rawOffset = c.req.query('offset');
    if (rawOffset !== undefined && !/^\d{1,15}$/.test(rawOffset))
      throw badRequest('query parameter offset: must be a non-negative integer');
    const sha = c.req.header('x-content-sha256');
    if (sha !== undefined && !/^[0-9a-fA-F]{64}$/.test(sha))
      throw badRequest('header x-content-sha256: must be 64 hex digits (the sha256 of the body)');
    const length = c.req.header('content-length');
    if (length !== undefined && Number(length) > MAX_OBJECT_BYTES)
      throw tooLarge(`object body of ${length} bytes is over the ${MAX_OBJECT_BYTES}-byte limit`);

    const offset = rawOffset === undefined ? undefined : Number(rawOffset);
    if (offset) {
      // Appending needs the first `offset` bytes to be there already; otherwise the writer's idea
      // of the object is out of date — a conflict it resolves by re-sending from 0.
      const info = await store.objects.stat(key);
      if (!info || info.size < offset)
        throw conflict(`cannot write ${key} at offset ${offset}: the object holds ${info?.size ?? 0} bytes`);
    }
    const web = c.req.raw.body as AsyncIterable<Uint8Array> | null;
    const limited = limitedBody(web ?? [], MAX_OBJECT_BYTES);
    try {
      const result = await store.objects.put(key, limited, {
        offset,
        sha256: sha?.toLowerCase(),
      });
      return c.json(result, 200);
    } catch (err) {
      if (err instanceof ObjectTooLarge) throw tooLarge(err.message);
      throw err;
    }
  });

  app.openapi(reindexRoute, async (c) => c.json(await store.views.reindex(), 200));

  return app;
}
