/**
 * Reads what Claude Code pipes into `transcripts hook`: a JSON object with `session_id`,
 * `transcript_path`, `cwd`, `hook_event_name` and per-event fields. Never throws — whatever
 * arrives, the hook must exit 0 — so every problem becomes a line in `problems`, and a payload
 * that is not JSON (or was cut at the input cap) is salvaged: the common fields are looked for
 * by pattern, so the event is still recorded against its session.
 */
import { basename } from 'node:path';
import { sessionIdProblem } from '../core/object-key.js';

export interface HookPayload {
  /** Null when none could be found (nothing can be recorded then). */
  sessionId: string | null;
  /** `hook_event_name`, or `Unknown` when absent or not a string. */
  event: string;
  transcriptPath: string | null;
  cwd: string | null;
  /** The parsed object (empty when salvaged). */
  fields: Record<string, unknown>;
  problems: string[];
  /** True when the input was not a JSON object and the fields above came from pattern matching. */
  salvaged: boolean;
  /** Input size in bytes (all of it, also past the cap). */
  bytes: number;
}

/** Longest event name kept (a hostile one must not become a huge id). */
const EVENT_NAME_MAX = 100;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : `a ${typeof v}`);

/** The string value of `"key": "…"` in JSON-ish text, unescaped; null when not found. */
function findString(text: string, key: string): string | null {
  const m = new RegExp(`"${key}"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)"`).exec(text);
  if (!m) return null;
  try {
    return JSON.parse(`"${m[1]}"`) as string;
  } catch {
    return m[1]!;
  }
}

/**
 * @param input the bytes read from stdin (at most the input cap)
 * @param totalBytes how many bytes stdin carried in all (more than `input.length` when cut)
 */
export function parseHookPayload(input: Buffer, totalBytes = input.length): HookPayload {
  const problems: string[] = [];
  const text = input.toString('utf8');
  let fields: Record<string, unknown> = {};
  let salvaged = false;

  if (totalBytes > input.length)
    problems.push(
      `payload of ${totalBytes} bytes is over the ${input.length}-byte input cap; the rest was dropped`,
    );
  if (text.trim() === '') problems.push('empty payload on stdin');
  else {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      if (totalBytes === input.length) problems.push(`payload is not JSON (${(err as Error).message})`);
    }
    if (isRecord(parsed)) fields = parsed;
    else {
      if (parsed !== undefined) problems.push(`payload is ${describe(parsed)}, not a JSON object`);
      salvaged = true;
    }
  }

  const pick = (key: string): string | null => {
    if (salvaged) return findString(text, key);
    const v = fields[key];
    if (v === undefined || v === null) return null;
    if (typeof v === 'string') return v;
    problems.push(`${key}: expected a string, got ${describe(v)}`);
    return null;
  };

  const transcriptPath = pick('transcript_path') || null;
  const cwd = pick('cwd') || null;
  let event = pick('hook_event_name') || '';
  if (!event) {
    problems.push('no hook_event_name: recorded as "Unknown"');
    event = 'Unknown';
  } else if (event.length > EVENT_NAME_MAX) {
    problems.push(`hook_event_name is longer than ${EVENT_NAME_MAX} characters: cut`);
    event = event.slice(0, EVENT_NAME_MAX);
  }

  let sessionId = pick('session_id') || null;
  if (sessionId !== null) {
    const problem = sessionIdProblem(sessionId);
    if (problem) {
      problems.push(`session_id: ${problem}`);
      sessionId = null;
    }
  }
  // Claude Code names the transcript after the session: the next best source of the id.
  if (sessionId === null && transcriptPath?.endsWith('.jsonl')) {
    const fromFile = basename(transcriptPath, '.jsonl');
    if (!sessionIdProblem(fromFile)) {
      problems.push(`no usable session_id: took "${fromFile}" from transcript_path`);
      sessionId = fromFile;
    }
  }
  if (sessionId === null) problems.push('no session_id: nothing can be recorded');

  return { sessionId, event, transcriptPath, cwd, fields, problems, salvaged, bytes: totalBytes };
}
