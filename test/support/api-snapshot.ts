/**
 * A comparable picture of an instance taken through its HTTP API only (the store is owned by a
 * running server): every document except design documents, revision marker removed, as canonical
 * JSON; every object's sha256. Two instances holding the same history have equal snapshots.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../src/core/revision.js';

export interface ApiSnapshot {
  docs: Map<string, string>;
  objects: Map<string, string>;
}

export async function snapshotApi(baseUrl: string): Promise<ApiSnapshot> {
  const docs = new Map<string, string>();
  const sessions = new Set<string>();
  let startkey: string | undefined;
  for (;;) {
    const q = new URLSearchParams({ limit: '200', include_docs: 'true' });
    if (startkey !== undefined) {
      q.set('startkey', JSON.stringify(startkey));
      q.set('skip', '1');
    }
    const res = await fetch(`${baseUrl}/api/store/docs?${q}`);
    if (!res.ok) throw new Error(`GET /api/store/docs: ${res.status} ${await res.text()}`);
    const page = (await res.json()) as { rows: Array<{ id: string; doc: Record<string, unknown> }> };
    for (const row of page.rows) {
      if (row.id.startsWith('_design/')) continue;
      const { _rev: _r, ...doc } = row.doc;
      docs.set(row.id, canonicalJson(doc));
      if (typeof doc.sessionId === 'string') sessions.add(doc.sessionId);
    }
    if (page.rows.length < 200) break;
    startkey = page.rows[page.rows.length - 1]!.id;
  }
  const objects = new Map<string, string>();
  for (const sessionId of [...sessions].sort()) {
    const res = await fetch(`${baseUrl}/api/store/objects/${encodeURIComponent(sessionId)}/`);
    if (res.status === 404) continue;
    const list = (await res.json()) as { objects: Array<{ key: string }> };
    for (const o of list.objects) {
      const body = await fetch(
        `${baseUrl}/api/store/objects/${o.key.split('/').map(encodeURIComponent).join('/')}`,
      );
      objects.set(
        o.key,
        createHash('sha256')
          .update(Buffer.from(await body.arrayBuffer()))
          .digest('hex'),
      );
    }
  }
  return { docs, objects };
}

/** Session documents and objects on an instance (design documents aside): 0/0 means nothing was written. */
export async function countStored(baseUrl: string): Promise<{ docs: number; objects: number }> {
  const s = await snapshotApi(baseUrl);
  return { docs: s.docs.size, objects: s.objects.size };
}
