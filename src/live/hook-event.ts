/**
 * A hook payload → the event document it records (DESIGN §3). The id is derived from the event
 * name, the tool-use id and a hash of the payload bytes at the time of the call, and the document
 * is built once and then only ever re-sent as is (spool replay, retries), so it never duplicates.
 *
 * What the document keeps: the named fields the views and the UI use (tool name and id, short
 * previews, error text, end reason, compaction trigger, subagent id) and, in `data`, every other
 * top-level field — generically, so unknown and future events lose nothing that is small. Tool
 * inputs and responses are not copied (the transcript holds them); big values are cut.
 */
import { createHash } from 'node:crypto';
import { docIds } from '../core/doc-ids.js';
import type { EventDoc } from '../core/documents.js';
import { cutString, safeStringify } from '../core/transcript/caps.js';
import { preview } from '../core/transcript/reconstructed-event.js';
import type { HookPayload } from './hook-payload.js';

/** Fields every payload carries; they are the document's own fields, not `data`. */
const COMMON = new Set(['session_id', 'transcript_path', 'cwd', 'hook_event_name']);
/** Mapped to named fields, or (tool input/response) summarised by the preview. */
const MAPPED = new Set([
  'tool_name',
  'tool_use_id',
  'prompt',
  'reason',
  'trigger',
  'agent_id',
  'error',
  'message',
]);
const BULKY = new Set(['tool_input', 'tool_response']);
/** Per value in `data`: longer strings and JSON are cut to this many characters. */
const DATA_VALUE_MAX = 1000;
/** All of `data` together; keys past it are listed in `data._omitted`. */
const DATA_TOTAL_MAX = 8000;
/** Keys of `tool_input` that say best what a call does, in order of preference. */
const INPUT_KEYS = [
  'command',
  'file_path',
  'notebook_path',
  'path',
  'pattern',
  'url',
  'query',
  'description',
  'prompt',
];

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** One short line saying what a tool call does (`npm test`, `src/a.ts`, …). */
export function toolInputPreview(input: unknown): string | undefined {
  if (typeof input === 'string') return preview(input) || undefined;
  if (!isRecord(input)) return undefined;
  for (const key of INPUT_KEYS) {
    const v = str(input[key]);
    if (v) return preview(v);
  }
  const json = safeStringify(input);
  return json && json !== '{}' ? preview(json) : undefined;
}

/** Whether a PostToolUse response reports a failure (`success: false`, `is_error: true`). */
function responseFailed(response: unknown): boolean {
  return isRecord(response) && (response.success === false || response.is_error === true);
}

function errorText(fields: Record<string, unknown>): string | undefined {
  const e = fields.error;
  if (typeof e === 'string' && e) return preview(e);
  const r = fields.tool_response;
  if (typeof r === 'string' && r) return preview(r);
  const json = r === undefined ? undefined : safeStringify(r);
  return json ? preview(json) : undefined;
}

/** A value for `data`: small ones as they are, big ones cut (and reported as cut). */
function dataValue(v: unknown): { value: unknown; cut: boolean } {
  if (typeof v === 'string')
    return v.length > DATA_VALUE_MAX
      ? { value: `${cutString(v, DATA_VALUE_MAX)}…`, cut: true }
      : { value: v, cut: false };
  if (v === null || typeof v !== 'object') return { value: v, cut: false };
  const json = safeStringify(v) ?? '"[unserialisable]"';
  return json.length > DATA_VALUE_MAX
    ? { value: `${cutString(json, DATA_VALUE_MAX)}…`, cut: true }
    : { value: v, cut: false };
}

export interface HookEventOptions {
  /** When the hook was called (ms since the epoch). */
  now: number;
  hostname: string;
}

/** sha1 of the payload bytes: part of the event id. */
export function payloadHash(input: Buffer): string {
  return createHash('sha1').update(input).digest('hex');
}

/**
 * The event document for a payload that names a session (`payload.sessionId` not null).
 * `inputHash` is `payloadHash(stdin bytes)`.
 */
export function hookEventDoc(
  payload: HookPayload & { sessionId: string },
  inputHash: string,
  options: HookEventOptions,
): EventDoc {
  const f = payload.fields;
  const event = payload.event;
  const timestamp = new Date(options.now).toISOString();
  const toolUseId = str(f.tool_use_id);
  const hash = createHash('sha1')
    .update(`${event}\0${toolUseId ?? ''}\0${inputHash}`)
    .digest('hex')
    .slice(0, 12);

  const doc: EventDoc = {
    _id: docIds.event(payload.sessionId, timestamp, hash),
    type: 'event',
    sessionId: payload.sessionId,
    timestamp,
    event,
    hostname: options.hostname,
  };
  if (payload.cwd) doc.cwd = payload.cwd;
  const toolName = str(f.tool_name);
  if (toolName) doc.toolName = toolName;
  if (toolUseId) doc.toolUseId = toolUseId;
  const agentId = str(f.agent_id);
  if (agentId) doc.agentId = agentId;

  switch (event) {
    case 'UserPromptSubmit': {
      const p = str(f.prompt);
      if (p) doc.preview = preview(p);
      break;
    }
    case 'PreToolUse': {
      const p = toolInputPreview(f.tool_input);
      if (p) doc.preview = p;
      break;
    }
    case 'PostToolUse':
    case 'PostToolUseFailure': {
      const p = toolInputPreview(f.tool_input);
      if (p) doc.preview = p;
      const failed = event === 'PostToolUseFailure' || responseFailed(f.tool_response);
      doc.success = !failed;
      if (failed) {
        const e = errorText(f);
        if (e) doc.error = e;
      }
      break;
    }
    case 'Notification': {
      const m = str(f.message);
      if (m) doc.preview = preview(m);
      break;
    }
    case 'SessionEnd': {
      const r = str(f.reason);
      if (r) doc.reason = cutString(r, 200);
      break;
    }
    case 'PreCompact': {
      const t = str(f.trigger);
      if (t) doc.trigger = cutString(t, 200);
      break;
    }
    default: {
      // Unknown and future events: the named fields they share with known ones still apply.
      const p = str(f.prompt) ?? str(f.message);
      if (p) doc.preview = preview(p);
      const r = str(f.reason);
      if (r) doc.reason = cutString(r, 200);
      const t = str(f.trigger);
      if (t) doc.trigger = cutString(t, 200);
      const e = str(f.error);
      if (e) doc.error = preview(e);
    }
  }

  const data: Record<string, unknown> = {};
  const cut: string[] = [];
  const omitted: string[] = [];
  let budget = DATA_TOTAL_MAX;
  for (const [key, value] of Object.entries(f)) {
    if (COMMON.has(key) || BULKY.has(key)) continue;
    // A mapped field that was used is not repeated; one of the wrong type is kept, as data.
    if (MAPPED.has(key) && typeof value === 'string') continue;
    const { value: v, cut: wasCut } = dataValue(value);
    const size = key.length + (safeStringify(v)?.length ?? 0);
    if (size > budget) {
      omitted.push(key);
      continue;
    }
    budget -= size;
    data[key] = v;
    if (wasCut) cut.push(key);
  }
  if (cut.length) data._cut = cut;
  if (omitted.length) data._omitted = omitted;
  if (payload.transcriptPath) data.transcript_path = payload.transcriptPath;
  if (payload.problems.length) data._problems = payload.problems.map((p) => cutString(p, 300)).slice(0, 10);
  if (payload.salvaged) data._salvaged = true;
  if (Object.keys(data).length) doc.data = data;
  return doc;
}
