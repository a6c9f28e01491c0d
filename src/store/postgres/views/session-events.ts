/**
 * A session's hook events in time order, without a view: event ids are
 * `event:<sessionId>:<timestamp>:<hash>`, so a key-range scan of the docs table is already in
 * time order. Event documents are small; their fields are read from the parsed body.
 */
import { docIds } from '../../../core/doc-ids.js';
import type { EventRow } from '../../contract.js';
import { readQuery, type Queryable } from '../postgres-database.js';

const RANGE = 'FROM docs WHERE session_id = $1 AND id >= $2 AND id < $3 AND NOT deleted';

export async function sessionEvents(
  q: Queryable,
  sessionId: string,
  limit: number,
  offset: number,
): Promise<{ total: number; events: EventRow[] }> {
  if (sessionId.includes('\u0000')) return { total: 0, events: [] }; // no stored id holds one
  // ':' + 1 is ';': the range holds exactly the ids that start with the prefix.
  const prefix = docIds.event(sessionId, '', '').slice(0, -1); // `event:<sessionId>:`
  const range = [sessionId, prefix, prefix.slice(0, -1) + ';'];
  const count = await readQuery<{ n: string }>(q, `SELECT count(*) AS n ${RANGE}`, range);
  const { rows } = await readQuery<{ id: string; body: string }>(
    q,
    `SELECT id, body ${RANGE} ORDER BY id LIMIT $4 OFFSET $5`,
    [...range, limit, offset],
  );
  return {
    total: Number(count.rows[0]!.n),
    events: rows.map((r) => {
      const e = JSON.parse(r.body) as Record<string, unknown>;
      return {
        id: r.id,
        event: typeof e.event === 'string' ? e.event : '',
        timestamp: typeof e.timestamp === 'string' ? e.timestamp : '',
        reconstructed: e.reconstructed === true,
        ...(typeof e.toolName === 'string' ? { toolName: e.toolName } : {}),
        ...(typeof e.success === 'boolean' ? { success: e.success } : {}),
      };
    }),
  };
}
