/**
 * Appending to an S3 object, which S3 cannot do in place: a multipart upload whose first parts are
 * server-side copies of the stored object's first `offset` bytes (UploadPartCopy, no bytes travel
 * through this process) and whose last parts are the new bytes. CompleteMultipartUpload swaps the
 * object atomically; any failure aborts the upload and leaves the stored object as it was.
 * UploadPartCopy needs parts of at least 5 MiB, so shorter prefixes are read and re-uploaded
 * instead (s3-object-store.ts), which is cheap at that size.
 */
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  UploadPartCommand,
  UploadPartCopyCommand,
  type CompletedPart,
  type S3Client,
} from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { StoreInputError } from '../contract.js';
import type { Body } from '../objects-common/object-body.js';
import { httpStatus, isNotImplemented } from './s3-errors.js';

/** S3's smallest part (all but the last). */
export const COPY_MIN_BYTES = 5 * 1024 * 1024;
/** S3's largest copied part. */
const COPY_MAX_BYTES = 5 * 1024 * 1024 * 1024;

/** What a put received: filled in when its body has been read to the end and verified. */
export interface Received {
  size: number;
  sha256: string;
}

/**
 * The body's bytes, hashed on the way through (unless `hashing` is off and nothing is expected;
 * `received.sha256` is then empty). The checksum is verified before the last byte is handed on,
 * so an upload fed from it never completes with a body that does not match.
 */
export async function* hashedBody(
  body: Body,
  received: Received,
  expected: string | null,
  key: string,
  hashing = true,
): AsyncGenerator<Buffer> {
  const hash = hashing || expected ? createHash('sha256') : null;
  let size = 0;
  for await (const chunk of body as AsyncIterable<Uint8Array | string>) {
    const bytes =
      typeof chunk === 'string'
        ? Buffer.from(chunk)
        : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    hash?.update(bytes);
    size += bytes.byteLength;
    yield bytes;
  }
  const sha256 = hash ? hash.digest('hex') : '';
  if (expected && sha256 !== expected) {
    throw new StoreInputError(`sha256 mismatch for ${key}: expected ${expected}, received ${sha256}`);
  }
  received.size = size;
  received.sha256 = sha256;
}

export interface ComposeOptions {
  bucket: string;
  key: string;
  offset: number;
  /** The stored object's ETag: the copy fails rather than mix two versions of it. */
  etag: string | undefined;
  body: AsyncIterable<Buffer>;
  partSize: number;
}

/** Composes the new object; false (nothing written, body untouched) when the server cannot copy parts. */
export async function composeWithCopy(s3: S3Client, o: ComposeOptions): Promise<boolean> {
  const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: o.bucket, Key: o.key }));
  const abort = () =>
    s3
      .send(new AbortMultipartUploadCommand({ Bucket: o.bucket, Key: o.key, UploadId }))
      .catch(() => undefined);
  const parts: CompletedPart[] = [];
  try {
    for (const [start, end] of copyRanges(o.offset)) {
      try {
        const r = await s3.send(
          new UploadPartCopyCommand({
            Bucket: o.bucket,
            Key: o.key,
            UploadId,
            PartNumber: parts.length + 1,
            CopySource: `${o.bucket}/${o.key.split('/').map(encodeURIComponent).join('/')}`,
            CopySourceRange: `bytes=${start}-${end - 1}`,
            ...(o.etag ? { CopySourceIfMatch: o.etag } : {}),
          }),
        );
        parts.push({ PartNumber: parts.length + 1, ETag: r.CopyPartResult?.ETag });
      } catch (err) {
        if (parts.length === 0 && isNotImplemented(err)) {
          await abort();
          return false;
        }
        if (httpStatus(err) === 412) {
          throw new StoreInputError(`${o.key} was replaced while it was being extended; retry the write`);
        }
        throw err;
      }
    }
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const uploadPart = async (data: Buffer) => {
      const r = await s3.send(
        new UploadPartCommand({
          Bucket: o.bucket,
          Key: o.key,
          UploadId,
          PartNumber: parts.length + 1,
          Body: data,
        }),
      );
      parts.push({ PartNumber: parts.length + 1, ETag: r.ETag });
    };
    for await (const chunk of o.body) {
      pending.push(chunk);
      pendingBytes += chunk.byteLength;
      while (pendingBytes >= o.partSize) {
        const all = Buffer.concat(pending);
        await uploadPart(all.subarray(0, o.partSize));
        pending = [all.subarray(o.partSize)];
        pendingBytes = pending[0]!.byteLength;
      }
    }
    // The last part may be small (or absent when nothing was appended).
    if (pendingBytes > 0) await uploadPart(Buffer.concat(pending));
    await s3.send(
      new CompleteMultipartUploadCommand({
        Bucket: o.bucket,
        Key: o.key,
        UploadId,
        MultipartUpload: { Parts: parts },
      }),
    );
    return true;
  } catch (err) {
    await abort();
    throw err;
  }
}

/** Byte ranges `[start, end)` covering `[0, size)`, each between 5 MiB and 5 GiB. */
export function copyRanges(size: number): Array<[number, number]> {
  const count = Math.ceil(size / COPY_MAX_BYTES);
  const each = Math.ceil(size / count);
  const ranges: Array<[number, number]> = [];
  for (let start = 0; start < size; start += each) ranges.push([start, Math.min(size, start + each)]);
  return ranges;
}
