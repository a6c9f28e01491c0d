/**
 * A local file's byte range as an object body, for `ObjectStore.putFile`: the engines that cannot
 * copy in the kernel stream it through their ordinary `put`.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { StoreInputError, type FileRange } from '../contract.js';

export function checkFileRange(source: FileRange): void {
  const { start, end } = source ?? {};
  if (typeof source?.path !== 'string' || source.path === '')
    throw new StoreInputError('source path must be a non-empty string');
  if (!Number.isInteger(start) || start < 0 || !Number.isInteger(end) || end < start)
    throw new StoreInputError(`source range [${start}, ${end}) must be non-negative integers, start ≤ end`);
}

export function shortFileError(source: FileRange, size: number): StoreInputError {
  return new StoreInputError(
    `${source.path} holds ${size} bytes, fewer than the ${source.end} to store (it shrank or was replaced)`,
  );
}

/**
 * The range's bytes, read a megabyte at a time. Fails at the end when the file ran out early, so
 * the `put` it feeds commits nothing.
 */
export async function* fileRangeBytes(source: FileRange): AsyncGenerator<Uint8Array> {
  let got = 0;
  if (source.end > source.start) {
    const stream = createReadStream(source.path, {
      start: source.start,
      end: source.end - 1,
      highWaterMark: 1 << 20,
    });
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      got += chunk.length;
      yield chunk;
    }
  }
  if (got < source.end - source.start) throw shortFileError(source, source.start + got);
}

/**
 * The range's bytes in one buffer, for a body small enough to send whole. Fails when the file ran
 * out early, before anything is sent.
 */
export async function readFileRange(source: FileRange): Promise<Buffer> {
  const bytes = Buffer.allocUnsafe(source.end - source.start);
  let got = 0;
  if (bytes.length > 0) {
    const file = await open(source.path, 'r');
    try {
      while (got < bytes.length) {
        const { bytesRead } = await file.read(bytes, got, bytes.length - got, source.start + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
    } finally {
      await file.close();
    }
  }
  if (got < bytes.length) throw shortFileError(source, source.start + got);
  return bytes;
}
