/**
 * OpenCode's SQLite database (`<data>/opencode.db`, or `opencode-<channel>.db` for other release
 * channels), where it keeps sessions since it left the JSON files: tables `session` (columns),
 * `message` and `part` (the document as JSON in `data`, without its ids, which are columns).
 * Opened read-only: OpenCode may be writing it (WAL mode) while we read.
 */
import type Database from 'better-sqlite3';
import type { OpenCodeSession } from '../../../core/transcript/opencode-session.js';
import { isRecord } from '../../../core/transcript/content-blocks.js';

export interface OpenCodeDbSession {
  id: string;
  parentId: string | null;
  /** `time_updated`: OpenCode bumps it whenever the session changes. */
  updatedMs: number;
}

interface SessionRow {
  id: string;
  project_id: string;
  parent_id: string | null;
  slug: string | null;
  directory: string;
  title: string;
  version: string;
  time_created: number;
  time_updated: number;
}

/** better-sqlite3 is loaded only when a database is read: the hook and API-only commands reach this module. */
export async function openOpenCodeDb(file: string): Promise<Database.Database> {
  const { default: SqliteDatabase } = await import('better-sqlite3');
  return new SqliteDatabase(file, { readonly: true, fileMustExist: true });
}

export function listDbSessions(db: Database.Database): OpenCodeDbSession[] {
  const rows = db.prepare('SELECT id, parent_id, time_updated FROM session ORDER BY id').all() as Array<
    Pick<SessionRow, 'id' | 'parent_id' | 'time_updated'>
  >;
  return rows.map((r) => ({ id: r.id, parentId: r.parent_id, updatedMs: r.time_updated }));
}

/** A JSON column's document, or an `unreadable` stand-in naming the row and the reason. */
function data(table: string, id: string, text: unknown): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(String(text));
    if (isRecord(parsed)) return parsed;
    return { unreadable: `${table} ${id}: data is not a JSON object` };
  } catch (err) {
    return { unreadable: `${table} ${id}: data is not JSON: ${(err as Error).message}` };
  }
}

export function readDbSession(db: Database.Database, id: string): OpenCodeSession | null {
  const s = db
    .prepare(
      'SELECT id, project_id, parent_id, slug, directory, title, version, time_created, time_updated FROM session WHERE id = ?',
    )
    .get(id) as SessionRow | undefined;
  if (!s) return null;
  const info: Record<string, unknown> = {
    id: s.id,
    projectID: s.project_id,
    ...(s.parent_id ? { parentID: s.parent_id } : {}),
    slug: s.slug,
    directory: s.directory,
    title: s.title,
    version: s.version,
    time: { created: s.time_created, updated: s.time_updated },
  };
  const messageRows = db
    .prepare('SELECT id, data FROM message WHERE session_id = ? ORDER BY id')
    .all(id) as Array<{
    id: string;
    data: string;
  }>;
  const partRows = db
    .prepare('SELECT id, message_id, data FROM part WHERE session_id = ? ORDER BY message_id, id')
    .all(id) as Array<{ id: string; message_id: string; data: string }>;
  const parts = new Map<string, Record<string, unknown>[]>();
  for (const row of partRows) {
    const doc = data('part', row.id, row.data);
    const part = doc.unreadable ? { type: 'unreadable', ...doc } : doc;
    const list = parts.get(row.message_id) ?? [];
    list.push({ ...part, id: row.id, messageID: row.message_id, sessionID: id });
    parts.set(row.message_id, list);
  }
  const messages = messageRows.map((row) => {
    const doc = data('message', row.id, row.data);
    const message = doc.unreadable ? { role: 'unreadable', ...doc } : doc;
    return { info: { ...message, id: row.id, sessionID: id }, parts: parts.get(row.id) ?? [] };
  });
  return { info, messages };
}
