/**
 * OpenCode's older storage (before its SQLite database): one pretty-printed JSON file per
 * document under `<data>/storage/` — `session/<projectID>/<sessionID>.json`,
 * `message/<sessionID>/<messageID>.json`, `part/<messageID>/<partID>.json`. Ids are taken from
 * the file names, as OpenCode's own json-migration.ts does. A file that cannot be read as a JSON
 * object is kept as an `unreadable` message or part naming the file and the reason, never dropped.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { isRecord } from '../../../core/transcript/content-blocks.js';
import type { OpenCodeMessage, OpenCodeSession } from '../../../core/transcript/opencode-session.js';

export interface OpenCodeSessionRef {
  id: string;
  /** The session info file. */
  file: string;
}

const jsonNames = async (dir: string): Promise<string[]> => {
  try {
    return (await readdir(dir)).filter((n) => n.endsWith('.json')).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
};

/** Every session info file under `storage/session/*\/`. */
export async function listFileSessions(storageDir: string): Promise<OpenCodeSessionRef[]> {
  const out: OpenCodeSessionRef[] = [];
  const sessions = path.join(storageDir, 'session');
  let projects: string[];
  try {
    projects = (await readdir(sessions, { withFileTypes: true }))
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  for (const project of projects.sort()) {
    for (const name of await jsonNames(path.join(sessions, project)))
      out.push({ id: name.slice(0, -'.json'.length), file: path.join(sessions, project, name) });
  }
  return out;
}

/** The JSON object in `file`, or the reason it is not one. */
export async function readJsonObject(file: string): Promise<Record<string, unknown> | string> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    return `cannot read: ${(err as Error).message}`;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return `not JSON (${text.length} characters): ${(err as Error).message}`;
  }
  if (!isRecord(parsed)) return `not a JSON object: ${Array.isArray(parsed) ? 'an array' : typeof parsed}`;
  return parsed;
}

/** One session from the file layout. Throws, naming the file, when its info file is unusable. */
export async function readFileSession(storageDir: string, ref: OpenCodeSessionRef): Promise<OpenCodeSession> {
  const info = await readJsonObject(ref.file);
  if (typeof info === 'string') throw new Error(`OpenCode session ${ref.file}: ${info}`);
  const messages: OpenCodeMessage[] = [];
  const messageDir = path.join(storageDir, 'message', ref.id);
  for (const name of await jsonNames(messageDir)) {
    const id = name.slice(0, -'.json'.length);
    const file = path.join(messageDir, name);
    const read = await readJsonObject(file);
    const messageInfo =
      typeof read === 'string' ? { role: 'unreadable', unreadable: `${file}: ${read}` } : read;
    const parts: Record<string, unknown>[] = [];
    const partDir = path.join(storageDir, 'part', id);
    for (const partName of await jsonNames(partDir)) {
      const partFile = path.join(partDir, partName);
      const part = await readJsonObject(partFile);
      const partId = partName.slice(0, -'.json'.length);
      parts.push(
        typeof part === 'string'
          ? {
              id: partId,
              messageID: id,
              sessionID: ref.id,
              type: 'unreadable',
              unreadable: `${partFile}: ${part}`,
            }
          : { ...part, id: partId, messageID: id, sessionID: ref.id },
      );
    }
    messages.push({ info: { ...messageInfo, id, sessionID: ref.id }, parts });
  }
  return { info: { ...info, id: ref.id }, messages };
}
