/**
 * sha256 and size of bundle files, computed while the bytes stream past (export hashes what it
 * writes, import hashes what it reads), and the one wording for a mismatch.
 */
import { createHash } from 'node:crypto';
import type { ManifestFile } from './manifest.js';

export interface Sha256Counter {
  update(chunk: Uint8Array): void;
  /** Size and hex sha256 of everything seen; call once. */
  digest(): ManifestFile;
}

export function createSha256Counter(): Sha256Counter {
  const hash = createHash('sha256');
  let bytes = 0;
  return {
    update(chunk) {
      hash.update(chunk);
      bytes += chunk.length;
    },
    digest: () => ({ bytes, sha256: hash.digest('hex') }),
  };
}

/** Size and sha256 of a byte stream. */
export async function hashStream(source: AsyncIterable<Uint8Array>): Promise<ManifestFile> {
  const counter = createSha256Counter();
  for await (const chunk of source) counter.update(chunk);
  return counter.digest();
}

/** Why a file does not match its manifest entry, or null when it does. */
export function fileMismatch(path: string, expected: ManifestFile, actual: ManifestFile): string | null {
  if (actual.bytes !== expected.bytes) {
    const hint = actual.bytes < expected.bytes ? ' (truncated?)' : '';
    return `${path}: ${actual.bytes} bytes, but the manifest says ${expected.bytes}${hint}`;
  }
  if (actual.sha256 !== expected.sha256)
    return `${path}: sha256 ${actual.sha256} does not match the manifest's ${expected.sha256}: the file was changed or corrupted`;
  return null;
}
