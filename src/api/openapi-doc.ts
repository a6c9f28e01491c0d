/**
 * What the API does on every route, said once in its OpenAPI description instead of by hand on
 * each route: `completeDocument()` takes the document the routes describe and adds the responses
 * the shared machinery produces —
 *
 * - 400 on every operation: an unknown query parameter is refused (middleware/known-query.ts);
 * - 401 on every operation when the instance runs with CT_API_TOKEN (middleware/token.ts);
 * - 403 on every operation: a Host that is not this instance (middleware/host-check.ts), and for
 *   a write, a request another site's page sent (middleware/same-origin-writes.ts);
 * - 415 on every write: its body must be typed as the operation takes, even when empty
 *   (middleware/same-origin-writes.ts);
 * - 405 for a method a path does not list, and 431 for a request line and headers over Node's
 *   limit: not per operation (OpenAPI has no place for them), so as reusable responses and in the
 *   document's description.
 *
 * Limits that differ per route are said by the helpers the routes are built with, from the
 * numbers they enforce: `limitParam` (schemas/common.ts) and `jsonBody` (middleware/body-limit.ts).
 */
import { byteLimitWords } from './middleware/body-limit.js';

export interface DocumentFacts {
  /** CT_API_TOKEN is set: every /api request needs `Authorization: Bearer …`. */
  tokenRequired: boolean;
  /** Node's limit on a request's line and headers together. */
  maxHeaderBytes: number;
}

type Json = Record<string, unknown>;
interface Operation {
  requestBody?: { content?: Record<string, unknown> };
  responses?: Record<string, unknown>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Methods that change state: same-origin-writes.ts holds them to a Content-Type. */
const WRITES = new Set<string>(['put', 'post', 'delete', 'patch']);

const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

/** The shared responses, as `components.responses`. */
function sharedResponses(facts: DocumentFacts): Record<string, Json> {
  return {
    UnknownQueryParameter: {
      description:
        'A query parameter this operation does not take (unknown query parameters are refused); ' +
        'the message names it',
      content: errorContent,
    },
    Unauthorized: {
      description: 'Missing or wrong bearer token (this instance runs with CT_API_TOKEN)',
      headers: {
        'WWW-Authenticate': { schema: { type: 'string' }, description: 'Bearer realm="transcripts"' },
      },
      content: errorContent,
    },
    ForbiddenHost: {
      description:
        'The Host header names neither this instance nor a loopback name (DNS-rebinding protection); ' +
        "or, for a write, another site's page sent it (`Sec-Fetch-Site` other than same-origin, or a " +
        'foreign `Origin`)',
      content: errorContent,
    },
    MethodNotAllowed: {
      description: 'The path exists but not with this method; `Allow` lists the methods it takes',
      headers: { Allow: { schema: { type: 'string' }, description: 'for example `GET, HEAD`' } },
      content: errorContent,
    },
    UnsupportedMediaType: {
      description:
        'The request is not typed as the operation takes: `Content-Type: application/json` ' +
        '(`application/octet-stream` for an object upload), required on every write even with an empty body',
      content: errorContent,
    },
    RequestHeaderFieldsTooLarge: {
      description: `Request line and headers together over the ${byteLimitWords(facts.maxHeaderBytes)} limit`,
      content: errorContent,
    },
  };
}

const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });

/** Adds the shared responses to `doc` (in place) and returns it. */
export function completeDocument<D extends object>(doc: D, facts: DocumentFacts): D {
  const components = ((doc as Json).components ??= {}) as Json;
  components.responses = { ...(components.responses as Json | undefined), ...sharedResponses(facts) };

  const paths = ((doc as Json).paths ?? {}) as Record<string, Record<string, Operation | undefined>>;
  for (const item of Object.values(paths))
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const responses = (op.responses ??= {});
      const add = (status: number, name: string) => {
        responses[status] ??= ref(name);
      };
      add(400, 'UnknownQueryParameter');
      if (facts.tokenRequired) add(401, 'Unauthorized');
      add(403, 'ForbiddenHost');
      if (op.requestBody || WRITES.has(method)) add(415, 'UnsupportedMediaType');
      // In status order, as a reader expects them.
      op.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
    }

  const info = ((doc as Json).info ??= {}) as Json;
  info.description = [
    info.description,
    'Every error is `{error: {code, message}}`. Unknown query parameters are refused with 400 on every ' +
      'operation. A method a path does not list gets 405 `method_not_allowed` with an `Allow` header ' +
      '(components/responses/MethodNotAllowed). A request whose line and headers together are over ' +
      `${byteLimitWords(facts.maxHeaderBytes)} gets 431 \`too_large\` (components/responses/RequestHeaderFieldsTooLarge).` +
      (facts.tokenRequired
        ? ' This instance requires `Authorization: Bearer <CT_API_TOKEN>` on every request (401 otherwise).'
        : ''),
  ]
    .filter(Boolean)
    .join('\n\n');
  return doc;
}
