/**
 * The checks import makes before writing anything: the manifest is there and its format known,
 * the schema version fits the target, and every file is present, unaltered and accounted for.
 */
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { fileMismatch, hashStream } from '../../../bundle/checksum.js';
import { checkSchemaCompatibility, type TargetSchema } from '../../../bundle/compatibility.js';
import { BLOBS_DIR, DOCS_FILE, MANIFEST_FILE } from '../../../bundle/format.js';
import { type Manifest, parseManifest, serializeManifest } from '../../../bundle/manifest.js';
import { createSha256Counter } from '../../../bundle/checksum.js';
import { MIGRATIONS } from '../../../migrations/index.js';
import type { ProgressReporter } from '../../io.js';
import { BundleError } from './bundle-error.js';
import { deriveManifest } from './derive-manifest.js';

/**
 * Reads and checks `manifest.json`; returns it with the sha256 of its bytes (the bundle's
 * identity). A manifest that lists no files (only `schemaVersion`, all the specification asks
 * for) is completed from the bundle itself (derive-manifest.ts), and comes back `unverified`:
 * there is nothing to check the files against. Its identity is then the completed manifest's.
 */
export async function readManifest(
  dir: string,
  signal: AbortSignal,
): Promise<{ manifest: Manifest; id: string; unverified: boolean }> {
  let info;
  try {
    info = await stat(dir);
  } catch {
    throw new BundleError(`${dir} does not exist`);
  }
  if (!info.isDirectory()) throw new BundleError(`${dir} is not a directory`);
  let bytes: Buffer;
  try {
    bytes = await readFile(join(dir, MANIFEST_FILE));
  } catch {
    throw new BundleError(
      `${dir} has no ${MANIFEST_FILE}: it is not a bundle, or its export was interrupted (the manifest is written last). Export it again.`,
    );
  }
  const parsed = parseManifest(bytes.toString('utf8'));
  if (!parsed.ok) throw new BundleError(parsed.message);
  const manifest = parsed.manifest ?? (await deriveManifest(dir, parsed.minimal, signal));
  const id = createSha256Counter();
  id.update(parsed.manifest ? bytes : Buffer.from(serializeManifest(manifest)));
  return { manifest, id: id.digest().sha256, unverified: !parsed.manifest };
}

/** Refuses a bundle whose schema version the target cannot take, saying what fixes it. */
export function checkCompatibility(
  manifest: Manifest,
  target: TargetSchema,
  commandSuffix: string,
): string | undefined {
  const known = MIGRATIONS.map(({ version, name, transformsDocs }) => ({ version, name, transformsDocs }));
  const c = checkSchemaCompatibility({ bundleVersion: manifest.schemaVersion, target, known, commandSuffix });
  if (!c.ok) throw new BundleError(`${c.reason}.\n  To fix: ${c.fix}.`);
  return c.note;
}

/** The files import will read: docs.ndjson, and the blobs unless `--no-blobs`. */
export function filesToCheck(manifest: Manifest, blobs: boolean): Array<[string, Manifest['files'][string]]> {
  return Object.entries(manifest.files).filter(([path]) => blobs || path === DOCS_FILE);
}

/** Size and sha256 of every file against the manifest, and no unlisted file under blobs/. */
export async function verifyFiles(
  dir: string,
  manifest: Manifest,
  blobs: boolean,
  progress: ProgressReporter,
  signal: AbortSignal,
): Promise<number> {
  const files = filesToCheck(manifest, blobs);
  const bytesTotal = files.reduce((n, [, f]) => n + f.bytes, 0);
  let bytesDone = 0;
  let filesDone = 0;
  for (const [path, expected] of files) {
    signal.throwIfAborted();
    const full = join(dir, ...path.split('/'));
    let info;
    try {
      info = await stat(full);
    } catch {
      throw new BundleError(`${path} is listed in the manifest but missing from the bundle`);
    }
    if (!info.isFile()) throw new BundleError(`${path} is not a regular file`);
    const actual = await hashStream(createReadStream(full, { highWaterMark: 1024 * 1024 }));
    const problem = fileMismatch(path, expected, actual);
    if (problem) throw new BundleError(problem);
    bytesDone += actual.bytes;
    progress.update({
      filesDone: ++filesDone,
      filesTotal: files.length,
      bytesDone,
      bytesTotal,
      currentFile: path,
    });
  }
  if (blobs) {
    let found: string[] = [];
    try {
      found = (await readdir(join(dir, BLOBS_DIR), { recursive: true })) as string[];
    } catch {
      // no blobs/ directory: fine when the manifest lists no objects (checked above)
    }
    for (const rel of found) {
      const path = `${BLOBS_DIR}/${rel.split(sep).join('/')}`;
      if (manifest.files[path]) continue;
      if ((await stat(join(dir, BLOBS_DIR, rel))).isDirectory()) continue;
      throw new BundleError(`${path} is in the bundle but not in its manifest: the bundle was altered`);
    }
  }
  return files.length;
}
