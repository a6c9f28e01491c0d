/**
 * Where Claude Code keeps a session's files, so `transcripts restore` puts them back where
 * `claude --resume` finds them:
 * - `<projects>/<encoded cwd>/<sessionId>.jsonl` — the main transcript;
 * - `<projects>/<encoded cwd>/<sessionId>/subagents/agent-*.jsonl` — its subagents (the layout
 *   since Claude Code 2.0; older versions kept `agent-*.jsonl` beside the main file, and read the
 *   new layout too).
 * The directory name is the working directory with every character other than an ASCII letter or
 * digit turned into `-` (`/Users/mock_user/chat-ui` → `-Users-mock-user-chat-ui`), as the corpus's
 * real trees show (claude-layout.test.ts checks each against the cwd its lines record).
 */
import { join } from 'node:path';
import { MAIN_TRANSCRIPT } from './doc-ids.js';

/** Claude Code's directory name for a working directory. */
export function encodeProjectDir(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-');
}

/** One stored object of a session and the file it goes back to. */
export interface LayoutFile {
  objectName: string;
  path: string;
}

const SUBAGENT = /^subagents\/([^/]+\.jsonl)$/;

/**
 * The files of session `id` (in `cwd`) for its stored objects, under `projectsDir`. Objects that
 * are neither the main transcript nor a subagent file are left out (they have no place there).
 */
export function layoutFiles(
  session: { id: string; cwd: string },
  objectNames: readonly string[],
  projectsDir: string,
): LayoutFile[] {
  const dir = join(projectsDir, encodeProjectDir(session.cwd));
  const files: LayoutFile[] = [];
  for (const objectName of objectNames) {
    if (objectName === MAIN_TRANSCRIPT) files.push({ objectName, path: join(dir, `${session.id}.jsonl`) });
    const sub = SUBAGENT.exec(objectName);
    if (sub) files.push({ objectName, path: join(dir, session.id, 'subagents', sub[1]!) });
  }
  return files;
}
