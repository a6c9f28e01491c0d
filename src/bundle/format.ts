/**
 * The bundle's on-disk layout (DESIGN §8): a directory holding `docs.ndjson`, `blobs/<sessionId>/…`
 * and `manifest.json`, written last so that its presence marks a complete bundle. The format has
 * its own version, separate from the schema version of the documents inside it: the layout and
 * the manifest can change without the documents changing, and the other way round.
 */

/** The manifest's `format` field: anything else is not one of our bundles. */
export const BUNDLE_FORMAT = 'transcripts-bundle';

/** The format version this code writes and the newest it reads. */
export const BUNDLE_FORMAT_VERSION = 1;

export const MANIFEST_FILE = 'manifest.json';
export const DOCS_FILE = 'docs.ndjson';
export const BLOBS_DIR = 'blobs';

/** The bundle-relative path of an object (`<sessionId>/<name>` → `blobs/<sessionId>/<name>`). */
export function blobPath(objectKey: string): string {
  return `${BLOBS_DIR}/${objectKey}`;
}

/** The object key of a bundle-relative blob path, or null when the path is not under `blobs/`. */
export function objectKeyOfBlobPath(path: string): string | null {
  return path.startsWith(`${BLOBS_DIR}/`) ? path.slice(BLOBS_DIR.length + 1) : null;
}
