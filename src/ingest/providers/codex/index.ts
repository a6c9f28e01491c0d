/**
 * Codex CLI: `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl` (CODEX_HOME defaults
 * to `~/.codex`), one JSONL line appended per record; lines projected by
 * `core/transcript/codex-record.ts` (told from Claude Code's by their record types). The session
 * id is the uuid, as Codex itself names the session (`codex resume <uuid>`).
 */
import { basename } from 'node:path';
import { codexSessionsDir } from '../../../config/paths.js';
import { MAIN_TRANSCRIPT } from '../../../core/doc-ids.js';
import type { AppendOnlyProvider, TranscriptPath } from '../provider.js';
import { UUID_PATTERN } from '../peek.js';

const ROLLOUT = new RegExp(`^rollout-.+-(${UUID_PATTERN})\\.jsonl$`, 'i');

export const codex: AppendOnlyProvider = {
  id: 'codex',
  name: 'Codex CLI',
  settings: ['CODEX_HOME', 'HOME'],
  storage: 'append-only',
  defaultRoots: (env) => [codexSessionsDir(env)],

  classify(path: string): TranscriptPath | null {
    const rollout = ROLLOUT.exec(basename(path));
    if (!rollout) return null;
    return {
      kind: 'main',
      sessionId: rollout[1]!.toLowerCase(),
      objectName: MAIN_TRANSCRIPT,
      agent: 'codex',
    };
  },

  // A rollout's name always carries its id.
  identify: async (_path, kind) => (kind.sessionId ? { sessionId: kind.sessionId, agent: 'codex' } : null),
};
