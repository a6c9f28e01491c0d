/**
 * What an object store accepts as a body, and the expected-checksum argument every engine checks
 * the same way before streaming anything.
 */
import type { Readable } from 'node:stream';
import { StoreInputError } from '../contract.js';

export type Body = Readable | AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

/** The caller's expected sha256, lower-cased; null when none was given. */
export function checkSha256(sha256: string | undefined): string | null {
  if (sha256 === undefined) return null;
  if (typeof sha256 !== 'string' || !/^[0-9a-fA-F]{64}$/.test(sha256)) {
    throw new StoreInputError('sha256 must be 64 hex digits');
  }
  return sha256.toLowerCase();
}
