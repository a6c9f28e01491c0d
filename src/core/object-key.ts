/**
 * Object keys are `<sessionId>/<name>`, where name is `transcript.jsonl` or
 * `subagents/<file>.jsonl` (or another plain relative path). Keys come from HTTP paths and bundle
 * directories, so they are validated before any engine touches them: no `..`, no absolute paths,
 * no backslashes or control characters, nothing that could escape the store.
 */

const SEGMENT = /^[A-Za-z0-9._@+=,-][A-Za-z0-9._@+=, -]*$/;
/** A file name's limit on every common filesystem (NAME_MAX); segments are ASCII, so bytes = chars. */
export const MAX_SEGMENT_BYTES = 255;
/** A whole key's limit. */
export const MAX_KEY_CHARS = 1024;

/** Returns an error message naming what is wrong, or null when the key is acceptable. */
export function objectKeyProblem(key: string): string | null {
  if (typeof key !== 'string' || key.length === 0) return 'object key is empty';
  if (key.length > MAX_KEY_CHARS) return `object key is longer than ${MAX_KEY_CHARS} characters`;
  if (key.startsWith('/')) return `object key "${key}" is absolute`;
  const parts = key.split('/');
  if (parts.length < 2) return `object key "${key}" must be <sessionId>/<name>`;
  for (const part of parts) {
    if (part === '' || part === '.' || part === '..')
      return `object key "${key}" has an empty, "." or ".." segment`;
    if (!SEGMENT.test(part)) return `object key "${key}" has a disallowed character in "${part}"`;
    if (part.length > MAX_SEGMENT_BYTES)
      return `object key "${key}" has a segment of ${part.length} bytes; at most ${MAX_SEGMENT_BYTES} are allowed`;
  }
  return null;
}

export function sessionIdProblem(id: string): string | null {
  if (!id) return 'session id is empty';
  if (id.length > 200) return 'session id is longer than 200 characters';
  if (id === '.' || id === '..' || !SEGMENT.test(id)) return `session id "${id}" has a disallowed character`;
  return null;
}

/** `<sessionId>/<name>` → its parts. Assumes a valid key. */
export function splitObjectKey(key: string): { sessionId: string; name: string } {
  const slash = key.indexOf('/');
  return { sessionId: key.slice(0, slash), name: key.slice(slash + 1) };
}
