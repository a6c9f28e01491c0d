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

/** Main transcript object name within a session. */
export const MAIN_TRANSCRIPT = 'transcript.jsonl';
