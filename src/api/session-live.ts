/**
 * What a session's detail adds about live recording: the reconciliation of hook events against
 * the transcript (core/reconciliation.ts) and the "kept after deletion" mark. Read from the event
 * documents (one id range), the ingest cursor's pending tool uses and the mark — no transcript
 * chunk is read, so this stays cheap for long sessions.
 */
import { reconcile, type ReconcileEvent, type Reconciliation } from '../core/reconciliation.js';
import { sourceDeletionId, type SourceDeletion } from '../core/source-deletion.js';
import { cursorId, type SessionCursor } from '../ingest/ingest-session.js';
import type { SessionRow, Store } from '../store/contract.js';

const PAGE = 2000;

async function eventsOf(store: Store, sessionId: string): Promise<ReconcileEvent[]> {
  const out: ReconcileEvent[] = [];
  const endkey = `event:${sessionId}:\uffff`;
  let startkey = `event:${sessionId}:`;
  let skip = 0;
  for (;;) {
    const page = await store.docs.allDocs({ startkey, endkey, limit: PAGE, skip, includeDocs: true });
    for (const row of page.rows) {
      const d = row.doc as Record<string, unknown> | undefined;
      if (!d || typeof d.timestamp !== 'string' || typeof d.event !== 'string') continue;
      out.push({
        id: row.id,
        event: d.event,
        timestamp: d.timestamp,
        reconstructed: d.reconstructed === true,
        ...(typeof d.toolUseId === 'string' ? { toolUseId: d.toolUseId } : {}),
        ...(typeof d.toolName === 'string' ? { toolName: d.toolName } : {}),
      });
    }
    if (page.rows.length < PAGE) return out;
    startkey = page.rows[page.rows.length - 1]!.id;
    skip = 1;
  }
}

export async function sessionReconciliation(store: Store, row: SessionRow): Promise<Reconciliation> {
  const sessionId = row.summary.sessionId;
  const facts = { transcriptLastAt: row.summary.lastActivity, ended: row.endedAt !== null };
  // No hook event was ever recorded (a backfilled session): nothing to compare, which the row
  // already says, so its events (thousands, for a long session) are not read.
  if (!row.hookRecorded) return reconcile({ events: [], pendingToolUses: [], ...facts });
  const [events, cursor] = await Promise.all([
    eventsOf(store, sessionId),
    // The ingest cursor keeps the tool uses still waiting for their result.
    store.docs.getLocal<SessionCursor>(cursorId(sessionId)),
  ]);
  return reconcile({ events, pendingToolUses: cursor?.state?.pendingTools ?? [], ...facts });
}

export async function sourceDeletion(store: Store, sessionId: string): Promise<SourceDeletion | null> {
  const mark = await store.docs.getLocal<SourceDeletion>(sourceDeletionId(sessionId));
  return mark?.v === 1 ? mark : null;
}
