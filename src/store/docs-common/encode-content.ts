/**
 * One pass from a caller's document to what the docs table stores: the canonical JSON of its
 * content (the body column) and the content hash (the hash column and the `<hash>` of `_rev`).
 * `contentHash()` in core would build the same canonical JSON a second time; hashing the body we
 * store anyway keeps the ingest hot path to one stringification. `encode-content.test.ts` pins
 * the result to `contentHash()` so the two cannot drift apart.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../core/revision.js';
import type { DocInput } from '../contract.js';

export interface EncodedContent {
  body: string;
  hash: string;
}

export function encodeContent(doc: DocInput): EncodedContent {
  const body = encodeBody(doc);
  return { body, hash: hashBody(body) };
}

/** What a tombstone stores, on every engine: never equal to real content, so a recreate is always `written`. */
export const TOMBSTONE: EncodedContent = encodeContent({ _id: '', _deleted: true });

/** The canonical JSON of a document's content (everything but `_id` and `_rev`). */
export function encodeBody(doc: DocInput): string {
  const { _id: _i, _rev: _r, ...content } = doc;
  return canonicalJson(content);
}

/** The content hash of an encoded body: the `<hash>` of `_rev`. */
export function hashBody(body: string): string {
  return createHash('sha1').update(body).digest('hex').slice(0, 32);
}
