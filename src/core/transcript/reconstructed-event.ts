/**
 * Hook events rebuilt from a transcript for sessions (or stretches of them) no live hook recorded.
 * Ids are deterministic — the file, the entry index, the event name and the tool-use id — so a
 * re-ingest or a resumed ingest writes the same documents, never duplicates.
 */
import { createHash } from 'node:crypto';
import { docIds } from '../doc-ids.js';
import type { EventDoc } from '../documents.js';
import { cutString } from './caps.js';

/** Longest prompt preview or error text an event carries. */
export const PREVIEW_CHARS = 200;

export interface EventOrigin {
  sessionId: string;
  /** Object name of the transcript file (`transcript.jsonl`, `subagents/<name>.jsonl`). */
  file: string;
  entryIndex: number;
  /** ISO UTC time of the event. */
  timestamp: string;
  cwd: string | null;
  hostname: string | null;
  agentId?: string;
}

export type EventFields = Pick<EventDoc, 'toolName' | 'toolUseId' | 'success' | 'preview' | 'error'>;

export function preview(text: string): string {
  return cutString(text.trim(), PREVIEW_CHARS);
}

export function reconstructedEvent(origin: EventOrigin, event: string, fields: EventFields = {}): EventDoc {
  const key = `${origin.file}:${origin.entryIndex}:${event}:${fields.toolUseId ?? ''}`;
  const hash = createHash('sha1').update(key).digest('hex').slice(0, 12);
  const doc: EventDoc = {
    _id: docIds.event(origin.sessionId, origin.timestamp, hash),
    type: 'event',
    sessionId: origin.sessionId,
    timestamp: origin.timestamp,
    event,
    reconstructed: true,
    entryIndex: origin.entryIndex,
  };
  if (origin.cwd) doc.cwd = origin.cwd;
  if (origin.hostname) doc.hostname = origin.hostname;
  if (origin.agentId) doc.agentId = origin.agentId;
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) Object.assign(doc, { [k]: v });
  return doc;
}
