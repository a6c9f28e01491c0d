/**
 * A comparable picture of a store: every document (revision markers removed, canonical JSON) and
 * every object's sha256. Two stores that hold the same history have equal snapshots.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../src/core/revision.js';
import type { Store } from '../../src/store/contract.js';

export interface StoreSnapshot {
  docs: Map<string, string>;
  objects: Map<string, string>;
}

export async function snapshotStore(store: Store): Promise<StoreSnapshot> {
  const docs = new Map<string, string>();
  const sessions = new Set<string>();
  let startkey: string | undefined;
  for (;;) {
    const page = await store.docs.allDocs({
      startkey,
      limit: 500,
      includeDocs: true,
      skip: startkey ? 1 : 0,
    });
    for (const row of page.rows) {
      if (row.id.startsWith('_design/')) continue;
      const { _rev: _r, ...doc } = row.doc!;
      docs.set(row.id, canonicalJson(doc));
      if (typeof doc.sessionId === 'string') sessions.add(doc.sessionId);
    }
    if (page.rows.length < 500) break;
    startkey = page.rows[page.rows.length - 1]!.id;
  }
  const objects = new Map<string, string>();
  for (const sessionId of [...sessions].sort()) {
    for (const info of await store.objects.list(sessionId)) {
      const stream = await store.objects.get(info.key);
      const hash = createHash('sha256');
      for await (const chunk of stream!) hash.update(chunk as Buffer);
      objects.set(info.key, hash.digest('hex'));
    }
  }
  return { docs, objects };
}
