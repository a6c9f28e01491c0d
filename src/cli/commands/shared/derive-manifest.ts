/**
 * The manifest of a bundle whose manifest.json holds only what the specification requires (its
 * `schemaVersion`; src/bundle/manifest.ts's MinimalManifest), read from the bundle itself: the
 * documents, sessions and counts of docs.ndjson, and the size and sha256 of every file under
 * blobs/. What the files hold is taken as found: there are no checksums to check them against.
 * Every line is still checked as a session document, every blob path as a safe object key of a
 * session with documents, and blobs/ must hold regular files only (no links leading elsewhere).
 */
import { createReadStream } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { checkBundleDoc } from '../../../bundle/bundle-doc.js';
import { hashStream } from '../../../bundle/checksum.js';
import {
  BLOBS_DIR,
  BUNDLE_FORMAT,
  BUNDLE_FORMAT_VERSION,
  DOCS_FILE,
  MANIFEST_FILE,
} from '../../../bundle/format.js';
import {
  type Manifest,
  type ManifestFile,
  manifestConsistencyProblem,
  type MinimalManifest,
} from '../../../bundle/manifest.js';
import { NdjsonError, readNdjson } from '../../../bundle/ndjson.js';
import { objectKeyProblem } from '../../../core/object-key.js';
import { BundleError } from './bundle-error.js';

/** What a minimal manifest does not say, recorded as such. */
const UNKNOWN_SOURCE = 'unknown (the manifest does not say)';

const hashFile = (path: string) => hashStream(createReadStream(path, { highWaterMark: 1024 * 1024 }));

export async function deriveManifest(
  dir: string,
  minimal: MinimalManifest,
  signal: AbortSignal,
): Promise<Manifest> {
  const docsPath = join(dir, DOCS_FILE);
  const docsInfo = await lstat(docsPath).catch(() => null);
  if (!docsInfo) throw new BundleError(`${dir} has no ${DOCS_FILE}`);
  if (!docsInfo.isFile()) throw new BundleError(`${DOCS_FILE} is not a regular file`);
  const files: Record<string, ManifestFile> = { [DOCS_FILE]: await hashFile(docsPath) };

  const byType: Record<string, number> = {};
  const sessions = new Set<string>();
  let documents = 0;
  try {
    for await (const line of readNdjson(createReadStream(docsPath, { highWaterMark: 1024 * 1024 }))) {
      const checked = checkBundleDoc(line.value);
      if (!checked.ok) throw new BundleError(`${DOCS_FILE} line ${line.line}: ${checked.reason}`);
      documents++;
      byType[checked.doc.type] = (byType[checked.doc.type] ?? 0) + 1;
      sessions.add(checked.doc.sessionId);
    }
  } catch (err) {
    if (err instanceof NdjsonError) throw new BundleError(`${DOCS_FILE} ${err.message}`);
    throw err;
  }

  const blobsDir = join(dir, BLOBS_DIR);
  const entries = await readdir(blobsDir, { recursive: true, withFileTypes: true }).catch(
    (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [];
      throw err;
    },
  );
  let objects = 0;
  let objectBytes = 0;
  for (const e of entries.sort((a, b) => (a.parentPath + a.name < b.parentPath + b.name ? -1 : 1))) {
    signal.throwIfAborted();
    if (e.isDirectory()) continue;
    const key = relative(blobsDir, join(e.parentPath, e.name)).split(sep).join('/');
    const path = `${BLOBS_DIR}/${key}`;
    if (!e.isFile()) throw new BundleError(`${path} is not a regular file`);
    const problem = objectKeyProblem(key);
    if (problem) throw new BundleError(`${path}: ${problem}`);
    const sessionId = key.slice(0, key.indexOf('/'));
    if (!sessions.has(sessionId))
      throw new BundleError(`${path} belongs to session ${sessionId}, which has no document in ${DOCS_FILE}`);
    files[path] = await hashFile(join(blobsDir, ...key.split('/')));
    objects++;
    objectBytes += files[path].bytes;
  }

  const manifest: Manifest = {
    format: BUNDLE_FORMAT,
    formatVersion: BUNDLE_FORMAT_VERSION,
    // When manifest.json was written: the nearest thing to when the bundle was taken.
    createdAt: (await lstat(join(dir, MANIFEST_FILE))).mtime.toISOString(),
    schemaVersion: minimal.schemaVersion,
    source: { url: UNKNOWN_SOURCE, version: UNKNOWN_SOURCE, exportedBy: UNKNOWN_SOURCE },
    selection: { since: null, sessions: null, blobs: objects > 0 },
    counts: { sessions: sessions.size, documents, documentsByType: byType, objects, objectBytes },
    sessions: [...sessions].sort(),
    files,
    missingObjects: [],
  };
  const problem = manifestConsistencyProblem(manifest);
  if (problem) throw new BundleError(`the bundle read without a manifest's file list: ${problem}`);
  return manifest;
}
