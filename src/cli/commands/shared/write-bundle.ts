/**
 * Export: reads a selection of history through the API's store read routes and writes a bundle
 * (DESIGN §8). Documents stream page by page into `docs.ndjson` (revision markers removed, design
 * and local documents left out), then each session's objects stream byte for byte into
 * `blobs/<sessionId>/…`, hashed while they pass; `manifest.json` goes last, by rename, so its
 * presence marks a complete bundle. Documents go before objects so that, on a live instance, the
 * objects hold at least every byte the documents refer to.
 */
import { mkdir, readdir, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DocLineScanner, type ScannedDoc } from '../../../bundle/doc-line-scanner.js';
import {
  blobPath,
  BUNDLE_FORMAT,
  BUNDLE_FORMAT_VERSION,
  DOCS_FILE,
  MANIFEST_FILE,
} from '../../../bundle/format.js';
import { type Manifest, type ManifestFile, serializeManifest } from '../../../bundle/manifest.js';
import { NdjsonError } from '../../../bundle/ndjson.js';
import { SessionActivity } from '../../../bundle/selection.js';
import type { ApiClient } from '../../../client/api-client.js';
import { allObjects, docRows, sessionObjects } from '../../../client/bundle-client.js';
import { makeDirs, removeMadeDirs } from '../../../config/make-dirs.js';
import { packageVersion } from '../../../config/paths.js';
import { objectKeyProblem } from '../../../core/object-key.js';
import type { Io } from '../../io.js';
import { BundleError } from './bundle-error.js';
import { mapConcurrent } from './concurrent.js';
import { HashingWriter } from './hashing-writer.js';
import { resolveStoredSessionId } from './session-ref.js';

export interface WriteBundleOptions {
  client: ApiClient;
  /** The source instance's URL, recorded in the manifest. */
  sourceUrl: string;
  dir: string;
  /** ISO timestamp: whole sessions active at or after it. */
  since?: string;
  /** Session ids or unique prefixes, as typed. */
  sessions: string[];
  blobs: boolean;
  io: Io;
  signal: AbortSignal;
}

/** Refuses a target that exists and is not an empty directory (bundles never mix). */
export async function checkExportTarget(dir: string): Promise<void> {
  let info;
  try {
    info = await stat(dir);
  } catch {
    return; // absent (or under something that is not a directory): makeDirs says which
  }
  if (!info.isDirectory()) throw new BundleError(`${dir} exists and is not a directory`);
  const entries = await readdir(dir);
  if (entries.length > 0)
    throw new BundleError(
      `${dir} is not empty (${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}): export writes into a new or empty directory, so bundles never mix`,
    );
}

/** Sessions whose documents one request reads (from one snapshot); keeps the URL short. */
const SESSIONS_PER_REQUEST = 40;
/** Object downloads in flight at once. */
const DOWNLOADS = 4;
/** Object listings in flight at once, when sessions are listed one by one. */
const LISTINGS = 8;
/** Up to this many sessions are listed one by one; more, and the whole store is listed in pages. */
const LIST_SESSIONS_UP_TO = 64;

export async function writeBundle(o: WriteBundleOptions): Promise<Manifest> {
  const { client, io, signal } = o;
  await checkExportTarget(o.dir);
  // Made first, so a target that cannot be created fails at once; removed again when the source
  // refuses before anything was written.
  const made = await makeDirs(o.dir);
  let health, schema, selected;
  try {
    health = await client.health();
    schema = await client.migrateStatus();
    selected = await selectSessions(o);
  } catch (err) {
    await removeMadeDirs(made);
    throw err;
  }

  // --- documents ------------------------------------------------------------------------------
  const docs = new HashingWriter(join(o.dir, DOCS_FILE));
  const byType: Record<string, number> = {};
  let documents = 0;
  const sessions = new Set<string>(selected ?? []);
  const expected = new Map<string, Set<string>>();
  const docTotal = selected ? undefined : (health.counts?.documents ?? undefined);
  const progress = io.progress('export documents');
  try {
    // Whole sessions per request: the server reads each request from one snapshot, so a session
    // written to meanwhile comes out as it was at one moment, never half before and half after.
    const requests: string[] = [];
    if (selected)
      for (let i = 0; i < selected.length; i += SESSIONS_PER_REQUEST) {
        const q = new URLSearchParams();
        for (const id of selected.slice(i, i + SESSIONS_PER_REQUEST)) q.append('session', id);
        requests.push(`/api/store/docs.ndjson?${q}`);
      }
    else requests.push('/api/store/docs.ndjson');
    const scanner = new DocLineScanner();
    const noteDoc = (doc: ScannedDoc) => {
      documents++;
      byType[doc.type] = (byType[doc.type] ?? 0) + 1;
      sessions.add(doc.sessionId);
      if (doc.objectNames.length) {
        let set = expected.get(doc.sessionId);
        if (!set) expected.set(doc.sessionId, (set = new Set()));
        for (const n of doc.objectNames) set.add(n);
      }
    };
    for (const request of requests) {
      // The server sends each document already in bundle form; its bytes go to the file as they
      // are, and only ids (and small summaries) are read on the way.
      const res = await client.fetchRaw('GET', request, {
        headers: { accept: 'application/x-ndjson' },
        signal,
      });
      if (!res.body) continue;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        scanner.push(chunk, noteDoc);
        await docs.write(chunk);
        // No byte total: documents come in id order, the large chunks first, so any estimate
        // from the size so far overshoots many times over until the small ones arrive.
        progress.update({
          filesDone: documents,
          filesTotal: Math.max(docTotal ?? documents, documents),
          bytesDone: docs.bytes,
        });
      }
      scanner.end();
    }
  } catch (err) {
    docs.destroy();
    progress.stop();
    if (err instanceof NdjsonError) throw new BundleError(`the source's documents, ${err.message}`);
    // A chunked body that breaks off (the server failed part-way) surfaces as fetch's
    // TypeError('terminated').
    if (!signal.aborted && err instanceof TypeError && err.message === 'terminated')
      throw new BundleError(
        `the source stopped sending documents part-way (${err.message}); nothing was completed`,
      );
    throw err;
  }
  const files: Record<string, ManifestFile> = { [DOCS_FILE]: await docs.close() };
  progress.update({
    filesDone: documents,
    filesTotal: documents,
    bytesDone: files[DOCS_FILE]!.bytes,
    bytesTotal: files[DOCS_FILE]!.bytes,
  });
  progress.stop();

  // --- objects --------------------------------------------------------------------------------
  const sessionList = [...sessions].sort();
  const missingObjects: Manifest['missingObjects'] = [];
  let objects = 0;
  let objectBytes = 0;
  if (o.blobs) {
    const listings = await listObjects(client, sessionList, selected === null, signal);
    const plan: Array<{ key: string; size: number }> = [];
    for (const [i, sessionId] of sessionList.entries()) {
      const listed = listings[i]!;
      for (const obj of listed) {
        const problem = objectKeyProblem(obj.key);
        // A key that could escape the bundle directory is never written, whatever the source says.
        if (problem || !obj.key.startsWith(`${sessionId}/`))
          throw new BundleError(`the source listed an unsafe object key: ${problem ?? obj.key}`);
        plan.push({ key: obj.key, size: obj.size });
      }
      const have = new Set(listed.map((x) => x.key.slice(sessionId.length + 1)));
      const missing = [...(expected.get(sessionId) ?? [])].filter((n) => !have.has(n)).sort();
      if (missing.length) missingObjects.push({ sessionId, names: missing });
    }
    const bytesTotal = plan.reduce((n, p) => n + p.size, 0);
    const bar = io.progress('export objects');
    const report = (currentFile?: string) =>
      bar.update({
        filesDone: objects,
        filesTotal: plan.length,
        bytesDone: objectBytes,
        bytesTotal: Math.max(bytesTotal, objectBytes),
        currentFile,
      });
    try {
      // A few downloads at once keep both the server and this process busy; each file is whole
      // and hashed on its own, so their order does not matter (the manifest sorts its entries).
      await mapConcurrent(plan, DOWNLOADS, async ({ key }) => {
        files[blobPath(key)] = await downloadObject(client, key, join(o.dir, blobPath(key)), signal, (n) => {
          objectBytes += n;
          report(key);
        });
        objects++;
      });
      report();
    } finally {
      bar.stop();
    }
  }

  const manifest: Manifest = {
    format: BUNDLE_FORMAT,
    formatVersion: BUNDLE_FORMAT_VERSION,
    createdAt: new Date().toISOString(),
    schemaVersion: schema.currentVersion,
    source: { url: o.sourceUrl, version: health.version, exportedBy: packageVersion() },
    selection: { since: o.since ?? null, sessions: o.sessions.length ? o.sessions : null, blobs: o.blobs },
    counts: { sessions: sessionList.length, documents, documentsByType: byType, objects, objectBytes },
    sessions: sessionList,
    files,
    missingObjects,
  };
  // Last, and atomically: a bundle without manifest.json is an interrupted export.
  const tmp = join(o.dir, `.${MANIFEST_FILE}.tmp`);
  await writeFile(tmp, serializeManifest(manifest), { flag: 'wx' });
  await rename(tmp, join(o.dir, MANIFEST_FILE));
  return manifest;
}

/** Each session's objects, in the order of `sessionIds` (sorted). */
async function listObjects(
  client: ApiClient,
  sessionIds: string[],
  everything: boolean,
  signal: AbortSignal,
): Promise<Array<Array<{ key: string; size: number }>>> {
  // Everything, or many sessions: the store's listing, 10,000 objects per request, keeping those
  // of the sessions exported.
  const all = everything || sessionIds.length > LIST_SESSIONS_UP_TO ? await allObjects(client, signal) : null;
  if (all) {
    const bySession = new Map(sessionIds.map((id) => [id, [] as Array<{ key: string; size: number }>]));
    for (const o of all) bySession.get(o.sessionId)?.push(o);
    return sessionIds.map((id) => bySession.get(id)!);
  }
  // A few sessions (or a source without that listing): one request per session, a few at once.
  return mapConcurrent(sessionIds, LISTINGS, async (sessionId) => {
    signal.throwIfAborted();
    return (await sessionObjects(client, sessionId)) ?? [];
  });
}

/** The sessions to export, or null for everything. `--session` and `--since` together: both must hold. */
async function selectSessions(o: WriteBundleOptions): Promise<string[] | null> {
  if (!o.since && o.sessions.length === 0) return null;
  let chosen: Set<string> | null = null;
  if (o.sessions.length) {
    chosen = new Set();
    for (const ref of o.sessions) chosen.add(await resolveStoredSessionId(o.client, ref));
  }
  if (o.since) {
    const activity = new SessionActivity();
    for await (const row of docRows(o.client, {
      startkey: 'event:',
      endkey: 'event:\uffff',
      signal: o.signal,
    }))
      activity.noteEventId(row.id);
    for await (const row of docRows(o.client, {
      startkey: 'summary:',
      endkey: 'summary:\uffff',
      includeDocs: true,
      signal: o.signal,
    }))
      if (row.doc && typeof row.doc.sessionId === 'string')
        activity.noteSummary(row.doc as unknown as { sessionId: string; lastActivity?: unknown });
    const active = activity.activeSince(Date.parse(o.since));
    chosen = new Set(chosen ? active.filter((id) => chosen!.has(id)) : active);
  }
  return [...chosen!].sort();
}

/** Streams one object into the bundle, hashing it; checks the length the server announced. */
async function downloadObject(
  client: ApiClient,
  key: string,
  path: string,
  signal: AbortSignal,
  onBytes: (n: number) => void,
): Promise<ManifestFile> {
  await mkdir(dirname(path), { recursive: true });
  // Written in the thread pool, a batch at a time, while the next pieces arrive: the writes are
  // this process's largest share of work, and made on the event loop they held up receiving
  // (a 1.3 GB export, five runs each: 15.0 s written there, 13.3 s this way).
  const out = new HashingWriter(path);
  let answer;
  try {
    answer = await client.object(
      key,
      (piece) => {
        onBytes(piece.length);
        return out.write(piece);
      },
      { signal },
    );
  } catch (err) {
    out.destroy();
    throw err;
  }
  const file = await out.close();
  if (answer.contentLength !== null && answer.contentLength !== file.bytes)
    throw new BundleError(
      `object ${key}: received ${file.bytes} bytes of ${answer.contentLength}; the transfer was cut short`,
    );
  return file;
}
