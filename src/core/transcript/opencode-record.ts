/**
 * OpenCode sessions projected to the same entries as Claude Code lines. OpenCode keeps a session
 * as many JSON documents (session info, one per message, one per part: files under
 * `storage/`, or rows of `opencode.db`); ingest writes them into our transcript object as JSONL,
 * one envelope per line (opencode-session.ts), and each line projects here:
 * - `{type: 'opencode.session', session}` — title, directory, version, parent session;
 * - `{type: 'opencode.message', message, tokensFrom}` — a message's info: role, model, cwd,
 *   times, error (an aborted turn), and its tokens when it has no step-finish parts;
 * - `{type: 'opencode.part', message: {role, modelID, created, summary}, part, agentId?}` — one
 *   part: text, reasoning, tool (call and result in one part), file, patch, step-start,
 *   step-finish (a step's tokens), subtask, agent, retry, compaction, snapshot, or a kind added
 *   later, kept as `other`.
 * Where each format fact comes from: test/fixtures/opencode/README.md. Like project-entry.ts:
 * every field is untrusted, nothing throws, large fields are capped.
 */
import type { EntryRole, ProjectedEntry, TokenUsage } from '../documents.js';
import { parseTimestamp } from '../active-time.js';
import { capText, capToolInput, cutString, safeStringify } from './caps.js';
import { base64Size, isRecord, str } from './content-blocks.js';

export const OPENCODE_SESSION = 'opencode.session';
export const OPENCODE_MESSAGE = 'opencode.message';
export const OPENCODE_PART = 'opencode.part';
const TYPES = new Set([OPENCODE_SESSION, OPENCODE_MESSAGE, OPENCODE_PART]);
/** Ids, model names and kinds longer than this are hostile input; they are cut. */
const SHORT_CAP = 512;

/** OpenCode's placeholder title until one is generated (session.ts `createDefaultTitle`). */
const DEFAULT_TITLE = /^(New session - |Child session - )\d{4}-\d{2}-\d{2}T[\d:.]+Z$/i;

/** True for a line ingest wrote from an OpenCode session. */
export function isOpenCodeRecord(r: Record<string, unknown>): boolean {
  return typeof r.type === 'string' && TYPES.has(r.type);
}

/** A real title (not OpenCode's placeholder), or undefined. */
export function openCodeTitle(title: unknown): string | undefined {
  if (typeof title !== 'string') return undefined;
  const t = title.trim();
  return t && !DEFAULT_TITLE.test(t) ? t : undefined;
}

/** Where an OpenCode line keeps the session's cwd and version, in Claude Code's names. */
export function openCodeMeta(r: Record<string, unknown>): Record<string, unknown> {
  if (r.type === OPENCODE_SESSION && isRecord(r.session))
    return { cwd: r.session.directory, version: r.session.version };
  if (r.type === OPENCODE_MESSAGE && isRecord(r.message) && isRecord(r.message.path))
    return { cwd: r.message.path.cwd };
  return {};
}

const num = (v: unknown): number =>
  typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0;

/**
 * OpenCode's `tokens` ({input, output, reasoning, cache: {read, write}}) in our fields. Its
 * `input` already excludes cached tokens (session `getUsage` subtracts them), and it bills
 * `reasoning` at the output rate on top of `output`, so reasoning counts as output here.
 */
export function openCodeUsage(tokens: unknown): TokenUsage | undefined {
  if (!isRecord(tokens)) return undefined;
  const cache = isRecord(tokens.cache) ? tokens.cache : {};
  return {
    input: num(tokens.input),
    output: num(tokens.output) + num(tokens.reasoning),
    cacheRead: num(cache.read),
    cacheWrite: num(cache.write),
  };
}

/** An error object as OpenCode stores it (`{name, data: {message}}`), as one line of text. */
function errorText(e: unknown): string | undefined {
  if (typeof e === 'string') return e || undefined;
  if (!isRecord(e)) return undefined;
  const data = isRecord(e.data) ? e.data : {};
  const name = str(e.name);
  const message = str(data.message) ?? str(e.message);
  const text = [name, message].filter((s) => s).join(': ') || safeStringify(e);
  return text ? cutString(text, 2000) : undefined;
}

function isoOf(ms: unknown): string | undefined {
  return typeof ms === 'number' && Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

interface Draft {
  role: EntryRole;
  kind: string;
  time?: unknown;
  text?: string[];
  thinking?: string[];
  toolUses?: NonNullable<ProjectedEntry['toolUses']>;
  toolResults?: NonNullable<ProjectedEntry['toolResults']>;
  images?: NonNullable<ProjectedEntry['images']>;
  usage?: TokenUsage;
  error?: string;
  isMeta?: boolean;
  isCompactSummary?: boolean;
  model?: unknown;
  messageId?: unknown;
  uuid?: unknown;
  parentUuid?: unknown;
  cut?: boolean;
}

function sessionLine(s: Record<string, unknown>): Draft {
  const time = isRecord(s.time) ? s.time : {};
  const title = openCodeTitle(s.title);
  return {
    role: 'other',
    kind: OPENCODE_SESSION,
    time: time.created,
    ...(title ? { text: [title] } : {}),
    uuid: s.id,
    ...(typeof s.parentID === 'string' ? { parentUuid: s.parentID } : {}),
  };
}

function messageLine(r: Record<string, unknown>, m: Record<string, unknown>): Draft {
  const time = isRecord(m.time) ? m.time : {};
  const role = str(m.role);
  const draft: Draft = {
    role: 'other',
    kind: `${OPENCODE_MESSAGE}:${role ?? 'unknown'}`,
    time: time.created,
    uuid: m.id,
  };
  // A message file or row we could not read (read-files.ts, read-db.ts): kept, saying why.
  const unreadable = str(m.unreadable);
  if (unreadable !== undefined) {
    draft.error = unreadable;
    draft.text = [unreadable];
  }
  if (role === 'assistant') {
    draft.model = m.modelID;
    draft.parentUuid = m.parentID;
    // Without step-finish parts (versions before them) the message's own tokens are its usage.
    // No messageId: the parts carry the message's id, and its first sighting counts the message.
    if (r.tokensFrom === 'message') draft.usage = openCodeUsage(m.tokens);
    const error = errorText(m.error);
    if (error !== undefined) {
      // An aborted turn (MessageAbortedError) or a failed call: said where it happened.
      draft.role = 'system';
      draft.error = error;
      draft.text = [error];
    }
  }
  return draft;
}

/** The tool output OpenCode stores, or its error, as a result; none while pending or running. */
function toolPart(p: Record<string, unknown>, draft: Draft): void {
  const state = isRecord(p.state) ? p.state : {};
  const status = str(state.status) ?? 'unknown';
  draft.kind = `${OPENCODE_PART}:tool:${status}`;
  const id = str(p.callID) ?? str(p.id) ?? '';
  const input = capToolInput(isRecord(state.input) ? state.input : {});
  draft.cut ||= input.cut;
  draft.toolUses = [
    {
      id: cutString(id, SHORT_CAP),
      name: cutString(str(p.tool) ?? 'unknown', SHORT_CAP),
      input: input.value,
    },
  ];
  const time = isRecord(state.time) ? state.time : {};
  draft.time = time.start;
  if (status === 'completed' || status === 'error') {
    const raw = status === 'completed' ? (str(state.output) ?? '') : (errorText(state.error) ?? '');
    const content = capText(raw);
    draft.cut ||= content.cut;
    const result: NonNullable<ProjectedEntry['toolResults']>[number] = {
      toolUseId: cutString(id, SHORT_CAP),
      content: content.value,
      isError: status === 'error',
    };
    // The task tool runs a subagent in a child session and names it in its metadata.
    const meta = isRecord(state.metadata) ? state.metadata : {};
    const child = str(meta.sessionId) ?? str(meta.sessionID);
    if (child) result.agentId = cutString(child, SHORT_CAP);
    draft.toolResults = [result];
  }
}

function filePart(p: Record<string, unknown>, draft: Draft): void {
  const mime = str(p.mime) ?? '';
  const url = str(p.url) ?? '';
  const source = isRecord(p.source) ? p.source : {};
  const name = str(source.path) ?? str(p.filename) ?? (url.startsWith('data:') ? undefined : url);
  draft.text = [`[file: ${name ?? 'attachment'}${mime ? ` (${mime})` : ''}]`];
  // An attachment beside the prompt, not words the person typed: not a prompt of its own.
  draft.isMeta = true;
  if (mime.startsWith('image/') && url.startsWith('data:')) {
    const comma = url.indexOf(',');
    draft.images = [
      { mediaType: cutString(mime, SHORT_CAP), bytes: comma < 0 ? 0 : base64Size(url.slice(comma + 1)) },
    ];
  }
}

function partLine(r: Record<string, unknown>, p: Record<string, unknown>): Draft {
  const m = isRecord(r.message) ? r.message : {};
  const speaker: EntryRole = m.role === 'user' ? 'user' : m.role === 'assistant' ? 'assistant' : 'other';
  const type = str(p.type) ?? 'unknown';
  const time = isRecord(p.time) ? p.time : {};
  const draft: Draft = {
    role: speaker,
    kind: `${OPENCODE_PART}:${type}`,
    time: time.start ?? m.created,
    uuid: p.id,
    messageId: p.messageID,
    ...(speaker === 'assistant' ? { model: m.modelID } : {}),
  };
  switch (type) {
    case 'text': {
      const text = str(p.text) ?? '';
      if (text) draft.text = [text];
      // Text OpenCode adds itself (a read file's contents, a reminder) is not the person's words.
      if (p.synthetic === true || p.ignored === true) draft.isMeta = true;
      if (m.summary === true) draft.isCompactSummary = true;
      break;
    }
    case 'reasoning': {
      const text = str(p.text) ?? '';
      if (text) draft.thinking = [text];
      break;
    }
    case 'tool':
      draft.role = 'assistant';
      toolPart(p, draft);
      break;
    case 'file':
      filePart(p, draft);
      break;
    case 'patch': {
      const files = Array.isArray(p.files) ? p.files.filter((f): f is string => typeof f === 'string') : [];
      draft.role = 'other';
      draft.text = [`Changed ${files.length} file${files.length === 1 ? '' : 's'}: ${files.join(', ')}`];
      break;
    }
    case 'step-finish':
      // One model call: its tokens. Each step is counted once, keyed by the part's id.
      draft.role = 'other';
      draft.usage = openCodeUsage(p.tokens);
      draft.messageId = p.id;
      draft.model = m.modelID;
      break;
    case 'subtask':
      draft.text = [[str(p.description), str(p.prompt)].filter((s) => s).join('\n\n')];
      draft.isMeta = true;
      break;
    case 'agent':
      draft.text = [`@${str(p.name) ?? ''}`];
      draft.isMeta = true;
      break;
    case 'retry': {
      draft.role = 'system';
      const error = errorText(p.error);
      if (error) {
        draft.error = error;
        draft.text = [`retry ${num(p.attempt)}: ${error}`];
      }
      const t = isRecord(p.time) ? p.time : {};
      draft.time = t.created ?? m.created;
      break;
    }
    default: {
      // step-start, snapshot, compaction and kinds added later: kept, with no text.
      draft.role = 'other';
      const unreadable = str(p.unreadable);
      if (unreadable !== undefined) {
        draft.error = unreadable;
        draft.text = [unreadable];
      }
    }
  }
  return draft;
}

/** Projects one OpenCode envelope line. Never throws on any JSON object. */
export function projectOpenCodeRecord(
  r: Record<string, unknown>,
  at: { index: number; byteStart: number; byteEnd: number },
): ProjectedEntry {
  let draft: Draft;
  if (r.type === OPENCODE_SESSION && isRecord(r.session)) draft = sessionLine(r.session);
  else if (r.type === OPENCODE_MESSAGE && isRecord(r.message)) draft = messageLine(r, r.message);
  else if (r.type === OPENCODE_PART && isRecord(r.part)) draft = partLine(r, r.part);
  else
    draft = {
      role: 'other',
      kind: `${String(r.type)}:invalid`,
      error: `${String(r.type)} line without its object`,
    };

  let truncated = draft.cut === true;
  const short = (v: unknown): string | undefined => {
    if (typeof v !== 'string') return undefined;
    if (v.length > SHORT_CAP) truncated = true;
    return cutString(v, SHORT_CAP);
  };
  const entry: ProjectedEntry = { ...at, role: draft.role, kind: short(draft.kind)! };
  const uuid = short(draft.uuid);
  if (uuid !== undefined) entry.uuid = uuid;
  const parent = short(draft.parentUuid);
  if (parent !== undefined) entry.parentUuid = parent;
  const timestamp = isoOf(draft.time);
  if (timestamp !== undefined) {
    entry.timestamp = timestamp;
    if (parseTimestamp(timestamp) === null) entry.timestampOutOfRange = true;
  }
  if (draft.text && draft.text.length > 0) {
    const text = capText(draft.text.join('\n\n'));
    entry.text = text.value;
    truncated ||= text.cut;
  }
  if (draft.thinking && draft.thinking.length > 0) {
    const thinking = capText(draft.thinking.join('\n\n'));
    entry.thinking = thinking.value;
    truncated ||= thinking.cut;
  }
  if (draft.toolUses) entry.toolUses = draft.toolUses;
  if (draft.toolResults) entry.toolResults = draft.toolResults;
  if (draft.images) entry.images = draft.images;
  if (draft.isMeta) entry.isMeta = true;
  if (draft.isCompactSummary) entry.isCompactSummary = true;
  // Lines of a child session (a subagent) carry its id, as Claude Code's subagent files do.
  const agentId = short(r.agentId);
  if (agentId !== undefined) {
    entry.agentId = agentId;
    entry.isSidechain = true;
  }
  const model = short(draft.model);
  if (model !== undefined) entry.model = model;
  const messageId = short(draft.messageId);
  if (messageId !== undefined) entry.messageId = messageId;
  if (draft.usage) entry.usage = draft.usage;
  if (draft.error !== undefined) entry.error = cutString(draft.error, 2000);
  if (truncated) entry.truncated = true;
  return entry;
}
