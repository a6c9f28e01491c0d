/**
 * Document ids and object names, without the schemas: the hook (`transcripts hook`) and the ingest
 * pipeline it runs build ids on every call, and must not pay for loading zod to do it.
 * `documents.ts` re-exports these, so every other caller keeps importing from there.
 */

/** Id helpers: deterministic, so re-ingest and retried hooks never duplicate. */
export const docIds = {
  summary: (sessionId: string) => `summary:${sessionId}`,
  chunk: (sessionId: string, file: string, byteStart: number) =>
    `chunk:${sessionId}:${file}:${String(byteStart).padStart(12, '0')}`,
  event: (sessionId: string, timestamp: string, hash: string) => `event:${sessionId}:${timestamp}:${hash}`,
};

/** `event:<sessionId>:<timestamp>:<hash>` → its parts; null for any other id. Session ids hold no `:`. */
export function parseEventId(id: string): { sessionId: string; timestamp: string } | null {
  if (!id.startsWith('event:')) return null;
  const rest = id.slice('event:'.length);
  const first = rest.indexOf(':');
  const last = rest.lastIndexOf(':');
  if (first <= 0 || last <= first) return null;
  return { sessionId: rest.slice(0, first), timestamp: rest.slice(first + 1, last) };
}

/** Main transcript object name within a session. */
export const MAIN_TRANSCRIPT = 'transcript.jsonl';
