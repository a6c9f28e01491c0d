/**
 * OpenCode: `$XDG_DATA_HOME/opencode` (`~/.local/share/opencode` on every platform: OpenCode
 * takes it from xdg-basedir, which falls back to it on macOS and Windows too). Sessions are a
 * store shared by all of them, read whole by the store (`storage: 'store'`):
 * - `storage/session/<projectID>/<sessionID>.json`, `storage/message/<sessionID>/<messageID>.json`,
 *   `storage/part/<messageID>/<partID>.json`: one small JSON file per document (older versions;
 *   read-files.ts);
 * - `opencode.db` (`opencode-<channel>.db`): the same documents as rows (since; read-db.ts).
 * A session is stored as the JSONL lines opencode-session.ts makes of it; a child session (a
 * `task` tool's subagent) as `subagents/agent-<childID>.jsonl` of its root session, as Claude
 * Code's subagent files are. Format facts: test/fixtures/opencode/README.md.
 */
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { envValue, homeDir } from '../../../config/paths.js';
import { MAIN_TRANSCRIPT } from '../../../core/doc-ids.js';
import { projectLine } from '../../../core/transcript/project-entry.js';
import {
  emptyOpenCodeCursor,
  openCodeLines,
  type OpenCodeSession,
} from '../../../core/transcript/opencode-session.js';
import type { ProjectedRecord, StoreProvider, StoreSession, TranscriptPath } from '../provider.js';
import { listDbSessions, openOpenCodeDb, readDbSession } from './read-db.js';
import { listFileSessions, readFileSession, readJsonObject } from './read-files.js';

const DB_FILE = /^opencode(-[\w.-]+)?\.db(-wal)?$/;
const DOCUMENT_FOLDERS = new Set(['session', 'message', 'part']);
/** Folders beside `storage/` that hold no sessions: snapshots are whole git object stores. */
const NOT_SESSIONS = new Set(['snapshot', 'bin', 'log', 'tool-output']);

/** A session's id and parent, as the store lists them. */
interface Listed {
  id: string;
  parentId: string | null;
  /** Where it is read from (the info file, or the database), for messages. */
  file: string;
}

/** How one store is read: its sessions' ids and parents, then each session whole. */
interface StoreReader {
  list(): Promise<Array<Listed | { id: string; file: string; error: string }>>;
  read(s: Listed): Promise<OpenCodeSession>;
  close(): void;
}

async function fileReader(storage: string): Promise<StoreReader> {
  return {
    async list() {
      const out = [];
      for (const ref of await listFileSessions(storage)) {
        const info = await readJsonObject(ref.file);
        if (typeof info === 'string') out.push({ id: ref.id, file: ref.file, error: info });
        else
          out.push({
            id: ref.id,
            parentId: typeof info.parentID === 'string' ? info.parentID : null,
            file: ref.file,
          });
      }
      return out;
    },
    read: (s) => readFileSession(storage, { id: s.id, file: s.file }),
    close: () => undefined,
  };
}

async function dbReader(file: string): Promise<StoreReader> {
  const db = await openOpenCodeDb(file);
  return {
    list: () => Promise.resolve(listDbSessions(db).map((s) => ({ id: s.id, parentId: s.parentId, file }))),
    async read(s) {
      const session = readDbSession(db, s.id);
      if (!session) throw new Error(`OpenCode session ${s.id} is no longer in ${file}`);
      return session;
    },
    close: () => db.close(),
  };
}

const jsonl = (lines: string[]) => Buffer.from(lines.map((l) => `${l}\n`).join(''));

/**
 * Every root session of the store, with its descendants (children of children too) as its
 * subagents. A child whose root is not in the store is a session of its own.
 */
async function* readStore(store: string, changed?: readonly string[]): AsyncIterable<StoreSession> {
  const isFolder = (await stat(store)).isDirectory();
  const touched = isFolder && changed ? await sessionsOf(store, changed) : null;
  const reader = isFolder ? await fileReader(store) : await dbReader(store);
  try {
    const listed = await reader.list();
    const byId = new Map<string, Listed>();
    const unreadable = new Set<string>();
    for (const s of listed) {
      if ('error' in s) {
        unreadable.add(s.id);
        yield { sessionId: s.id, file: s.file, error: `OpenCode session ${s.file}: ${s.error}` };
      } else byId.set(s.id, s);
    }
    /** The root session `s` is stored under; null under an unreadable one (read once it is fixed). */
    const rootOf = (s: Listed): string | null => {
      const seen = new Set([s.id]);
      let at = s;
      for (;;) {
        const parent = at.parentId;
        if (parent !== null && unreadable.has(parent)) return null;
        const up = parent === null ? undefined : byId.get(parent);
        if (!up || seen.has(up.id)) return at.id;
        seen.add(up.id);
        at = up;
      }
    };
    const children = new Map<string, Listed[]>();
    for (const s of byId.values()) {
      const root = rootOf(s);
      if (root !== null && root !== s.id) children.set(root, [...(children.get(root) ?? []), s]);
    }
    for (const s of byId.values()) {
      if (rootOf(s) !== s.id) continue;
      const family = [s, ...(children.get(s.id) ?? [])];
      if (touched && !family.some((f) => touched.has(f.id))) continue;
      let objects;
      try {
        objects = [
          {
            objectName: MAIN_TRANSCRIPT,
            bytes: jsonl(openCodeLines(await reader.read(s), emptyOpenCodeCursor()).lines),
          },
        ];
        for (const c of (children.get(s.id) ?? []).sort((a, b) => (a.id < b.id ? -1 : 1))) {
          const lines = openCodeLines(await reader.read(c), emptyOpenCodeCursor(), { agentId: c.id }).lines;
          objects.push({ objectName: `subagents/agent-${c.id}.jsonl`, bytes: jsonl(lines) });
        }
      } catch (err) {
        yield { sessionId: s.id, file: s.file, error: (err as Error).message };
        continue;
      }
      yield { sessionId: s.id, objects };
    }
  } finally {
    reader.close();
  }
}

/**
 * The sessions whose documents are among `changed` files of the `storage/` folder: the path names
 * the session of a session or message file, the message of a part file (its session is the
 * folder that holds that message). Null when a file is not one of those (read every session).
 */
async function sessionsOf(storage: string, changed: readonly string[]): Promise<Set<string> | null> {
  const out = new Set<string>();
  const parts = new Set<string>();
  for (const file of changed) {
    const [folder, owner, name] = relative(storage, file).split(sep);
    if (folder === 'session' && name) out.add(name.replace(/\.json$/, ''));
    else if (folder === 'message' && owner) out.add(owner);
    else if (folder === 'part' && owner) parts.add(owner);
    else return null;
  }
  if (parts.size === 0) return out;
  const messages = join(storage, 'message');
  for (const session of await readdir(messages).catch(() => [])) {
    const names = await readdir(join(messages, session)).catch(() => []);
    if (names.some((n) => parts.has(n.replace(/\.json$/, '')))) out.add(session);
  }
  return out;
}

export const opencode: StoreProvider = {
  id: 'opencode',
  name: 'OpenCode',
  settings: ['XDG_DATA_HOME', 'HOME'],
  storage: 'store',
  defaultRoots: (env) => [
    join(envValue(env, 'XDG_DATA_HOME') ?? join(homeDir(env), '.local', 'share'), 'opencode'),
  ],

  classify(path: string): TranscriptPath | null {
    const name = basename(path);
    const main = { kind: 'main', sessionId: null, objectName: MAIN_TRANSCRIPT, agent: 'opencode' } as const;
    if (DB_FILE.test(name)) return { ...main, store: path.replace(/-wal$/, '') };
    if (!name.endsWith('.json')) return null;
    const storage = dirname(dirname(dirname(path)));
    if (basename(storage) !== 'storage' || !DOCUMENT_FOLDERS.has(basename(dirname(dirname(path)))))
      return null;
    return { ...main, store: storage };
  },

  // Its files are read by the store, never one by one.
  identify: () => Promise.resolve(null),

  skipFolder: (path) => NOT_SESSIONS.has(basename(path)) && basename(dirname(path)) === 'opencode',

  readStore,

  projectFile(bytes) {
    const out: ProjectedRecord[] = [];
    let at = 0;
    let index = 0;
    while (at < bytes.length) {
      const nl = bytes.indexOf(0x0a, at);
      const end = nl === -1 ? bytes.length : nl;
      const { entry, record } = projectLine(bytes.subarray(at, end), {
        index: index++,
        byteStart: at,
        byteEnd: end,
      });
      out.push({ entry, record });
      at = end + 1;
    }
    return out;
  },
};
