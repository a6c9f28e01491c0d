/**
 * The session context of results drawn from many sessions (search hits, turns across sessions):
 * read for the distinct sessions among them in one query. None while the session list is not
 * materialised: the results stand on their own.
 */
import { ViewMissingError, type Views } from '../store/contract.js';
import type { SessionContext } from './schemas/sessions.js';

export async function sessionContexts(
  views: Views,
  sessionIds: Iterable<string>,
): Promise<Map<string, SessionContext>> {
  const rows = await views.getSessions([...new Set(sessionIds)]).catch((err: unknown) => {
    if (err instanceof ViewMissingError) return [];
    throw err;
  });
  return new Map(
    rows.map((row) => [
      row.summary.sessionId,
      { title: row.summary.title, project: row.summary.project, lastActivity: row.lastActivity },
    ]),
  );
}
