/**
 * An OpenCode database (its session, message and part tables, as session.sql.ts declares them)
 * filled from a `storage/` folder of JSON files, the way OpenCode's json-migration.ts fills it.
 */
import Database from 'better-sqlite3';
import { listFileSessions, readFileSession } from '../../src/ingest/providers/opencode/read-files.js';

/** Writes `file`: a database of the sessions under `storage`. */
export async function databaseFromFiles(storage: string, file: string): Promise<void> {
  const db = new Database(file);
  db.exec(`
    CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, parent_id TEXT, slug TEXT NOT NULL,
      directory TEXT NOT NULL, title TEXT NOT NULL, version TEXT NOT NULL, time_created INTEGER NOT NULL,
      time_updated INTEGER NOT NULL);
    CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL,
      time_updated INTEGER NOT NULL, data TEXT NOT NULL);
    CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL,
      time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);`);
  for (const ref of await listFileSessions(storage)) {
    const s = await readFileSession(storage, ref);
    const i = s.info as {
      id: string;
      projectID: string;
      parentID?: string;
      slug: string;
      directory: string;
      title: string;
      version: string;
      time: { created: number; updated: number };
    };
    db.prepare('INSERT INTO session VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)').run(
      i.id,
      i.projectID,
      i.parentID ?? null,
      i.slug,
      i.directory,
      i.title,
      i.version,
      i.time.created,
      i.time.updated,
    );
    for (const m of s.messages) {
      const { id, sessionID: _s, ...data } = m.info as { id: string; sessionID: string };
      db.prepare('INSERT INTO message VALUES (?, ?, 0, 0, ?)').run(id, i.id, JSON.stringify(data));
      for (const p of m.parts) {
        const {
          id: pid,
          messageID: _m,
          sessionID: _ps,
          ...pdata
        } = p as { id: string; messageID: string; sessionID: string };
        db.prepare('INSERT INTO part VALUES (?, ?, ?, 0, 0, ?)').run(pid, id, i.id, JSON.stringify(pdata));
      }
    }
  }
  db.close();
}
