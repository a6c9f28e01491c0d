/**
 * Request body limits. JSON bodies are buffered (they are parsed whole anyway), so they get a
 * ceiling that fits a large ingest batch; object uploads stream to the store and are bounded
 * separately, byte by byte, in the upload route.
 */
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { tooLarge } from '../http-error.js';

/** Ceiling of a JSON request body (an ingest batch). */
export const MAX_JSON_BYTES = 64 * 1024 * 1024;
/** Ceiling of one uploaded object (a transcript file). */
export const MAX_OBJECT_BYTES = 2 * 1024 * 1024 * 1024;

export function jsonBodyLimit(maxSize = MAX_JSON_BYTES): MiddlewareHandler {
  return bodyLimit({
    maxSize,
    onError: () => {
      throw tooLarge(`request body is over the ${maxSize}-byte limit`);
    },
  });
}
