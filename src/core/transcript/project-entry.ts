/**
 * Projects one Claude Code JSONL line (or a Codex rollout's: codex-record.ts) to a
 * `ProjectedEntry` (DESIGN §3). Pure and total: any byte sequence yields an entry. A line that is
 * not a JSON object is kept as a malformed `other` entry, never dropped; large fields are capped
 * (caps.ts) with `truncated: true`, the raw line staying reachable through the byte range.
 */
import type { EntryRole, ProjectedEntry } from '../documents.js';
import { toTokenUsage } from '../usage.js';
import { parseTimestamp } from '../active-time.js';
import { capText, cutString, safeStringify } from './caps.js';
import { isCodexRecord, projectCodexRecord } from './codex-record.js';
import { isOpenCodeRecord, projectOpenCodeRecord } from './opencode-record.js';
import { emptyParts, isRecord, readContent, str, type ContentParts } from './content-blocks.js';

export interface EntryPosition {
  /** Index of the entry within its file (0-based, blank lines not counted). */
  index: number;
  byteStart: number;
  byteEnd: number;
}

export interface ProjectedLine {
  entry: ProjectedEntry;
  /** The parsed line; null when it is not a JSON object. */
  record: Record<string, unknown> | null;
}

/** How much of a malformed line is kept as its text. */
const MALFORMED_TEXT_CHARS = 2000;
/** Ids, model names and kinds longer than this are hostile input; they are cut. */
const SHORT_CAP = 512;

function malformed(bytes: Buffer, at: EntryPosition, error: string): ProjectedLine {
  // Decode only a prefix: a 10 MB line of garbage need not become a 10 MB string.
  const text = bytes.subarray(0, MALFORMED_TEXT_CHARS * 4).toString('utf8');
  const entry: ProjectedEntry = {
    ...at,
    role: 'other',
    kind: 'malformed',
    malformed: true,
    error: cutString(error, 200),
    text: cutString(text, MALFORMED_TEXT_CHARS),
  };
  if (bytes.length > MALFORMED_TEXT_CHARS) entry.truncated = true;
  return { entry, record: null };
}

function describeJson(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return `a ${typeof v}`;
}

/** `error` of a system line or API error: a string, or an object with a message. */
function errorText(e: unknown): string | undefined {
  if (typeof e === 'string') return e || undefined;
  if (!isRecord(e)) return undefined;
  const text = str(e.message) ?? str(e.formatted) ?? str(e.type) ?? safeStringify(e);
  return text ? cutString(text, 2000) : undefined;
}

function roleOf(type: string | undefined, parts: ContentParts): EntryRole {
  if (type === 'user') return parts.toolResults.length > 0 ? 'tool_result' : 'user';
  if (type === 'assistant') return 'assistant';
  if (type === 'system') return 'system';
  return 'other';
}

/** The text of lines that are not messages: summaries, titles, system notices, queued prompts. */
function otherText(type: string | undefined, r: Record<string, unknown>): string | undefined {
  if (type === 'summary') return str(r.summary);
  if (type === 'custom-title') return str(r.customTitle);
  if (type === 'ai-title') return str(r.aiTitle);
  if (type === 'system') {
    const level = str(r.level);
    const body = [str(r.content), errorText(r.error)].filter((s) => s).join('\n');
    // `info` is the normal case; a warning or error says so up front.
    return body && level && level !== 'info' ? `${level}: ${body}` : body || undefined;
  }
  return str(r.content);
}

/**
 * What refines a line's kind: its `subtype`, or what an attachment or progress line is
 * (`attachment:queued_command`, `progress:hook_progress`).
 */
function subtypeOf(type: string | undefined, r: Record<string, unknown>): string | undefined {
  const own = str(r.subtype);
  if (own !== undefined) return own;
  if (type === 'attachment' && isRecord(r.attachment)) return str(r.attachment.type);
  if (type === 'progress' && isRecord(r.data)) return str(r.data.type);
  return undefined;
}

function projectRecord(r: Record<string, unknown>, at: EntryPosition): ProjectedEntry {
  const message = isRecord(r.message) ? r.message : undefined;
  const type = str(r.type) ?? str(message?.role);
  const subtype = subtypeOf(type, r);
  const parts = emptyParts();
  if (message) readContent(message.content, parts);
  // A prompt typed while Claude was working reaches it as an attachment: text, and maybe images.
  else if (subtype === 'queued_command' && isRecord(r.attachment)) readContent(r.attachment.prompt, parts);
  const extra = message ? undefined : otherText(type, r);
  if (extra) parts.text.push(extra);

  let truncated = parts.cut;
  const short = (v: unknown): string | undefined => {
    if (typeof v !== 'string') return undefined;
    if (v.length > SHORT_CAP) truncated = true;
    return cutString(v, SHORT_CAP);
  };
  const entry: ProjectedEntry = {
    ...at,
    role: roleOf(type, parts),
    kind: short(type ? (subtype ? `${type}:${subtype}` : type) : 'unknown')!,
  };
  const uuid = short(r.uuid);
  if (uuid !== undefined) entry.uuid = uuid;
  if (r.parentUuid === null) entry.parentUuid = null;
  else if (typeof r.parentUuid === 'string') entry.parentUuid = short(r.parentUuid)!;
  const timestamp = short(r.timestamp);
  if (timestamp !== undefined) {
    entry.timestamp = timestamp;
    // Kept as given, but flagged: outside the window it counts for no activity (active-time.ts).
    if (Number.isFinite(Date.parse(timestamp)) && parseTimestamp(timestamp) === null)
      entry.timestampOutOfRange = true;
  }
  if (parts.text.length > 0) {
    const text = capText(parts.text.join('\n\n'));
    entry.text = text.value;
    truncated ||= text.cut;
  }
  if (parts.thinking.length > 0) {
    const thinking = capText(parts.thinking.join('\n\n'));
    entry.thinking = thinking.value;
    truncated ||= thinking.cut;
  }
  if (parts.toolUses.length > 0) entry.toolUses = parts.toolUses;
  if (parts.toolResults.length > 0) {
    // A Task result names the subagent that did the work, so readers can open its file.
    const subagent = isRecord(r.toolUseResult) ? short(r.toolUseResult.agentId) : undefined;
    if (subagent !== undefined && parts.toolResults.length === 1) parts.toolResults[0]!.agentId = subagent;
    entry.toolResults = parts.toolResults;
  }
  if (parts.images.length > 0) entry.images = parts.images;
  if (r.isSidechain === true) entry.isSidechain = true;
  if (r.isMeta === true) entry.isMeta = true;
  if (r.isCompactSummary === true) entry.isCompactSummary = true;
  const agentId = short(r.agentId);
  if (agentId !== undefined) entry.agentId = agentId;
  const model = short(message?.model);
  if (model !== undefined) entry.model = model;
  const messageId = short(message?.id);
  if (messageId !== undefined) entry.messageId = messageId;
  if (isRecord(message?.usage)) entry.usage = toTokenUsage(message.usage);
  const error = type === 'system' || type === 'assistant' ? errorText(r.error) : undefined;
  if (error !== undefined) entry.error = error;
  if (truncated) entry.truncated = true;
  return entry;
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** Projects one line (without its newline). Never throws. */
export function projectLine(bytes: Buffer, at: EntryPosition): ProjectedLine {
  const pos = { index: at.index, byteStart: at.byteStart, byteEnd: at.byteEnd };
  let parsed: unknown;
  try {
    const body = bytes.subarray(0, 3).equals(BOM) ? bytes.subarray(3) : bytes;
    parsed = JSON.parse(body.toString('utf8'));
  } catch (err) {
    return malformed(bytes, pos, `not JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!isRecord(parsed)) return malformed(bytes, pos, `not a JSON object: ${describeJson(parsed)}`);
  try {
    const entry = isCodexRecord(parsed)
      ? projectCodexRecord(parsed, pos)
      : isOpenCodeRecord(parsed)
        ? projectOpenCodeRecord(parsed, pos)
        : projectRecord(parsed, pos);
    return { entry, record: parsed };
  } catch (err) {
    // Only reachable on input no transcript has (e.g. a stack overflow); keep the line anyway.
    const reason = err instanceof Error ? err.message : String(err);
    const entry: ProjectedEntry = { ...pos, role: 'other', kind: 'unknown', error: cutString(reason, 200) };
    return { entry, record: parsed };
  }
}
