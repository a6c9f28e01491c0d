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
