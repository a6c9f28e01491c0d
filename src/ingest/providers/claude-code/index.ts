/**
 * Claude Code: `~/.claude/projects/<encoded cwd>/<sessionId>.jsonl`, one JSONL line appended per
 * record, lines projected by `core/transcript/project-entry.ts`. What a file is, from its path:
 * - `<project>/<sessionId>.jsonl` — a main transcript; the session id is the stem (Claude Code
 *   names each file by its session's uuid);
 * - `<…>/<sessionId>/subagents/agent-*.jsonl` — a subagent of `<sessionId>` (layout since 2.0);
 * - any other `agent-*.jsonl` (project level, or in an `agents/` folder) — an older subagent file
 *   whose lines carry the parent's `sessionId`; the parent is resolved from its content;
 * - any other `<name>.jsonl` — a main transcript not named by its id: a renamed copy, or another
 *   tool's export (claude-history writes `session.jsonl` beside `agents/agent-*.jsonl`). Its
 *   content names the session, so the copy joins its subagent files and two files both called
 *   `small.jsonl` do not claim one session; the stem is the fallback. This is also the catch-all
 *   for `.jsonl` files of other agents' formats under a tree given to backfill: a Codex rollout
 *   renamed is still told by its lines (`identify`, and the projection of each line).
 * Subagent files attach to their parent session; they never become sessions of their own.
 */
import { basename, dirname, join } from 'node:path';
import { homeDir } from '../../../config/paths.js';
import { MAIN_TRANSCRIPT } from '../../../core/doc-ids.js';
import type { AppendOnlyProvider, FileIdentity, TranscriptPath } from '../provider.js';
import { isSessionUuid, peekRecords, stemOf } from '../peek.js';

const AGENT_FILE = /^agent-.*\.jsonl$/;

export const claudeCode: AppendOnlyProvider = {
  id: 'claude-code',
  name: 'Claude Code',
  settings: ['HOME'],
  storage: 'append-only',
  // The same place on every platform: `%USERPROFILE%\.claude\projects` on Windows.
  defaultRoots: (env) => [join(homeDir(env), '.claude', 'projects')],

  classify(path: string): TranscriptPath | null {
    const name = basename(path);
    if (!name.endsWith('.jsonl')) return null;
    const agent = 'claude-code';
    if (basename(dirname(path)) === 'subagents') {
      const sessionId = basename(dirname(dirname(path)));
      return { kind: 'subagent', sessionId, objectName: `subagents/${name}`, agent };
    }
    if (AGENT_FILE.test(name))
      return { kind: 'subagent', sessionId: null, objectName: `subagents/${name}`, agent };
    const stem = stemOf(path);
    return { kind: 'main', sessionId: isSessionUuid(stem) ? stem : null, objectName: MAIN_TRANSCRIPT, agent };
  },

  /**
   * An older subagent file: the `sessionId` its first lines carry. A main transcript not named by
   * its id: a Codex rollout's first `session_meta` id (then the file is Codex's), else the uuid
   * `sessionId` of the last line that has one (the session writing the file: lines copied from an
   * earlier session come first), else the file's stem.
   */
  async identify(file: string, kind: TranscriptPath): Promise<FileIdentity | null> {
    if (kind.sessionId !== null) return { sessionId: kind.sessionId, agent: kind.agent };
    const { head, tail } = await peekRecords(file);
    if (kind.kind === 'subagent') {
      for (const rec of head) {
        const id = rec.sessionId;
        if (typeof id === 'string' && id) return { sessionId: id, agent: 'claude-code' };
      }
      return null;
    }
    for (const rec of head) {
      const meta =
        rec.type === 'session_meta' ? (rec.payload as Record<string, unknown> | undefined) : undefined;
      if (typeof meta?.id === 'string' && isSessionUuid(meta.id))
        return { sessionId: meta.id.toLowerCase(), agent: 'codex' };
    }
    for (const recs of [tail, head]) {
      for (let i = recs.length - 1; i >= 0; i--) {
        const id = recs[i]!.sessionId;
        if (typeof id === 'string' && isSessionUuid(id))
          return { sessionId: id.toLowerCase(), agent: 'claude-code' };
      }
    }
    return { sessionId: stemOf(file), agent: 'claude-code' };
  },
};
