/**
 * Gemini CLI: `~/.gemini/tmp/<project>/chats/` (`GEMINI_CLI_HOME` replaces the home directory),
 * where `<project>` is a sha256 of the project's path (up to 0.28) or a short name whose
 * `.project_root` file holds the path (since). Per session:
 * - `chats/session-<YYYY-MM-DDTHH-MM>-<first 8 of the id>.json` (up to 0.37, rewritten whole)
 *   or `.jsonl` (since; a resumed `.json` session is copied into a `.jsonl` beside it, which is
 *   then the one written, so it outranks the `.json`);
 * - `chats/<session id>/<subagent id>.json[l]`: its subagents (`kind: "subagent"`).
 * The file name holds only 8 characters of the id: the content names the session. Both formats
 * are read whole (`gemini-records.ts`): see test/fixtures/gemini/README.md.
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { envValue, homeDir } from '../../../config/paths.js';
import { MAIN_TRANSCRIPT } from '../../../core/doc-ids.js';
import type { FileIdentity, ProjectedRecord, RewrittenProvider, TranscriptPath } from '../provider.js';
import { peekHead, stemOf } from '../peek.js';
import { projectConversation, readJson, readJsonl } from './gemini-records.js';

const MAIN_FILE = /^session-.+\.jsonl?$/;
const SESSION_FILE = /\.jsonl?$/;
const SESSION_ID = /"sessionId"\s*:\s*"([^"\\]{1,512})"/;

/** The project's folder under `tmp/`, for a session file at `path` of `kind`. */
const projectDir = (path: string, kind: TranscriptPath) =>
  kind.kind === 'main' ? dirname(dirname(path)) : dirname(dirname(dirname(path)));

export const gemini: RewrittenProvider = {
  id: 'gemini',
  name: 'Gemini CLI',
  settings: ['GEMINI_CLI_HOME', 'HOME'],
  storage: 'rewritten',
  // Gemini CLI keeps `~/.gemini` on every platform (`%USERPROFILE%\.gemini` on Windows).
  defaultRoots: (env) => [join(envValue(env, 'GEMINI_CLI_HOME') ?? homeDir(env), '.gemini', 'tmp')],

  classify(path: string): TranscriptPath | null {
    const name = basename(path);
    if (!SESSION_FILE.test(name)) return null;
    const rank = name.endsWith('.jsonl') ? 1 : 0;
    const parent = dirname(path);
    if (basename(parent) === 'chats') {
      if (!MAIN_FILE.test(name)) return null;
      return { kind: 'main', sessionId: null, objectName: MAIN_TRANSCRIPT, agent: 'gemini', rank };
    }
    if (basename(dirname(parent)) === 'chats') {
      // Stored as `.jsonl` whichever format, so a subagent written both ways is one object.
      const objectName = `subagents/${stemOf(path)}.jsonl`;
      return { kind: 'subagent', sessionId: basename(parent), objectName, agent: 'gemini', rank };
    }
    return null;
  },

  /** The `sessionId` of the header (the first line, or the JSON object's first member). */
  async identify(path: string, kind: TranscriptPath): Promise<FileIdentity | null> {
    if (kind.sessionId !== null) return { sessionId: kind.sessionId, agent: 'gemini' };
    const id = SESSION_ID.exec(await peekHead(path))?.[1];
    return id ? { sessionId: id, agent: 'gemini' } : null;
  },

  projectFile(bytes, file) {
    const conversation = file.path.endsWith('.json')
      ? readJson(bytes, file.settled)
      : readJsonl(bytes, file.settled);
    if (conversation === null) return null;
    return projectConversation(conversation).map((entry): ProjectedRecord => ({
      entry,
      record: entry.malformed ? null : {},
    }));
  },

  /** The project's root, which Gemini CLI keeps beside its sessions (since 0.29). */
  async sessionMeta(path, kind) {
    const root = await readFile(join(projectDir(path, kind), '.project_root'), 'utf8').catch(() => '');
    return root.trim() ? { cwd: root.trim() } : {};
  },
};
