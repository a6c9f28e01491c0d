/**
 * What a transcript file is, from its path alone — one rule for backfill's scan and the watcher:
 * - `<project>/<sessionId>.jsonl` — a Claude Code main transcript; the session id is the stem;
 * - `<…>/<sessionId>/subagents/agent-*.jsonl` — a subagent of `<sessionId>` (layout since 2.0);
 * - any other `agent-*.jsonl` (project level, or in an `agents/` folder) — an older subagent file
 *   whose lines carry the parent's `sessionId`; the parent is resolved from its content;
 * - `rollout-<time>-<uuid>.jsonl` — a Codex CLI rollout (`~/.codex/sessions/YYYY/MM/DD/`); the
 *   session id is the uuid, as Codex itself names the session (`codex resume <uuid>`).
 * Subagent files attach to their parent session; they never become sessions of their own.
 */
import { basename, dirname } from 'node:path';
import { MAIN_TRANSCRIPT } from '../core/doc-ids.js';

export interface TranscriptPath {
  kind: 'main' | 'subagent';
  /** Known from the layout; null for an old-layout `agent-*.jsonl` (its lines name the parent). */
  sessionId: string | null;
  /** Object name within the session: `transcript.jsonl` or `subagents/<file>`. */
  objectName: string;
}

const AGENT_FILE = /^agent-.*\.jsonl$/;
const CODEX_ROLLOUT = /^rollout-.+-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

/** What a `.jsonl` path is; null for any other file. */
export function classifyTranscriptPath(path: string): TranscriptPath | null {
  const name = basename(path);
  if (!name.endsWith('.jsonl')) return null;
  if (basename(dirname(path)) === 'subagents') {
    return { kind: 'subagent', sessionId: basename(dirname(dirname(path))), objectName: `subagents/${name}` };
  }
  if (AGENT_FILE.test(name)) return { kind: 'subagent', sessionId: null, objectName: `subagents/${name}` };
  const rollout = CODEX_ROLLOUT.exec(name);
  const sessionId = rollout ? rollout[1]!.toLowerCase() : name.slice(0, -'.jsonl'.length);
  return { kind: 'main', sessionId, objectName: MAIN_TRANSCRIPT };
}
