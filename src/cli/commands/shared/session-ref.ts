/**
 * A session id or a unique prefix of one, as typed on the command line, turned into the full id.
 * Browsing commands ask the session list (`idPrefix`); export asks the document read route, which
 * answers even while view migrations are pending. Either way an ambiguous prefix is refused with
 * the candidates named, never resolved to a guess.
 */
import type { ApiClient } from '../../../client/api-client.js';
import { ApiError } from '../../../client/api-error.js';
import { docRows } from '../../../client/bundle-client.js';
import { parseEventId } from '../../../core/doc-ids.js';
import { sessionIdProblem } from '../../../core/object-key.js';
import { UsageError } from '../../errors.js';

/** No session, or more than one, matches a reference: exit 1 with the message. */
export class SessionRefError extends Error {
  override name = 'SessionRefError';
}

const SHOW = 5;

function checkRef(ref: string): void {
  const problem = sessionIdProblem(ref);
  if (problem) throw new UsageError(`"${ref}" is not a session id or prefix: ${problem}`);
}

function decide(ref: string, candidates: string[], more: boolean): string {
  if (candidates.includes(ref)) return ref;
  if (candidates.length === 1 && !more) return candidates[0]!;
  if (candidates.length === 0) throw new SessionRefError(`no session matches "${ref}"`);
  const list = candidates.slice(0, SHOW).join(', ');
  const rest = more || candidates.length > SHOW ? ', …' : '';
  throw new SessionRefError(`"${ref}" matches several sessions (${list}${rest}); type more of the id`);
}

/** Through the session list (needs the session views). */
export async function resolveSessionId(client: ApiClient, ref: string): Promise<string> {
  checkRef(ref);
  try {
    return (await client.session(ref)).id;
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 404) throw err;
  }
  const page = await client.listSessions({ idPrefix: ref, limit: SHOW + 1 });
  return decide(
    ref,
    page.sessions.map((s) => s.id),
    page.total > SHOW + 1,
  );
}

/** Through the document read route (summaries, then event ids for sessions without a summary). */
export async function resolveStoredSessionId(client: ApiClient, ref: string): Promise<string> {
  checkRef(ref);
  if (await client.getDoc(`summary:${ref}`)) return ref;
  const found = new Set<string>();
  for await (const row of docRows(client, { startkey: `summary:${ref}`, endkey: `summary:${ref}\uffff` })) {
    found.add(row.id.slice('summary:'.length));
    if (found.size > SHOW) break;
  }
  if (found.size === 0) {
    let seen = 0;
    for await (const row of docRows(client, { startkey: `event:${ref}`, endkey: `event:${ref}\uffff` })) {
      const e = parseEventId(row.id);
      if (e) found.add(e.sessionId);
      if (found.size > SHOW || ++seen > 10_000) break;
    }
  }
  return decide(ref, [...found].sort(), found.size > SHOW);
}
