/**
 * `session_secrets`: each session's count of likely secrets (total and by rule), from its
 * summary's `secrets`, as in the embedded engine (sqlite/views/session-secrets-view.ts). A session
 * whose summary says nothing of secrets has no row.
 */
import type { SessionSecretsRow } from '../../contract.js';
import { secretFields } from '../../views-common/secret-fields.js';
import type { Queryable } from '../postgres-database.js';
import { forEachDoc, pgText, type PostgresView, type ViewBatch } from './postgres-view.js';

const DDL = `
CREATE TABLE IF NOT EXISTS session_secrets (
  session_id text COLLATE "C" PRIMARY KEY,
  total int NOT NULL,
  by_rule jsonb NOT NULL
);
CREATE INDEX IF NOT EXISTS session_secrets_found ON session_secrets (session_id) WHERE total > 0;
`;

async function write(q: Queryable, rows: Array<{ sessionId: string; doc: Record<string, unknown> | null }>) {
  if (rows.length === 0) return;
  const ids = rows.map((r) => pgText(r.sessionId));
  await q.query('DELETE FROM session_secrets WHERE session_id = ANY($1)', [ids]);
  const kept = rows.flatMap((r) => {
    const f = r.doc ? secretFields(r.doc) : null;
    return f ? [{ id: pgText(r.sessionId), ...f }] : [];
  });
  if (kept.length > 0)
    await q.query(
      `INSERT INTO session_secrets (session_id, total, by_rule)
       SELECT * FROM unnest($1::text[], $2::int[], $3::jsonb[])
       ON CONFLICT (session_id) DO UPDATE SET total = excluded.total, by_rule = excluded.by_rule`,
      [kept.map((k) => k.id), kept.map((k) => k.total), kept.map((k) => JSON.stringify(k.byRule))],
    );
}

export class SessionSecretsView implements PostgresView {
  readonly name = 'session_secrets' as const;
  readonly follows = ['summary'];

  async create(q: Queryable): Promise<void> {
    await q.query(DDL);
  }

  async drop(q: Queryable): Promise<void> {
    await q.query('DROP TABLE IF EXISTS session_secrets;');
  }

  async build(q: Queryable): Promise<void> {
    await forEachDoc(q, 'summary', (rows) =>
      write(
        q,
        rows.map((r) => ({ sessionId: r.session_id, doc: JSON.parse(r.body) as Record<string, unknown> })),
      ),
    );
  }

  batch(q: Queryable): ViewBatch {
    // The last word on each session in this transaction: a removal, or the summary written.
    const last = new Map<string, Record<string, unknown> | null>();
    return {
      removing: (prev) => {
        if (prev.type === 'summary') last.set(prev.sessionId, null);
      },
      added: (doc) => {
        if (doc.type === 'summary') last.set(doc.sessionId, doc.doc);
      },
      async flush() {
        const rows = [...last].map(([sessionId, doc]) => ({ sessionId, doc }));
        last.clear();
        await write(q, rows);
      },
    };
  }

  async secrets(q: Queryable, ids: string[]): Promise<Map<string, SessionSecretsRow>> {
    const out = new Map<string, SessionSecretsRow>();
    if (ids.length === 0) return out;
    const { rows } = await q.query<{ session_id: string; total: number; by_rule: Record<string, number> }>(
      'SELECT session_id, total, by_rule FROM session_secrets WHERE session_id = ANY($1)',
      [ids.map((id) => pgText(id))],
    );
    for (const r of rows)
      out.set(r.session_id, { sessionId: r.session_id, total: r.total, byRule: r.by_rule });
    return out;
  }
}
