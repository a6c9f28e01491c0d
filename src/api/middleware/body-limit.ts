/**
 * Request body limits. JSON bodies are buffered (they are parsed whole anyway), so they get a
 * ceiling that fits a large ingest batch; object uploads stream to the store and are bounded
 * separately, byte by byte, in the upload route.
 *
 * `jsonBody()` is how a route takes a JSON body: the limit it enforces, the body as the OpenAPI
 * description shows it and the 413 it answers all come from one number, so the description cannot
 * say another limit than the one applied.
 */
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { z } from '@hono/zod-openapi';
import { tooLarge } from '../http-error.js';
import { errorSchema } from '../schemas/common.js';

/** Ceiling of a JSON request body (an ingest batch). */
export const MAX_JSON_BYTES = 64 * 1024 * 1024;
/** Ceiling of one uploaded object (a transcript file). */
export const MAX_OBJECT_BYTES = 2 * 1024 * 1024 * 1024;

/** A byte count as people read it, exact: `65536` → `64 KiB (65536 bytes)`. */
export function byteLimitWords(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const)
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit} (${bytes} bytes)`;
  return `${bytes} bytes`;
}

export function jsonBodyLimit(maxSize = MAX_JSON_BYTES): MiddlewareHandler {
  return bodyLimit({
    maxSize,
    onError: () => {
      throw tooLarge(`request body is over the ${maxSize}-byte limit`);
    },
  });
}

/** The 413 entry of a route whose body is limited to `maxBytes`. */
export function tooLargeResponse(maxBytes: number) {
  return {
    413: {
      description: `Body over the ${byteLimitWords(maxBytes)} limit`,
      content: { 'application/json': { schema: errorSchema } },
    },
  };
}

/**
 * A JSON request body of at most `maxBytes` (default 64 MiB): spread `middleware` into the route,
 * `body` into its `request`, `responses` into its responses.
 */
export function jsonBody<S extends z.ZodType>(
  schema: S,
  options: { maxBytes?: number; required?: boolean } = {},
) {
  const maxBytes = options.maxBytes ?? MAX_JSON_BYTES;
  return {
    middleware: [jsonBodyLimit(maxBytes)] as [MiddlewareHandler],
    body: {
      required: options.required ?? false,
      description: `JSON (Content-Type application/json), at most ${byteLimitWords(maxBytes)}`,
      content: { 'application/json': { schema } },
    },
    responses: tooLargeResponse(maxBytes),
  };
}
