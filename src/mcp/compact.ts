/**
 * A transcript as compact text for a model (pure): each entry one block, its tool calls one line
 * each, tool results cut short, thinking only when asked; and the paging that keeps every answer
 * within a character budget. The blocks, laid end to end, are the whole transcript in this form,
 * and a page is a stretch of that text: pages put together give it back exactly.
 *
 * A cursor names where a page starts: the position of an entry (or turn) in the API's order, and
 * how many characters of that entry's block earlier pages already gave (`120` or `120.4000`), so
 * an entry longer than the budget continues on the next page instead of being lost.
 */
import type { EntryLike } from '../core/transcript/entry-kind.js';
import stripAnsi from 'strip-ansi';
import { promptText } from '../core/transcript/turns.js';

/** Characters of a tool call's input shown on its line. */
export const TOOL_INPUT_CHARS = 200;
/** Characters of a tool result shown. */
export const TOOL_RESULT_CHARS = 400;

export interface Cursor {
  /** Position of the entry (or turn) in the API's order, from 0. */
  at: number;
  /** Characters of that entry's block already given. */
  char: number;
}

export class CursorError extends Error {
  override name = 'CursorError';
}

/** `"120"` or `"120.4000"` → a cursor; absent → the start. Throws CursorError for anything else. */
export function parseCursor(value: string | undefined): Cursor {
  if (value === undefined || value.trim() === '') return { at: 0, char: 0 };
  const m = /^(\d{1,9})(?:\.(\d{1,9}))?$/.exec(value.trim());
  if (!m)
    throw new CursorError(
      `cursor "${value}" is not one this server gave: pass the nextCursor of the previous page, ` +
        'an entry number such as "120", or leave it out to start at the beginning',
    );
  return { at: Number(m[1]), char: Number(m[2] ?? 0) };
}

export function formatCursor(c: Cursor): string {
  return c.char > 0 ? `${c.at}.${c.char}` : String(c.at);
}

/** Whitespace runs as one space, at most `max` characters, with `…` and the count left out. */
export function oneLine(value: string, max: number): string {
  const flat = plain(value).replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = cutAt(flat, max);
  return `${flat.slice(0, cut)}… (+${flat.length - cut} chars)`;
}

/**
 * Text as a model should read it: a tool's terminal colours (escape sequences) removed, and other
 * control characters but newlines and tabs dropped.
 */
export function plain(value: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  return stripAnsi(value).replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
}

/** A text of at most `max` characters (plus a note of what was left out). */
export function trimText(value: string, max: number): string {
  if (value.length <= max) return value;
  const cut = cutAt(value, max);
  return `${value.slice(0, cut)}… (+${value.length - cut} chars)`;
}

/** `n`, moved back one when it would split a surrogate pair. */
function cutAt(s: string, n: number): number {
  if (n <= 0 || n >= s.length) return Math.max(0, Math.min(n, s.length));
  const code = s.charCodeAt(n - 1);
  return code >= 0xd800 && code <= 0xdbff ? n - 1 : n;
}

/** `2025-08-21 10:02` (UTC minutes) from an ISO time; '' when there is none. */
export function shortTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const m = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d)/.exec(iso);
  return m ? `${m[1]} ${m[2]}` : iso;
}

/** The input fields that say most about common tools' calls, tried in order. */
const KEY_FIELDS = [
  'command',
  'file_path',
  'path',
  'pattern',
  'url',
  'query',
  'description',
  'prompt',
  'notebook_path',
];

/** A tool call as one line: `→ Bash: npm test`, `→ Edit: src/a.ts`, else its input as JSON. */
export function toolCallLine(name: string, input: unknown): string {
  let summary: string;
  const fields = input && typeof input === 'object' ? (input as Record<string, unknown>) : null;
  const key = fields ? KEY_FIELDS.find((k) => typeof fields[k] === 'string' && fields[k] !== '') : undefined;
  if (fields && key) summary = String(fields[key]);
  else summary = JSON.stringify(input) ?? '';
  return `→ ${name}: ${oneLine(summary, TOOL_INPUT_CHARS)}`;
}

/** Who an entry is: You for the person's own text, Claude, a tool result, else its role and kind. */
export function speaker(e: EntryLike): string {
  const side = e.isSidechain ? ' (subagent)' : '';
  if (e.isCompactSummary) return `compaction summary${side}`;
  if (e.role === 'assistant') return `Claude${side}`;
  if (e.role === 'tool_result' || (e.role === 'user' && e.toolResults?.length)) return `tool result${side}`;
  if (e.role === 'user')
    return promptText(e) !== null ? `You${side}` : `user (${e.kind === 'user' ? 'meta' : e.kind})${side}`;
  return e.kind && e.kind !== e.role ? `${e.role} (${e.kind})` : e.role;
}

export interface RenderOptions {
  /** Show the model's thinking (left out by default). */
  thinking?: boolean;
  /** `markdown`: a heading per entry and the tool lines as list items (the resource's form). */
  style?: 'text' | 'markdown';
}

/**
 * One entry as compact text, ending in a blank line; '' for an entry with nothing to show
 * (progress lines, file snapshots, thinking when it is not asked for).
 */
export function renderEntry(e: EntryLike, options: RenderOptions = {}): string {
  const body: string[] = [];
  const item = options.style === 'markdown' ? '- ' : '';
  if (e.malformed) body.push(`[malformed line${e.error ? `: ${e.error}` : ''}]`);
  if (options.thinking && e.thinking?.trim()) body.push(`[thinking] ${plain(e.thinking).trim()}`);
  const prompt = e.role === 'user' ? promptText(e) : null;
  const text = plain(prompt ?? e.text ?? '').trim();
  if (text) body.push(text);
  for (const t of e.toolUses ?? []) body.push(item + toolCallLine(t.name, t.input));
  for (const r of e.toolResults ?? [])
    body.push(`${item}← ${r.isError ? 'error' : 'result'}: ${oneLine(r.content, TOOL_RESULT_CHARS)}`);
  for (const i of e.images ?? []) body.push(`${item}[image ${i.mediaType}, ${i.bytes} bytes]`);
  if (body.length === 0) return '';
  if (e.truncated) body.push('(this line was shortened when it was stored)');
  const parts = [`#${e.index}`, speaker(e), shortTime(e.timestamp), e.model ?? ''].filter(Boolean);
  const head = options.style === 'markdown' ? `#### ${parts.join(' · ')}` : `[${parts.join(' · ')}]`;
  return `${head}\n${body.join('\n')}\n\n`;
}

/** One turn (a prompt or an answer, from the turns API) as compact text. */
export function renderTurn(
  t: { index: number; file: string; role: string; timestamp: string | null; text: string },
  options: RenderOptions = {},
): string {
  const who = t.role === 'user' ? 'You' : 'Claude';
  const where = t.file === 'transcript.jsonl' ? '' : t.file;
  const parts = [`#${t.index}`, who, shortTime(t.timestamp), where].filter(Boolean);
  const head = options.style === 'markdown' ? `#### ${parts.join(' · ')}` : `[${parts.join(' · ')}]`;
  return `${head}\n${plain(t.text).trim()}\n\n`;
}

export interface PageFill {
  /** The text this call added. */
  text: string;
  /** Where the next page starts when the budget was reached; null when every block fit. */
  next: Cursor | null;
}

/**
 * Lays `blocks` (the rendered entries from position `start.at`, '' for ones with nothing to
 * show) into at most `room` characters, skipping the `start.char` characters of the first block
 * that an earlier page gave. Cuts a block that does not fit where the room ends (never inside a
 * surrogate pair) and says where to go on.
 */
export function fillPage(blocks: readonly string[], start: Cursor, room: number): PageFill {
  let text = '';
  for (let i = 0; i < blocks.length; i++) {
    const skip = i === 0 ? start.char : 0;
    const part = blocks[i]!.slice(skip);
    if (part.length === 0) continue;
    const left = room - text.length;
    if (part.length <= left) {
      text += part;
      continue;
    }
    const take = cutAt(part, left);
    text += part.slice(0, take);
    return { text, next: { at: start.at + i, char: skip + take } };
  }
  return { text, next: null };
}

export interface Page {
  text: string;
  /** The cursor of the next page, or null at the end. */
  next: Cursor | null;
  /** Entries (or turns) the source holds in all. */
  total: number;
}

/**
 * A page of at most `budget` characters from `start`, asking `load(offset)` for the source's
 * items (entries or turns) a batch at a time and `render` for each one's block.
 */
export async function readPage<T>(
  load: (offset: number) => Promise<{ items: T[]; total: number }>,
  render: (item: T) => string,
  start: Cursor,
  budget: number,
): Promise<Page> {
  let text = '';
  let cursor = start;
  let total = 0;
  for (;;) {
    const batch = await load(cursor.at);
    total = batch.total;
    if (batch.items.length === 0) return { text, next: null, total };
    const fill = fillPage(batch.items.map(render), cursor, budget - text.length);
    text += fill.text;
    if (fill.next) return { text, next: fill.next, total };
    cursor = { at: cursor.at + batch.items.length, char: 0 };
    if (cursor.at >= total) return { text, next: null, total };
  }
}
