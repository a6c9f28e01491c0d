/**
 * An OpenCode session (its info, messages and parts, read from `storage/` files or `opencode.db`)
 * as the JSONL lines our transcript object keeps, one envelope per document (opencode-record.ts
 * projects them). OpenCode rewrites its documents while a turn runs (a tool part goes pending →
 * running → completed, a message gains its tokens when it completes), so lines are appended only
 * for what is settled, in id order, and a cursor says how far they went: reading again never
 * duplicates a line, and reading in several steps gives the lines of one clean read.
 */
import { OPENCODE_MESSAGE, OPENCODE_PART, OPENCODE_SESSION } from './opencode-record.js';
import { isRecord } from './content-blocks.js';

export interface OpenCodeMessage {
  info: Record<string, unknown>;
  parts: Record<string, unknown>[];
}

export interface OpenCodeSession {
  info: Record<string, unknown>;
  messages: OpenCodeMessage[];
}

export interface OpenCodeCursor {
  /** Id of the last message written out; null before the first. */
  lastMessageId: string | null;
  /** What of the session info was last written (title, directory, version, parent). */
  sessionKey: string | null;
}

export const emptyOpenCodeCursor = (): OpenCodeCursor => ({ lastMessageId: null, sessionKey: null });

const idOf = (v: Record<string, unknown>): string => (typeof v.id === 'string' ? v.id : '');
/** OpenCode ids (`msg_…`, `prt_…`) are ascending in creation time; comparing them orders by time. */
const byId =
  <T>(get: (t: T) => Record<string, unknown>) =>
  (a: T, b: T) => {
    const x = idOf(get(a));
    const y = idOf(get(b));
    return x < y ? -1 : x > y ? 1 : 0;
  };

/**
 * A message is settled when nothing more will be written to it: a user message once it has parts,
 * an assistant message once completed or failed; any message once a later one exists.
 */
export function isSettled(message: OpenCodeMessage, isLast: boolean): boolean {
  if (!isLast) return true;
  const info = message.info;
  if (info.role === 'user') return message.parts.length > 0;
  const time = isRecord(info.time) ? info.time : {};
  return typeof time.completed === 'number' || info.error !== undefined;
}

function sessionKey(info: Record<string, unknown>): string {
  return JSON.stringify([info.title, info.directory, info.version, info.parentID]);
}

/**
 * The lines to append after `cursor`, and the cursor after them. `agentId` marks every line of a
 * child session (a subagent's).
 */
export function openCodeLines(
  session: OpenCodeSession,
  cursor: OpenCodeCursor,
  options: { agentId?: string } = {},
): { lines: string[]; cursor: OpenCodeCursor } {
  const lines: string[] = [];
  const tag = options.agentId ? { agentId: options.agentId } : {};
  const key = sessionKey(session.info);
  // The title arrives after the first turn: a changed session info is a new line, not a rewrite.
  if (key !== cursor.sessionKey)
    lines.push(JSON.stringify({ type: OPENCODE_SESSION, session: session.info, ...tag }));
  const messages = [...session.messages].sort(byId((m) => m.info));
  let last = cursor.lastMessageId;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    const id = idOf(message.info);
    if (last !== null && id <= last) continue;
    if (!isSettled(message, i === messages.length - 1)) break;
    const parts = [...message.parts].sort(byId((p) => p));
    const steps = parts.some((p) => p.type === 'step-finish');
    lines.push(
      JSON.stringify({
        type: OPENCODE_MESSAGE,
        message: message.info,
        ...(message.info.role === 'assistant' ? { tokensFrom: steps ? 'steps' : 'message' } : {}),
        ...tag,
      }),
    );
    const time = isRecord(message.info.time) ? message.info.time : {};
    const about = {
      role: message.info.role,
      modelID: message.info.modelID,
      created: time.created,
      ...(message.info.summary === true ? { summary: true } : {}),
    };
    for (const part of parts)
      lines.push(JSON.stringify({ type: OPENCODE_PART, message: about, part, ...tag }));
    last = id;
  }
  return { lines, cursor: { lastMessageId: last, sessionKey: key } };
}
