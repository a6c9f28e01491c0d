/**
 * What a transcript file is, from its path alone — one rule for backfill's scan and the watcher:
 * - `<project>/<sessionId>.jsonl` — a Claude Code main transcript; the session id is the stem
 *   (Claude Code names each file by its session's uuid);
 * - `<…>/<sessionId>/subagents/agent-*.jsonl` — a subagent of `<sessionId>` (layout since 2.0);
 * - any other `agent-*.jsonl` (project level, or in an `agents/` folder) — an older subagent file
 *   whose lines carry the parent's `sessionId`; the parent is resolved from its content;
 * - `rollout-<time>-<uuid>.jsonl` — a Codex CLI rollout (`~/.codex/sessions/YYYY/MM/DD/`); the
 *   session id is the uuid, as Codex itself names the session (`codex resume <uuid>`).
 * - any other `<name>.jsonl` — a main transcript not named by its id: a renamed copy, or another
 *   tool's export (claude-history writes `session.jsonl` beside `agents/agent-*.jsonl`). Its
 *   content names the session (scan-tree.ts, `sessionIdOf`), so the copy joins its subagent files
 *   and two files both called `small.jsonl` do not claim one session; the stem is the fallback.
 * Subagent files attach to their parent session; they never become sessions of their own.
 */
import { basename, dirname } from 'node:path';
import { MAIN_TRANSCRIPT } from '../core/doc-ids.js';

export interface TranscriptPath {
  kind: 'main' | 'subagent';
  /**
   * Known from the layout; null when the lines must say: an old-layout `agent-*.jsonl` (they name
   * the parent) or a main transcript whose name is not a session id.
   */
  sessionId: string | null;
  /** Object name within the session: `transcript.jsonl` or `subagents/<file>`. */
  objectName: string;
}

const AGENT_FILE = /^agent-.*\.jsonl$/;
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const CODEX_ROLLOUT = new RegExp(`^rollout-.+-(${UUID})\\.jsonl$`, 'i');
const SESSION_UUID = new RegExp(`^${UUID}$`, 'i');

/** A session id as Claude Code and Codex make them (a uuid), not a fixture's or a file's name. */
export const isSessionUuid = (id: string): boolean => SESSION_UUID.test(id);

/** The file name without `.jsonl`: a main transcript's session when its content names none. */
export const stemOf = (path: string): string => basename(path).slice(0, -'.jsonl'.length);

/** What a `.jsonl` path is; null for any other file. */
export function classifyTranscriptPath(path: string): TranscriptPath | null {
  const name = basename(path);
  if (!name.endsWith('.jsonl')) return null;
  if (basename(dirname(path)) === 'subagents') {
    return { kind: 'subagent', sessionId: basename(dirname(dirname(path))), objectName: `subagents/${name}` };
  }
  if (AGENT_FILE.test(name)) return { kind: 'subagent', sessionId: null, objectName: `subagents/${name}` };
  const rollout = CODEX_ROLLOUT.exec(name);
  const stem = stemOf(path);
  const sessionId = rollout ? rollout[1]!.toLowerCase() : isSessionUuid(stem) ? stem : null;
  return { kind: 'main', sessionId, objectName: MAIN_TRANSCRIPT };
}
