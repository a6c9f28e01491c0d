/**
 * Gemini CLI session files projected to entries (issue 41). Two formats, both written by
 * `packages/core/src/services/chatRecordingService.ts` of gemini-cli (see
 * test/fixtures/gemini/README.md for the lines each rule comes from):
 *
 * - up to 0.37 (before commit f744913584, 2026-04-09): one pretty-printed JSON object per session
 *   (`session-<time>-<id8>.json`), `{sessionId, projectHash, startTime, lastUpdated, messages,
 *   summary?, directories?, kind?}`, rewritten whole on every change;
 * - since: JSONL (`.jsonl`), appended, where a line is the session header, a message (its full
 *   state: a message written again replaces the earlier one of the same `id`, in place),
 *   `{"$set": {...}}` (metadata; `$set.messages` replaces every message), or
 *   `{"$rewindTo": id}` (drops that message and all after it).
 *
 * Either way the file is read whole and its final conversation projected, so an entry stands for a
 * message as Gemini CLI would resume it, never once per save. A message is one entry (`user`,
 * `gemini`, `info`, `warning`, `error`); a `gemini` message whose tool calls have results adds a
 * `tool_result` entry after it; the session's `summary` (Gemini's own generated name for it) is an
 * `ai-title` entry, last. Byte ranges point at the message in the file (its last line in JSONL).
 * Like the other projections: every field is untrusted, nothing throws, large fields are capped.
 */
import { parseTimestamp } from '../../../core/active-time.js';
import type { ProjectedEntry, TokenUsage } from '../../../core/documents.js';
import { capText, capToolInput, cutString, safeStringify } from '../../../core/transcript/caps.js';
import { base64Size, isRecord, str } from '../../../core/transcript/content-blocks.js';
import { projectLine } from '../../../core/transcript/project-entry.js';

type Rec = Record<string, unknown>;
type Image = NonNullable<ProjectedEntry['images']>[number];
type ToolUse = NonNullable<ProjectedEntry['toolUses']>[number];
type ToolResult = NonNullable<ProjectedEntry['toolResults']>[number];

/** An entry before it is numbered. */
export type UnnumberedEntry = Omit<ProjectedEntry, 'index'>;

/** Ids, model names and kinds longer than this are hostile input; they are cut. */
const SHORT_CAP = 512;

/** Where one item of the conversation lies in the file. */
interface Span {
  start: number;
  end: number;
}

/** One item of the final conversation: a message, an unknown record kept, or a bad line. */
type Item =
  | { kind: 'message'; record: Rec; span: Span }
  | { kind: 'other'; record: Rec; span: Span }
  | { kind: 'bad'; bytes: Buffer; span: Span };

export interface GeminiConversation {
  items: Item[];
  /** The session's `summary`, where it was last set. */
  summary: { text: string; span: Span } | null;
}

// --- the parts of a message ----------------------------------------------------------------

interface Parts {
  text: string[];
  thinking: string[];
  images: Image[];
  /** `functionResponse` parts: a tool's answer sent back as the next user turn. */
  functionResponses: number;
}

/** Reads a `PartListUnion` (a string, a Part, or a list of either) into `out`. */
function readParts(content: unknown, out: Parts): void {
  if (typeof content === 'string') {
    if (content) out.text.push(content);
    return;
  }
  for (const part of Array.isArray(content) ? content : [content]) {
    if (typeof part === 'string') {
      if (part) out.text.push(part);
    } else if (isRecord(part)) {
      if (typeof part.text === 'string') {
        // A part flagged `thought` is the model's reasoning, not its answer.
        if (part.thought === true) out.thinking.push(part.text);
        else if (part.text) out.text.push(part.text);
      } else if (isRecord(part.inlineData)) {
        const data = str(part.inlineData.data);
        const mediaType = str(part.inlineData.mimeType) ?? 'unknown';
        out.images.push({ mediaType, bytes: data === undefined ? 0 : base64Size(data) });
      } else if (isRecord(part.fileData)) {
        out.text.push(`[file: ${str(part.fileData.fileUri) ?? str(part.fileData.mimeType) ?? 'unknown'}]`);
      } else if (isRecord(part.functionResponse)) {
        out.functionResponses++;
      }
    }
  }
}

const emptyParts = (): Parts => ({ text: [], thinking: [], images: [], functionResponses: 0 });

/**
 * A tool's output as text: what its `functionResponse` parts answered (`response.output`, or
 * `response.error`), other parts as text, else what the UI showed (`resultDisplay`).
 */
function toolOutput(call: Rec): string {
  const out: string[] = [];
  const result = call.result;
  for (const part of Array.isArray(result)
    ? result
    : result === undefined || result === null
      ? []
      : [result]) {
    if (typeof part === 'string') out.push(part);
    else if (!isRecord(part)) continue;
    else if (isRecord(part.functionResponse)) {
      const response = part.functionResponse.response;
      if (isRecord(response)) {
        const text = str(response.output) ?? str(response.error) ?? str(response.content);
        out.push(text ?? safeStringify(response) ?? '');
      } else if (response !== undefined) out.push(safeStringify(response) ?? '');
    } else if (typeof part.text === 'string') out.push(part.text);
    else if (isRecord(part.inlineData)) out.push(`[${str(part.inlineData.mimeType) ?? 'inline data'}]`);
  }
  if (out.length === 0 && typeof call.resultDisplay === 'string') out.push(call.resultDisplay);
  return out.join('\n');
}

/** Tool statuses that end a call (`scheduler/types.ts`, CoreToolCallStatus); others are under way. */
const DONE = new Set(['success', 'error', 'cancelled']);

/**
 * Gemini's token counts in ours (`chatRecordingService.ts` `recordMessageTokens`: the API's
 * usage metadata): `input` is promptTokenCount, which includes the `cached` part
 * (cachedContentTokenCount); `tool` (toolUsePromptTokenCount) is prompt too, counted apart;
 * `thoughts` (thoughtsTokenCount) is output the model spent thinking, apart from `output`
 * (candidatesTokenCount). Gemini reports no cache writes.
 */
export function geminiTokenUsage(tokens: unknown): TokenUsage | undefined {
  if (!isRecord(tokens)) return undefined;
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);
  const cached = n(tokens.cached);
  return {
    input: Math.max(0, n(tokens.input) - cached) + n(tokens.tool),
    output: n(tokens.output) + n(tokens.thoughts),
    cacheWrite: 0,
    cacheRead: cached,
  };
}

// --- one message -----------------------------------------------------------------------------

function projectMessage(m: Rec, span: Span): UnnumberedEntry[] {
  let truncated = false;
  const short = (v: unknown): string | undefined => {
    if (typeof v !== 'string') return undefined;
    if (v.length > SHORT_CAP) truncated = true;
    return cutString(v, SHORT_CAP);
  };
  const type = str(m.type);
  const base: UnnumberedEntry = { byteStart: span.start, byteEnd: span.end, role: 'other', kind: 'unknown' };
  const uuid = short(m.id);
  if (uuid !== undefined) base.uuid = uuid;
  const timestamp = short(m.timestamp);
  if (timestamp !== undefined) {
    base.timestamp = timestamp;
    if (Number.isFinite(Date.parse(timestamp)) && parseTimestamp(timestamp) === null)
      base.timestampOutOfRange = true;
  }
  const setText = (entry: UnnumberedEntry, field: 'text' | 'thinking', value: string) => {
    if (!value) return;
    const capped = capText(value);
    entry[field] = capped.value;
    truncated ||= capped.cut;
  };

  const parts = emptyParts();
  readParts(m.content, parts);
  const entry: UnnumberedEntry = { ...base, kind: short(type ?? 'unknown')! };
  const out: UnnumberedEntry[] = [entry];

  if (type === 'user') {
    entry.role = 'user';
    if (parts.functionResponses > 0 && parts.text.length === 0) {
      // A tool's answer recorded as the next user turn (since 0.38): not the person's words, and
      // its content is already the tool result of the call before it.
      entry.kind = 'user:function_response';
      entry.isMeta = true;
    } else {
      // What the person typed (`displayContent`) rather than what was sent (`@file` expanded).
      const shown = emptyParts();
      if (m.displayContent !== undefined) readParts(m.displayContent, shown);
      setText(entry, 'text', (shown.text.length > 0 ? shown.text : parts.text).join('\n'));
    }
    if (parts.images.length > 0) entry.images = parts.images;
  } else if (type === 'gemini') {
    entry.role = 'assistant';
    setText(entry, 'text', parts.text.join('\n'));
    const thoughts = Array.isArray(m.thoughts) ? m.thoughts.filter(isRecord) : [];
    const thinking = [
      ...thoughts.map((t) => [str(t.subject), str(t.description)].filter((s) => s).join('\n')),
      ...parts.thinking,
    ].filter((s) => s);
    setText(entry, 'thinking', thinking.join('\n\n'));
    const model = short(m.model);
    if (model) entry.model = model;
    const usage = geminiTokenUsage(m.tokens);
    if (usage) entry.usage = usage;
    // The usage tally counts a message once by this id, across the session's files.
    if (uuid !== undefined) entry.messageId = uuid;

    const calls = Array.isArray(m.toolCalls) ? m.toolCalls.filter(isRecord) : [];
    const uses: ToolUse[] = [];
    const results: ToolResult[] = [];
    let resultsAt: string | undefined;
    for (const call of calls) {
      const input = capToolInput(call.args ?? {});
      truncated ||= input.cut;
      const id = short(call.id) ?? '';
      uses.push({ id, name: short(call.name) ?? '', input: input.value });
      const status = str(call.status);
      if (!status || !DONE.has(status)) continue;
      const text = toolOutput(call);
      const content = capText(status === 'cancelled' && !text ? '[cancelled]' : text);
      truncated ||= content.cut;
      const result: ToolResult = { toolUseId: id, content: content.value, isError: status === 'error' };
      // A subagent's run: its file is `subagents/<agentId>.jsonl` of this session.
      const agentId = short(call.agentId);
      if (agentId) result.agentId = agentId;
      results.push(result);
      resultsAt = short(call.timestamp) ?? resultsAt;
    }
    if (uses.length > 0) entry.toolUses = uses;
    if (results.length > 0) {
      const answered: UnnumberedEntry = {
        byteStart: span.start,
        byteEnd: span.end,
        role: 'tool_result',
        kind: 'gemini:tool_results',
        toolResults: results,
      };
      const at = resultsAt ?? timestamp;
      if (at !== undefined) {
        answered.timestamp = at;
        if (Number.isFinite(Date.parse(at)) && parseTimestamp(at) === null)
          answered.timestampOutOfRange = true;
      }
      out.push(answered);
    }
  } else if (type === 'info' || type === 'warning' || type === 'error') {
    entry.role = 'system';
    const text = parts.text.join('\n');
    setText(entry, 'text', type === 'info' || !text ? text : `${type}: ${text}`);
    if (type === 'error' && text) entry.error = cutString(text, 2000);
  } else {
    // A message type added later: kept, with what text it has.
    setText(entry, 'text', parts.text.join('\n'));
  }
  if (truncated) for (const e of out) e.truncated = true;
  return out;
}

/** An unknown record kind, kept as `other` with its `type` as its kind. */
function projectOther(r: Rec, span: Span): UnnumberedEntry {
  const type = str(r.type);
  const entry: UnnumberedEntry = {
    byteStart: span.start,
    byteEnd: span.end,
    role: 'other',
    kind: cutString(type ?? 'unknown', SHORT_CAP),
  };
  const timestamp = str(r.timestamp);
  if (timestamp !== undefined) entry.timestamp = cutString(timestamp, SHORT_CAP);
  return entry;
}

// --- the two file formats --------------------------------------------------------------------

const isMessage = (r: Rec) => typeof r.id === 'string';
const isHeader = (r: Rec) => typeof r.sessionId === 'string' && typeof r.projectHash === 'string';

/**
 * A JSONL session file (since 0.38) replayed as `loadConversationRecord` replays it: messages
 * upserted by id in first-seen order, `$rewindTo` and `$set.messages` applied. A last line
 * without its newline that does not parse is left out while the file is not `settled`.
 */
export function readJsonl(bytes: Buffer, settled: boolean): GeminiConversation {
  // Keyed by message id; unknown records and bad lines under keys no id can take.
  const items = new Map<string, Item>();
  let summary: GeminiConversation['summary'] = null;
  let start = 0;
  let n = 0;
  const take = (msgs: unknown[], span: Span) => {
    for (const msg of msgs)
      if (isRecord(msg) && isMessage(msg))
        items.set(`m:${String(msg.id)}`, { kind: 'message', record: msg, span });
  };
  while (start < bytes.length) {
    const nl = bytes.indexOf(0x0a, start);
    const terminated = nl >= 0;
    const next = terminated ? nl + 1 : bytes.length;
    let end = terminated ? nl : bytes.length;
    if (end > start && bytes[end - 1] === 0x0d) end--;
    const span = { start, end };
    const line = bytes.subarray(start, end);
    start = next;
    n++;
    if (line.toString('latin1').trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line.toString('utf8'));
    } catch {
      parsed = undefined;
    }
    if (!isRecord(parsed)) {
      if (!terminated && !settled) break; // still being written
      items.set(`bad:${n}`, { kind: 'bad', bytes: line, span });
      continue;
    }
    const r = parsed;
    if (typeof r.$rewindTo === 'string') {
      const key = `m:${r.$rewindTo}`;
      if (!items.has(key)) items.clear();
      else {
        let found = false;
        for (const k of [...items.keys()]) if ((found ||= k === key)) items.delete(k);
      }
    } else if (isMessage(r)) {
      items.set(`m:${r.id as string}`, { kind: 'message', record: r, span });
    } else if (isRecord(r.$set)) {
      if (Array.isArray(r.$set.messages)) {
        // A checkpoint: the messages are these, and only these.
        for (const k of [...items.keys()]) if (k.startsWith('m:')) items.delete(k);
        take(r.$set.messages, span);
      }
      if (typeof r.$set.summary === 'string') summary = { text: r.$set.summary, span };
    } else if (isHeader(r)) {
      // The first line; a resumed `.json` session copied over keeps its summary here.
      if (typeof r.summary === 'string') summary = { text: r.summary, span };
      if (Array.isArray(r.messages)) take(r.messages, span);
    } else {
      items.set(`other:${n}`, { kind: 'other', record: r, span });
    }
  }
  return { items: [...items.values()], summary };
}

/** Byte spans of the `messages` elements and the `summary` value of a JSON session file. */
export function jsonSpans(bytes: Buffer): { messages: Span[]; summary: Span | null } | null {
  let i = 0;
  const ws = () => {
    while (
      i < bytes.length &&
      (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)
    )
      i++;
  };
  const skipString = () => {
    for (i++; i < bytes.length; i++) {
      if (bytes[i] === 0x5c) i++;
      else if (bytes[i] === 0x22) return void i++;
    }
  };
  const skipValue = () => {
    if (bytes[i] === 0x22) return skipString();
    if (bytes[i] === 0x7b || bytes[i] === 0x5b) {
      let depth = 0;
      while (i < bytes.length) {
        const c = bytes[i]!;
        if (c === 0x22) {
          skipString();
          continue;
        }
        if (c === 0x7b || c === 0x5b) depth++;
        else if (c === 0x7d || c === 0x5d) depth--;
        i++;
        if (depth === 0) return;
      }
      return;
    }
    while (i < bytes.length && ![0x2c, 0x7d, 0x5d, 0x20, 0x0a, 0x0d, 0x09].includes(bytes[i]!)) i++;
  };
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
  ws();
  if (bytes[i] !== 0x7b) return null;
  i++;
  const messages: Span[] = [];
  let summary: Span | null = null;
  for (;;) {
    ws();
    if (bytes[i] === 0x7d || i >= bytes.length) break;
    if (bytes[i] !== 0x22) return null;
    const keyStart = i;
    skipString();
    let key: unknown;
    try {
      key = JSON.parse(bytes.subarray(keyStart, i).toString('utf8'));
    } catch {
      return null;
    }
    ws();
    if (bytes[i] !== 0x3a) return null;
    i++;
    ws();
    const valueStart = i;
    if (key === 'messages' && bytes[i] === 0x5b) {
      i++;
      for (;;) {
        ws();
        if (bytes[i] === 0x5d || i >= bytes.length) break;
        const s = i;
        skipValue();
        messages.push({ start: s, end: i });
        ws();
        if (bytes[i] === 0x2c) i++;
      }
      i++;
    } else {
      skipValue();
      if (key === 'summary') summary = { start: valueStart, end: i };
    }
    ws();
    if (bytes[i] === 0x2c) i++;
  }
  return { messages, summary };
}

/**
 * A JSON session file (up to 0.37), or null when it does not parse and may still be being
 * written (Gemini CLI wrote it with `writeFileSync`, in place: a reader can catch it half done).
 */
export function readJson(bytes: Buffer, settled: boolean): GeminiConversation | null {
  const whole = { start: 0, end: bytes.length };
  let parsed: unknown;
  try {
    const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    if (!settled) return null;
    return { items: [{ kind: 'bad', bytes, span: whole }], summary: null };
  }
  if (!isRecord(parsed) || !Array.isArray(parsed.messages))
    return { items: [{ kind: 'bad', bytes, span: whole }], summary: null };
  const spans = jsonSpans(bytes);
  const exact = spans !== null && spans.messages.length === parsed.messages.length;
  const items: Item[] = [];
  parsed.messages.forEach((msg, i) => {
    const span = exact ? spans.messages[i]! : whole;
    if (isRecord(msg) && isMessage(msg)) items.push({ kind: 'message', record: msg, span });
    else if (isRecord(msg)) items.push({ kind: 'other', record: msg, span });
  });
  const summary =
    typeof parsed.summary === 'string' ? { text: parsed.summary, span: spans?.summary ?? whole } : null;
  return { items, summary };
}

/** The entries of a conversation, numbered from 0. */
export function projectConversation(conversation: GeminiConversation): ProjectedEntry[] {
  const out: ProjectedEntry[] = [];
  const push = (e: UnnumberedEntry) => out.push({ index: out.length, ...e });
  for (const item of conversation.items) {
    if (item.kind === 'message') {
      for (const e of projectMessage(item.record, item.span)) push(e);
    } else if (item.kind === 'other') {
      push(projectOther(item.record, item.span));
    } else {
      const { entry } = projectLine(item.bytes, {
        index: 0,
        byteStart: item.span.start,
        byteEnd: item.span.end,
      });
      const { index: _index, ...rest } = entry;
      // A line that is JSON but no object, or a JSON file that is no session.
      push(
        rest.malformed
          ? rest
          : { ...rest, role: 'other', kind: 'malformed', malformed: true, error: 'not a Gemini CLI record' },
      );
    }
  }
  if (conversation.summary?.text) {
    const text = capText(conversation.summary.text);
    const { start, end } = conversation.summary.span;
    push({
      byteStart: start,
      byteEnd: end,
      role: 'other',
      kind: 'ai-title',
      text: text.value,
      ...(text.cut ? { truncated: true } : {}),
    });
  }
  return out;
}
