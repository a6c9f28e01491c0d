/**
 * What a session file is, from its path alone — one rule for backfill's scan and the watcher. Each
 * agent says it for its own files (`providers/<agent>/`); this module is where the rest of the
 * code asks.
 */
export type { TranscriptPath } from './providers/provider.js';
export { classifyPath as classifyTranscriptPath } from './providers/index.js';
export { isSessionUuid, stemOf } from './providers/peek.js';
