/**
 * Documents on their way into and out of a bundle. Out: session documents only (design documents,
 * instance-local state and anything else underscored stay behind), revision marker removed. In:
 * every line is checked the way the ingest route checks it — schema, id matching its content, safe
 * session id and object name — so a bad line is refused, with its line number, before anything is
 * written. The original object is what gets sent, never zod's parsed copy, so content (and the
 * content hash that decides "unchanged") is exactly what the source stored.
 */
import { isUserDocType, userDocProblem } from '../core/annotations.js';
import { describeZodError, sessionDocSchema, summaryActivityProblem } from '../core/documents.js';
import { docIds } from '../core/doc-ids.js';
import { objectKeyProblem, sessionIdProblem } from '../core/object-key.js';
import { contentHash, parseRev } from '../core/revision.js';

export type BundleDoc = Record<string, unknown> & { _id: string; sessionId: string; type: string };

/** Ids that never go into a bundle: design documents, `_local/…` state, the schema marker, any `_…`. */
export function isBundledId(id: string): boolean {
  return !id.startsWith('_');
}

const NEWLINE = Buffer.from('\n');

/**
 * The pieces of the `docs.ndjson` line of a stored document, built from its stored body (the
 * canonical JSON of its content, without `_id` and `_rev`, as UTF-8) without decoding or parsing
 * it: `_id` first, then the content. Pieces, so a page of lines is copied once, by its concat.
 */
export function bundleLinePieces(id: string, body: Uint8Array): Uint8Array[] {
  const empty = body.length <= 2; // "{}"
  const head = Buffer.from(`{"_id":${JSON.stringify(id)}${empty ? '}' : ','}`);
  return empty ? [head, NEWLINE] : [head, body.subarray(1), NEWLINE];
}

export type CheckedDoc = { ok: true; doc: BundleDoc } | { ok: false; reason: string };

/** Checks one parsed `docs.ndjson` line. */
export function checkBundleDoc(value: unknown): CheckedDoc {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, reason: 'not a JSON object' };
  const v = value as Record<string, unknown>;
  if (typeof v._id !== 'string' || v._id === '') return { ok: false, reason: '_id: missing or not a string' };
  if (!isBundledId(v._id))
    return {
      ok: false,
      reason: `_id: "${v._id}" is a design or instance-local document, which bundles never carry`,
    };
  if ('_rev' in v)
    return { ok: false, reason: `${v._id}: carries a _rev (revision markers are removed in bundles)` };
  if (isUserDocType(v.type)) {
    const problem = userDocProblem(v);
    if (problem) return { ok: false, reason: `${v._id}: ${problem}` };
    const sid = sessionIdProblem(v.sessionId as string);
    return sid ? { ok: false, reason: `${v._id}: sessionId: ${sid}` } : { ok: true, doc: v as BundleDoc };
  }
  const parsed = sessionDocSchema.safeParse(v);
  if (!parsed.success) return { ok: false, reason: `${v._id}: ${describeZodError(parsed.error)}` };
  const d = parsed.data;
  const sid = sessionIdProblem(d.sessionId);
  if (sid) return { ok: false, reason: `${d._id}: sessionId: ${sid}` };
  const want =
    d.type === 'summary'
      ? docIds.summary(d.sessionId)
      : d.type === 'chunk'
        ? docIds.chunk(d.sessionId, d.file, d.byteStart)
        : null;
  if (want !== null && d._id !== want)
    return { ok: false, reason: `${d._id}: a ${d.type} document's _id must be ${want}` };
  if (d.type === 'event' && !d._id.startsWith(`event:${d.sessionId}:`))
    return { ok: false, reason: `${d._id}: an event document's _id must start with event:${d.sessionId}:` };
  if (d.type === 'summary') {
    const p = summaryActivityProblem(d);
    if (p) return { ok: false, reason: `${d._id}: ${p.field}: ${p.message}` };
  }
  if (d.type === 'chunk') {
    const key = objectKeyProblem(`${d.sessionId}/${d.file}`);
    if (key) return { ok: false, reason: `${d._id}: file: ${key}` };
  }
  return { ok: true, doc: v as BundleDoc };
}

export type DocPlan = 'new' | 'unchanged' | 'conflict';

/**
 * What writing `doc` (without a revision) into a store whose current revision of it is
 * `currentRev` will do: create it, find it identical (the revision's hash is the content hash),
 * or conflict with different content the target keeps.
 */
export function planDoc(doc: Record<string, unknown>, currentRev: string | undefined): DocPlan {
  if (currentRev === undefined) return 'new';
  return parseRev(currentRev)?.hash === contentHash(doc) ? 'unchanged' : 'conflict';
}

/** Object names a document says its session has (summary `files`, a chunk's `file`). */
export function objectNamesOf(doc: Record<string, unknown>): string[] {
  if (doc.type === 'chunk' && typeof doc.file === 'string') return [doc.file];
  if (doc.type === 'summary' && Array.isArray(doc.files))
    return doc.files.flatMap((f) =>
      f && typeof (f as { name?: unknown }).name === 'string' ? [(f as { name: string }).name] : [],
    );
  return [];
}
