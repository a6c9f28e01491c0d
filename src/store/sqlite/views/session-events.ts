/**
 * A session's hook events in time order, without a view: event ids are
 * `event:<sessionId>:<timestamp>:<hash>`, so a key-range scan of the docs table is already in
 * time order. Fields come from SQL JSON extraction, so large `data` payloads are never parsed.
 */
import { docIds } from '../../../core/doc-ids.js';
import type { EventRow } from '../../contract.js';
import type { SqliteDatabase } from '../sqlite-database.js';
import { LazyStatements } from './sqlite-view.js';

const RANGE = `FROM docs WHERE session_id = @sessionId AND id >= @lo AND id < @hi AND deleted = 0`;

const SQL = {
  count: `SELECT count(*) AS n ${RANGE}`,
  page: `SELECT id, json_extract(body, '$.event') AS event, json_extract(body, '$.timestamp') AS timestamp,
      json_type(body, '$.reconstructed') AS reconstructed, json_extract(body, '$.toolName') AS tool_name,
      json_type(body, '$.success') AS success
    ${RANGE} ORDER BY id LIMIT @limit OFFSET @offset`,
};

interface EventDbRow {
  id: string;
  event: unknown;
  timestamp: unknown;
  reconstructed: string | null;
  tool_name: unknown;
  success: string | null;
}

export class SessionEvents {
  readonly #sql: LazyStatements<keyof typeof SQL>;

  constructor(db: SqliteDatabase) {
    this.#sql = new LazyStatements(db, SQL);
  }

  page(sessionId: string, limit: number, offset: number): { total: number; events: EventRow[] } {
    // ':' + 1 is ';': the range holds exactly the ids that start with the prefix.
    const prefix = docIds.event(sessionId, '', '').slice(0, -1); // `event:<sessionId>:`
    const range = { sessionId, lo: prefix, hi: prefix.slice(0, -1) + ';' };
    const { n: total } = this.#sql.s.count.get(range) as { n: number };
    const rows = this.#sql.s.page.all({ ...range, limit, offset }) as EventDbRow[];
    return {
      total,
      events: rows.map((r) => ({
        id: r.id,
        event: typeof r.event === 'string' ? r.event : '',
        timestamp: typeof r.timestamp === 'string' ? r.timestamp : '',
        reconstructed: r.reconstructed === 'true',
        ...(typeof r.tool_name === 'string' ? { toolName: r.tool_name } : {}),
        ...(r.success === 'true' || r.success === 'false' ? { success: r.success === 'true' } : {}),
      })),
    };
  }
}
