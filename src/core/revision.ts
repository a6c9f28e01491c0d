/**
 * Document revisions (`<n>-<hash>`, CouchDB style). The hash covers the document's content in a
 * canonical form (keys sorted, `_id`/`_rev` left out), so writing identical content again can be
 * recognised as unchanged whatever key order or revision the writer sent.
 */
import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every level; `undefined` members dropped as JSON.stringify does. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const v = (value as Record<string, unknown>)[key];
    if (v === undefined) continue;
    // A member like any other (JSON.parse makes it one), not the prototype an assignment sets.
    if (key === '__proto__')
      Object.defineProperty(out, key, {
        value: sortKeys(v),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else out[key] = sortKeys(v);
  }
  return out;
}

/** Hash of a document's content: every field except `_id` and `_rev`. */
export function contentHash(doc: Record<string, unknown>): string {
  const { _id: _i, _rev: _r, ...content } = doc;
  return createHash('sha1').update(canonicalJson(content)).digest('hex').slice(0, 32);
}

/** Parses `<n>-<hash>`; null when malformed. */
export function parseRev(rev: string): { n: number; hash: string } | null {
  const m = /^(\d+)-([0-9a-f]+)$/.exec(rev);
  if (!m) return null;
  return { n: Number(m[1]), hash: m[2]! };
}

/** The revision that follows `current` for content with hash `hash`. */
export function nextRev(current: string | undefined, hash: string): string {
  const n = current ? (parseRev(current)?.n ?? 0) : 0;
  return `${n + 1}-${hash}`;
}
