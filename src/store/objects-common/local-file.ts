/**
 * An object stream that reads a byte range of a local file says so, so that a consumer that
 * owns its destination (the HTTP server, see api/send-file-range.ts) can read the file itself
 * into buffers it reuses instead of taking a new buffer per piece. The stream stays an ordinary
 * Readable for every other consumer.
 */
import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';

export interface LocalFileRange {
  /** Open on the object's file; closed when the stream is destroyed or ends. */
  handle: FileHandle;
  start: number;
  /** Exclusive. */
  end: number;
}

const ranges = new WeakMap<Readable, LocalFileRange>();

export function markLocalFile<T extends Readable>(stream: T, range: LocalFileRange): T {
  ranges.set(stream, range);
  return stream;
}

/** The file range behind a stream that has not started flowing; null for any other stream. */
export function localFileRange(stream: Readable): LocalFileRange | null {
  const range = ranges.get(stream);
  return range && stream.readableLength === 0 && !stream.readableDidRead && !stream.destroyed ? range : null;
}
