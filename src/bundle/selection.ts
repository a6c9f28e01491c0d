/**
 * Which sessions an export takes. `--since T` takes whole sessions active at or after T: a session's
 * last activity is the later of its summary's `lastActivity` and its newest event, and event ids
 * carry their timestamp (`event:<sessionId>:<timestamp>:<hash>`), so the ids alone suffice for
 * events. A session is always taken whole — a bundle never holds half a session.
 */
import { parseEventId } from '../core/doc-ids.js';

/** Tracks the latest activity per session from summaries and event ids. */
export class SessionActivity {
  readonly #last = new Map<string, number>();

  #note(sessionId: string, iso: unknown): void {
    const t = typeof iso === 'string' ? Date.parse(iso) : NaN;
    const prev = this.#last.get(sessionId);
    if (prev === undefined) this.#last.set(sessionId, Number.isNaN(t) ? -Infinity : t);
    else if (!Number.isNaN(t) && t > prev) this.#last.set(sessionId, t);
  }

  noteSummary(doc: { sessionId: string; lastActivity?: unknown }): void {
    this.#note(doc.sessionId, doc.lastActivity);
  }

  noteEventId(id: string): void {
    const e = parseEventId(id);
    if (e) this.#note(e.sessionId, e.timestamp);
  }

  /** Sessions whose last activity is at or after `since` (ms), sorted. */
  activeSince(since: number): string[] {
    return [...this.#last]
      .filter(([, t]) => t >= since)
      .map(([id]) => id)
      .sort();
  }
}

/** Id ranges (inclusive, for `_all_docs` startkey/endkey) holding every document of one session. */
export function sessionDocRanges(sessionId: string): Array<{ startkey: string; endkey: string }> {
  const HIGH = '\uffff';
  // In id order: annotation < chunk < event < summary < tombstone.
  return [
    { startkey: `annotation:${sessionId}`, endkey: `annotation:${sessionId}` },
    { startkey: `chunk:${sessionId}:`, endkey: `chunk:${sessionId}:${HIGH}` },
    { startkey: `event:${sessionId}:`, endkey: `event:${sessionId}:${HIGH}` },
    { startkey: `summary:${sessionId}`, endkey: `summary:${sessionId}` },
    { startkey: `tombstone:${sessionId}`, endkey: `tombstone:${sessionId}` },
  ];
}
