/**
 * Import's plan and write phases. The plan compares the bundle with the target — each document by
 * its content hash against the target's current revision, each object by size and sha256 — and
 * marks a session that differs anywhere as conflicting: it is left exactly as the target has it,
 * because mixing two versions of one session would corrupt it. Writing then uploads objects first
 * (documents refer to their bytes), streams documents in batches skipping what the target already
 * holds, and reindexes search. Every write is idempotent, so a run killed halfway is completed by
 * running it again; a `_local/` note on the target remembers an unfinished import so the re-run
 * finishes the reindex even when nothing else is left to write.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { sha256OfReprDigest } from '../../../api/repr-digest.js';
import { tombstoneId } from '../../../core/annotation-rules.js';
import { checkBundleDoc, planDoc, type BundleDoc } from '../../../bundle/bundle-doc.js';
import { createSha256Counter, hashStream } from '../../../bundle/checksum.js';
import { DOCS_FILE, objectKeyOfBlobPath } from '../../../bundle/format.js';
import { sessionDocRanges } from '../../../bundle/selection.js';
import type { Manifest } from '../../../bundle/manifest.js';
import { NdjsonError, readNdjson } from '../../../bundle/ndjson.js';
import { type ApiClient, encodePathSegments } from '../../../client/api-client.js';
import { sessionObjects } from '../../../client/bundle-client.js';
import type { ProgressReporter } from '../../io.js';
import { BundleError } from './bundle-error.js';
import { mapConcurrent, SessionWrites } from './concurrent.js';

export type Status = 'new' | 'unchanged' | 'conflict';

export interface ObjectPlan {
  key: string;
  path: string;
  bytes: number;
  sha256: string;
  status: Status;
  /** The target holds other bytes under this key, left by an interrupted import: they are replaced. */
  replaces?: boolean;
}

export interface ImportPlan {
  /**
   * Documents by what writing them would do. None of a conflicting session's documents is
   * written: those that differ from the target's are `conflict`, the others `skipped`.
   */
  docs: { new: number; unchanged: number; skipped: number; conflict: number; forgotten: number };
  objects: ObjectPlan[];
  /** Sessions left as the target has them, with the first reason found. */
  conflicts: Map<string, string>;
  /**
   * Sessions forgotten on the target or by the bundle's own tombstones: nothing of them is written
   * but their tombstones (a tombstone outranks every source, DESIGN §13).
   */
  forgotten: Set<string>;
}

export interface PlanOptions {
  client: ApiClient;
  dir: string;
  manifest: Manifest;
  blobs: boolean;
  progress: ProgressReporter;
  signal: AbortSignal;
}

const REVS_BATCH = 1000;
/** Sessions whose objects are compared with the target's at once. */
const OBJECT_CHECKS = 4;

/** A checked document and its line, which is what gets sent: the same JSON, not stringified again. */
interface BundleLine {
  doc: BundleDoc;
  text: string;
}

/** Streams docs.ndjson: every line checked, in batches of up to `batch` documents. */
async function* docBatches(
  dir: string,
  manifest: Manifest,
  batch: number,
  maxBytes: number,
  onBytes: (n: number) => void,
): AsyncGenerator<BundleLine[]> {
  const sessions = new Set(manifest.sessions);
  // Each id once: two versions of one document would have the target keep whichever landed
  // first and report the other as a conflict. Memory stays small for millions of lines: a
  // 96-bit digest of each id is held, never the documents (a false match is out of reach).
  const seen = new Set<string>();
  let docs: BundleLine[] = [];
  let bytes = 0;
  let lines = 0;
  try {
    for await (const line of readNdjson(
      createReadStream(join(dir, DOCS_FILE), { highWaterMark: 1024 * 1024 }),
    )) {
      lines = line.line;
      const checked = checkBundleDoc(line.value);
      if (!checked.ok) throw new BundleError(`${DOCS_FILE} line ${line.line}: ${checked.reason}`);
      if (!sessions.has(checked.doc.sessionId))
        throw new BundleError(
          `${DOCS_FILE} line ${line.line}: session ${checked.doc.sessionId} is not listed in the manifest`,
        );
      const idKey = createHash('sha256').update(checked.doc._id).digest('base64').slice(0, 16);
      if (seen.has(idKey))
        throw new BundleError(
          `${DOCS_FILE} line ${line.line}: duplicate _id ${checked.doc._id} (an earlier line has the same id): the bundle was altered`,
        );
      seen.add(idKey);
      docs.push({ doc: checked.doc, text: line.text });
      bytes += line.bytes;
      onBytes(line.bytes);
      if (docs.length >= batch || bytes >= maxBytes) {
        yield docs;
        docs = [];
        bytes = 0;
      }
    }
  } catch (err) {
    if (err instanceof NdjsonError) throw new BundleError(`${DOCS_FILE} ${err.message}`);
    throw err;
  }
  if (docs.length) yield docs;
  if (lines !== manifest.counts.documents)
    throw new BundleError(
      `${DOCS_FILE} holds ${lines} documents, but the manifest says ${manifest.counts.documents}`,
    );
}

export async function planImport(o: PlanOptions): Promise<ImportPlan> {
  const { client, manifest } = o;
  const conflicts = new Map<string, string>();
  // Per session: which sessions conflict is known only once every document and object is compared.
  const docsBySession = new Map<string, Record<Status, number>>();
  let compared = 0;
  const docBytes = manifest.files[DOCS_FILE]!.bytes;
  let bytesDone = 0;
  const forgotten = await forgottenOnTarget(client, manifest.sessions);
  const tombstones = { new: 0, unchanged: 0 };

  // Small batches: the plan keeps nothing of a document once its revision is compared.
  for await (const batch of docBatches(
    o.dir,
    manifest,
    REVS_BATCH,
    8 * 1024 * 1024,
    (n) => (bytesDone += n),
  )) {
    o.signal.throwIfAborted();
    const { revs } = await client.getRevs(batch.map((l) => l.doc._id));
    for (const { doc } of batch) {
      const status = planDoc(doc, revs[doc._id]);
      if (doc.type === 'tombstone') {
        // Forgotten either way: a tombstone that differs (another time) changes nothing.
        forgotten.add(doc.sessionId);
        tombstones[status === 'new' ? 'new' : 'unchanged']++;
        compared++;
        continue;
      }
      let counts = docsBySession.get(doc.sessionId);
      if (!counts) docsBySession.set(doc.sessionId, (counts = { new: 0, unchanged: 0, conflict: 0 }));
      counts[status]++;
      compared++;
      if (status === 'conflict' && !conflicts.has(doc.sessionId))
        conflicts.set(doc.sessionId, `document ${doc._id} differs from the target's`);
    }
    o.progress.update({
      filesDone: compared,
      filesTotal: manifest.counts.documents,
      bytesDone,
      bytesTotal: docBytes,
    });
  }

  for (const sessionId of forgotten) conflicts.delete(sessionId);
  const objects: ObjectPlan[] = [];
  if (o.blobs) {
    const bySession = new Map<string, ObjectPlan[]>();
    for (const [path, file] of Object.entries(manifest.files)) {
      const key = objectKeyOfBlobPath(path);
      if (key === null) continue;
      const sessionId = key.slice(0, key.indexOf('/'));
      if (forgotten.has(sessionId)) continue;
      const plan: ObjectPlan = { key, path, bytes: file.bytes, sha256: file.sha256, status: 'new' };
      objects.push(plan);
      bySession.set(sessionId, [...(bySession.get(sessionId) ?? []), plan]);
    }
    // Sessions a few at a time: each is a listing and, for objects the target already holds at
    // the same size, a download to hash them (a re-run of an import that stopped part-way, or a
    // second import of the same bundle, compares every object this way).
    await mapConcurrent([...bySession], OBJECT_CHECKS, async ([sessionId, plans]) => {
      o.signal.throwIfAborted();
      const listed = (await sessionObjects(client, sessionId)) ?? [];
      const theirs = new Map(listed.map((x) => [x.key, x as typeof x & { sha256?: string }]));
      const differing: ObjectPlan[] = [];
      for (const p of plans) {
        const t = theirs.get(p.key);
        if (!t) continue;
        // Same size: compare content (the listing's sha256 when the API gives one, else hash the bytes).
        const same =
          t.size === p.bytes && (t.sha256 ?? (await remoteSha256(client, p.key, o.signal))) === p.sha256;
        if (same) p.status = 'unchanged';
        else differing.push(p);
      }
      // An object whose session has no document on the target is not a version of that session:
      // an import killed after its uploads (objects go first) left it. It is overwritten, or the
      // session could never be imported again.
      if (differing.length === 0) return;
      if (!(await holdsDocuments(client, sessionId))) {
        for (const p of differing) p.replaces = true;
        return;
      }
      for (const p of differing) p.status = 'conflict';
      if (!conflicts.has(sessionId))
        conflicts.set(sessionId, `object ${differing[0]!.key} differs from the target's`);
    });
  }
  const docs = {
    new: tombstones.new,
    unchanged: tombstones.unchanged,
    skipped: 0,
    conflict: 0,
    forgotten: 0,
  };
  for (const [sessionId, counts] of docsBySession) {
    if (forgotten.has(sessionId)) {
      docs.forgotten += counts.new + counts.unchanged + counts.conflict;
    } else if (conflicts.has(sessionId)) {
      docs.skipped += counts.new + counts.unchanged;
      docs.conflict += counts.conflict;
    } else {
      docs.new += counts.new;
      docs.unchanged += counts.unchanged;
    }
  }
  return { docs, objects, conflicts, forgotten };
}

/** Sessions among `sessions` the target has tombstones for. */
async function forgottenOnTarget(client: ApiClient, sessions: string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (let i = 0; i < sessions.length; i += REVS_BATCH) {
    const ids = sessions.slice(i, i + REVS_BATCH).map(tombstoneId);
    const { revs } = await client.getRevs(ids);
    for (const id of Object.keys(revs)) out.add(id.slice('tombstone:'.length));
  }
  return out;
}

/** Whether the target holds any document of the session (of any type: an import writes chunks first). */
async function holdsDocuments(client: ApiClient, sessionId: string): Promise<boolean> {
  for (const range of sessionDocRanges(sessionId))
    if ((await client.allDocs({ ...range, limit: 1 })).rows.length > 0) return true;
  return false;
}

/**
 * The sha256 of an object the target holds: its digest when the API gives one (HEAD with
 * Want-Repr-Digest, hashed next to the bytes), else its bytes downloaded and hashed here.
 */
async function remoteSha256(client: ApiClient, key: string, signal: AbortSignal): Promise<string> {
  const path = `/api/store/objects/${encodePathSegments(key)}`;
  const head = await client.fetchRaw('HEAD', path, {
    signal,
    headers: { accept: '*/*', 'want-repr-digest': 'sha-256=10' },
  });
  const digest = sha256OfReprDigest(head.headers.get('repr-digest'));
  if (digest) return digest;
  const res = await client.fetchRaw('GET', path, { signal, headers: { accept: '*/*' } });
  if (!res.body) return createSha256Counter().digest().sha256;
  return (await hashStream(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream))).sha256;
}

/** Whether the plan leaves anything to write. */
export function hasWork(plan: ImportPlan): boolean {
  const sessionOk = (key: string) => !plan.conflicts.has(key.slice(0, key.indexOf('/')));
  return plan.docs.new > 0 || plan.objects.some((p) => p.status === 'new' && sessionOk(p.key));
}

export interface WriteOutcome {
  docs: Record<'written' | 'unchanged' | 'conflict' | 'skipped', number>;
  objects: { uploaded: number; bytes: number; unchanged: number; skipped: number };
  /** Sessions that conflicted while writing (the target changed since the plan). */
  lateConflicts: Map<string, string>;
}

export interface WriteOptions extends PlanOptions {
  plan: ImportPlan;
  /** Progress of the object uploads and of the documents, separately. */
  objectProgress: ProgressReporter;
}

const WRITE_BATCH = 2000;
/** Objects uploaded at once. */
const UPLOADS = 4;
const WRITE_BATCH_BYTES = 16 * 1024 * 1024;
/** Document batches being written at once. */
const WRITES_IN_FLIGHT = 2;

export async function writeImport(o: WriteOptions): Promise<WriteOutcome> {
  const { client, plan, manifest } = o;
  const out: WriteOutcome = {
    docs: { written: 0, unchanged: 0, conflict: 0, skipped: 0 },
    objects: { uploaded: 0, bytes: 0, unchanged: 0, skipped: 0 },
    lateConflicts: new Map(),
  };
  const skip = (sessionId: string) =>
    plan.conflicts.has(sessionId) || out.lateConflicts.has(sessionId) || plan.forgotten.has(sessionId);
  /** Of a forgotten session only its tombstone is written. */
  const skipDoc = (doc: BundleDoc) => doc.type !== 'tombstone' && skip(doc.sessionId);

  // Objects first: documents must never point at bytes the target does not have.
  const uploads = plan.objects.filter((p) => p.status === 'new' && !skip(p.key.slice(0, p.key.indexOf('/'))));
  const uploadBytes = uploads.reduce((n, p) => n + p.bytes, 0);
  const uploading = new Set(uploads);
  for (const p of plan.objects) {
    if (p.status === 'unchanged') out.objects.unchanged++;
    else if (!uploading.has(p)) out.objects.skipped++;
  }
  // A few at once, as export downloads them: each upload mostly waits on the server's disk.
  await mapConcurrent(uploads, UPLOADS, async (p) => {
    o.signal.throwIfAborted();
    const body = Readable.toWeb(
      createReadStream(join(o.dir, ...p.path.split('/')), { highWaterMark: 1024 * 1024 }),
    );
    const result = await client.putObject(p.key, body as unknown as ReadableStream, { sha256: p.sha256 });
    if (result.sha256 !== p.sha256 || result.size !== p.bytes)
      throw new BundleError(
        `upload of ${p.key} stored ${result.size} bytes with sha256 ${result.sha256}, not what the bundle holds`,
      );
    out.objects.uploaded++;
    out.objects.bytes += p.bytes;
    o.objectProgress.update({
      filesDone: out.objects.uploaded,
      filesTotal: uploads.length,
      bytesDone: out.objects.bytes,
      bytesTotal: uploadBytes,
      currentFile: p.key,
    });
  });
  o.objectProgress.stop();

  const docBytes = manifest.files[DOCS_FILE]!.bytes;
  let bytesDone = 0;
  // Two batches are written at once while the next is read (a PostgreSQL target writes them on
  // two connections). A batch waits for every write in flight that shares a session with it: its
  // revisions are read only after those landed, and which sessions to leave out is decided only
  // once their late conflicts are known. Batches that share no session share no document.
  const writes = new SessionWrites(WRITES_IN_FLIGHT);
  const write = async (send: BundleLine[]) => {
    // Search is left behind for these and rebuilt once by the reindex that ends the import.
    const result = await client.ingestDocsJson(
      send.map((l) => l.text),
      undefined,
      { deferSearch: true },
    );
    out.docs.written += result.written;
    out.docs.unchanged += result.unchanged;
    out.docs.conflict += result.conflicts;
    for (const r of result.results)
      if (r.status === 'conflict' && !/ is forgotten /.test(r.reason ?? '')) {
        const sessionId = send.find((l) => l.doc._id === r.id)?.doc.sessionId ?? r.id;
        if (!out.lateConflicts.has(sessionId))
          out.lateConflicts.set(sessionId, r.reason ?? `document ${r.id} conflicted`);
      }
  };
  const report = () => {
    const done = out.docs.written + out.docs.unchanged + out.docs.conflict + out.docs.skipped;
    o.progress.update({
      filesDone: done,
      filesTotal: manifest.counts.documents,
      bytesDone,
      bytesTotal: docBytes,
    });
  };
  for await (const batch of docBatches(
    o.dir,
    manifest,
    WRITE_BATCH,
    WRITE_BATCH_BYTES,
    (n) => (bytesDone += n),
  )) {
    o.signal.throwIfAborted();
    const sessions = new Set(batch.map((l) => l.doc.sessionId));
    await writes.clear(sessions);
    const candidates = batch.filter((l) => !skipDoc(l.doc));
    const { revs } = candidates.length
      ? await client.getRevs(candidates.map((l) => l.doc._id))
      : { revs: {} as Record<string, string> };
    report();
    const send: BundleLine[] = [];
    for (const line of batch) {
      const { doc } = line;
      if (skipDoc(doc)) {
        out.docs.skipped++;
        continue;
      }
      const status = planDoc(doc, revs[doc._id]);
      if (doc.type === 'tombstone' && status === 'conflict') out.docs.unchanged++;
      else if (status === 'new') send.push(line);
      else if (status === 'unchanged') out.docs.unchanged++;
      else {
        out.docs.conflict++;
        if (!out.lateConflicts.has(doc.sessionId))
          out.lateConflicts.set(doc.sessionId, `document ${doc._id} changed on the target during the import`);
      }
    }
    if (send.length) writes.add(sessions, write(send));
  }
  await writes.drain();
  report();
  return out;
}
