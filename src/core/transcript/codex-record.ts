/**
 * Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl`) projected to the
 * same entries as Claude Code lines, so the readers, the speaker split, the rollup and search work
 * on them unchanged. Each line is `{timestamp, type, payload}`:
 * - `response_item` — what the model saw and said: messages, reasoning, tool calls and their
 *   outputs. This is the conversation.
 * - `event_msg` — what the client showed. `user_message` and `agent_message` repeat the messages
 *   above, so they carry no text here (a prompt would count twice, a search hit show twice);
 *   `token_count` carries the usage, `error` an error.
 * - `session_meta` (cwd, git branch, version), `turn_context` (cwd, model), `compacted` (a
 *   compaction's summary), and kinds added later, kept as `other`.
 * Like project-entry.ts: every field is untrusted, nothing throws, large fields are capped.
 */
import type { EntryRole, ProjectedEntry, TokenUsage } from '../documents.js';
import { parseTimestamp } from '../active-time.js';
import { capText, capToolInput, cutString, safeStringify } from './caps.js';
import { isRecord, str } from './content-blocks.js';

type ToolUse = NonNullable<ProjectedEntry['toolUses']>[number];
type ToolResult = NonNullable<ProjectedEntry['toolResults']>[number];

const RECORD_TYPES = new Set(['session_meta', 'turn_context', 'response_item', 'event_msg', 'compacted']);
/** Ids, model names and kinds longer than this are hostile input; they are cut. */
const SHORT_CAP = 512;

/**
 * User messages that Codex writes itself before the first prompt: the AGENTS.md instructions and
 * the environment (cwd, shell, date). Not the person's words.
 */
const CONTEXT_PREFIXES = [
  '# AGENTS.md instructions',
  '<environment_context>',
  '<user_instructions>',
  '<user_shell_command>',
  '<turn_aborted>',
];

const ENV_CWD = /<cwd>([^<]*)<\/cwd>/;

/** True for a line of a Codex rollout (as opposed to a Claude Code transcript line). */
export function isCodexRecord(r: Record<string, unknown>): boolean {
  return typeof r.type === 'string' && RECORD_TYPES.has(r.type) && isRecord(r.payload);
}

/** Where a Codex record keeps the session's cwd, git branch and version, in Claude Code's names. */
export function codexMeta(r: Record<string, unknown>): Record<string, unknown> {
  const p = isRecord(r.payload) ? r.payload : {};
  if (r.type === 'session_meta') {
    const git = isRecord(p.git) ? p.git : {};
    return { cwd: p.cwd, gitBranch: git.branch, version: p.cli_version };
  }
  if (r.type === 'turn_context') return { cwd: p.cwd };
  // Versions whose session_meta has no cwd still tell it to the model.
  if (r.type === 'response_item' && p.type === 'message' && p.role === 'user') {
    const env = contentTexts(p.content).find((t) => t.startsWith('<environment_context>'));
    const cwd = env === undefined ? undefined : ENV_CWD.exec(env)?.[1]?.trim();
    return cwd ? { cwd } : {};
  }
  return {};
}

/** The text blocks of a message's content (`input_text`, `output_text`, plain strings). */
function contentTexts(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  const out: string[] = [];
  for (const block of content) {
    if (typeof block === 'string') out.push(block);
    else if (isRecord(block) && typeof block.text === 'string') out.push(block.text);
  }
  return out;
}

function imageCount(content: unknown): number {
  if (!Array.isArray(content)) return 0;
  return content.filter((b) => isRecord(b) && b.type === 'input_image').length;
}

/** A tool call's arguments: JSON text parsed when it parses, kept as text when not. */
function toolInput(args: unknown): unknown {
  if (typeof args !== 'string') return args ?? {};
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return args;
  }
}

/**
 * A tool output as text, and whether it failed. Older versions wrote a shell call's output as
 * JSON text `{"output": …, "metadata": {"exit_code": n}}`; newer ones write text or content blocks.
 */
function toolOutput(output: unknown): { content: string; isError: boolean } {
  if (typeof output === 'string') {
    try {
      const parsed = JSON.parse(output) as unknown;
      if (isRecord(parsed) && typeof parsed.output === 'string') {
        const code = isRecord(parsed.metadata) ? parsed.metadata.exit_code : undefined;
        return { content: parsed.output, isError: typeof code === 'number' && code !== 0 };
      }
    } catch {
      // plain text
    }
    return { content: output, isError: false };
  }
  if (isRecord(output) && typeof output.text === 'string') return { content: output.text, isError: false };
  const texts = contentTexts(output);
  if (texts.length > 0) return { content: texts.join('\n'), isError: false };
  return { content: safeStringify(output) ?? '', isError: false };
}

/** What a response item holds, in the parts of a projected entry. */
interface Parts {
  role: EntryRole;
  text?: string;
  thinking?: string;
  toolUse?: { id: unknown; name: string; input: unknown };
  toolResult?: { id: unknown; output: unknown };
  isMeta?: boolean;
  images?: number;
}

function responseItem(p: Record<string, unknown>): Parts {
  switch (p.type) {
    case 'message': {
      const texts = contentTexts(p.content);
      const images = imageCount(p.content);
      if (p.role === 'assistant') return { role: 'assistant', text: texts.join('\n\n'), images };
      if (p.role === 'user') {
        const context = texts.length > 0 && texts.every((t) => CONTEXT_PREFIXES.some((c) => t.startsWith(c)));
        return { role: 'user', text: texts.join('\n\n'), images, ...(context ? { isMeta: true } : {}) };
      }
      // `developer` and `system`: the instructions Codex gives the model.
      return { role: 'system', text: texts.join('\n\n'), isMeta: true };
    }
    case 'reasoning': {
      const summary = contentTexts(p.summary);
      const content = contentTexts(p.content);
      const thinking = [...summary, ...content].join('\n\n');
      return {
        role: 'assistant',
        thinking: thinking || (p.encrypted_content ? '[encrypted reasoning]' : ''),
      };
    }
    case 'function_call':
      return {
        role: 'assistant',
        toolUse: { id: p.call_id, name: str(p.name) ?? '', input: toolInput(p.arguments) },
      };
    case 'custom_tool_call':
      return {
        role: 'assistant',
        toolUse: { id: p.call_id, name: str(p.name) ?? '', input: toolInput(p.input) },
      };
    case 'local_shell_call': {
      const action = isRecord(p.action) ? p.action : {};
      return {
        role: 'assistant',
        toolUse: { id: p.call_id, name: 'shell', input: { command: action.command } },
      };
    }
    case 'web_search_call':
      return {
        role: 'assistant',
        toolUse: { id: p.call_id ?? p.id, name: 'web_search', input: p.action ?? {} },
      };
    case 'tool_search_call':
      return { role: 'assistant', toolUse: { id: p.call_id, name: 'tool_search', input: p.arguments ?? {} } };
    case 'image_generation_call':
      return {
        role: 'assistant',
        toolUse: { id: p.id, name: 'image_generation', input: { prompt: p.revised_prompt } },
      };
    case 'function_call_output':
    case 'custom_tool_call_output':
      return { role: 'tool_result', toolResult: { id: p.call_id, output: p.output } };
    case 'tool_search_output': {
      const tools = Array.isArray(p.tools) ? p.tools.length : 0;
      return { role: 'tool_result', toolResult: { id: p.call_id, output: `[${tools} tools found]` } };
    }
    default:
      return { role: 'other' };
  }
}

/** `info.last_token_usage` of a `token_count` event, in Anthropic's terms (cached input apart). */
function tokenUsage(info: unknown): TokenUsage | undefined {
  if (!isRecord(info) || !isRecord(info.last_token_usage)) return undefined;
  const u = info.last_token_usage;
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);
  const cached = n(u.cached_input_tokens);
  return {
    // OpenAI's input count includes the cached part.
    input: Math.max(0, n(u.input_tokens) - cached),
    output: n(u.output_tokens),
    cacheWrite: n(u.cache_write_input_tokens),
    cacheRead: cached,
  };
}

/** Projects one Codex record (`isCodexRecord`) at `at`. */
export function projectCodexRecord(
  r: Record<string, unknown>,
  at: Pick<ProjectedEntry, 'index' | 'byteStart' | 'byteEnd'>,
): ProjectedEntry {
  const type = r.type as string;
  const p = r.payload as Record<string, unknown>;
  let truncated = false;
  const short = (v: unknown): string | undefined => {
    if (typeof v !== 'string') return undefined;
    if (v.length > SHORT_CAP) truncated = true;
    return cutString(v, SHORT_CAP);
  };
  const sub = type === 'response_item' || type === 'event_msg' ? str(p.type) : undefined;
  const entry: ProjectedEntry = { ...at, role: 'other', kind: short(sub ? `${type}:${sub}` : type)! };
  const timestamp = short(r.timestamp);
  if (timestamp !== undefined) {
    entry.timestamp = timestamp;
    // Kept as given, but flagged: outside the window it counts for no activity (active-time.ts).
    if (Number.isFinite(Date.parse(timestamp)) && parseTimestamp(timestamp) === null)
      entry.timestampOutOfRange = true;
  }
  const setText = (field: 'text' | 'thinking', value: string | undefined) => {
    if (!value) return;
    const capped = capText(value);
    entry[field] = capped.value;
    truncated ||= capped.cut;
  };

  if (type === 'response_item') {
    const parts = responseItem(p);
    entry.role = parts.role;
    setText('text', parts.text);
    setText('thinking', parts.thinking);
    if (parts.isMeta) entry.isMeta = true;
    if (parts.images)
      entry.images = Array.from({ length: parts.images }, () => ({ mediaType: 'unknown', bytes: 0 }));
    if (parts.toolUse) {
      const input = capToolInput(parts.toolUse.input);
      truncated ||= input.cut;
      const use: ToolUse = {
        id: short(parts.toolUse.id) ?? '',
        name: short(parts.toolUse.name) ?? '',
        input: input.value,
      };
      entry.toolUses = [use];
    }
    if (parts.toolResult) {
      const out = toolOutput(parts.toolResult.output);
      const content = capText(out.content);
      truncated ||= content.cut;
      const result: ToolResult = {
        toolUseId: short(parts.toolResult.id) ?? '',
        content: content.value,
        isError: out.isError,
      };
      entry.toolResults = [result];
    }
  } else if (type === 'event_msg') {
    if (sub === 'token_count') {
      const usage = tokenUsage(p.info);
      if (usage) {
        entry.usage = usage;
        // Codex repeats an unchanged count (e.g. when only rate limits moved): the running total
        // names the model call, so a repeat is counted once.
        const total =
          isRecord(p.info) && isRecord(p.info.total_token_usage)
            ? p.info.total_token_usage.total_tokens
            : undefined;
        if (typeof total === 'number') entry.messageId = `codex-tokens:${total}`;
      }
    } else if (sub === 'error' || sub === 'stream_error') {
      entry.role = 'system';
      const message = str(p.message);
      setText('text', message ? `error: ${message}` : 'error');
      if (message) entry.error = cutString(message, 2000);
    }
  } else if (type === 'turn_context') {
    const model = short(p.model);
    if (model) entry.model = model;
  } else if (type === 'compacted') {
    entry.role = 'system';
    entry.isCompactSummary = true;
    setText('text', str(p.message));
  }
  if (truncated) entry.truncated = true;
  return entry;
}
