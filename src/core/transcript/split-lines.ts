/**
 * Splits a transcript byte stream into JSONL lines with exact file offsets: the ingest hot path.
 *
 * Decisions:
 * - Blank lines (empty, or only spaces, tabs and `\r`) are skipped here, so every consumer counts
 *   entries the same way; offsets of the lines around them stay exact.
 * - A `\r` right before the `\n` is excluded from `bytes` and `end`: a CRLF file projects exactly
 *   like an LF one (Claude Code writes `\n`; the stored object keeps every byte regardless).
 * - A final line without `\n` is yielded with `terminated: false`; whether to accept it or wait
 *   for its newline is the caller's call (see project-lines.ts).
 * - Bytes are never decoded here. A line spanning chunks is collected as slices and concatenated
 *   once, so a multi-megabyte line costs O(n), not O(n²).
 */

export interface RawLine {
  /** The line without its newline (and without a `\r` before it). May share memory with the chunk. */
  bytes: Buffer;
  /** Absolute offset of the line's first byte in the file. */
  start: number;
  /** Absolute offset just past `bytes` (exclusive). */
  end: number;
  /** Where the following line starts: past the `\n`, or the end of the data for an unterminated line. */
  next: number;
  /** False for a final line whose `\n` has not been written (yet). */
  terminated: boolean;
}

const LF = 10;
const CR = 13;
const SPACE = 32;
const TAB = 9;

/** True when the line holds only JSON whitespace; stops at the first other byte (usually `{`). */
function isBlank(bytes: Buffer): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b !== SPACE && b !== TAB && b !== CR) return false;
  }
  return true;
}

function makeLine(bytes: Buffer, start: number, next: number, terminated: boolean): RawLine {
  if (bytes.length > 0 && bytes[bytes.length - 1] === CR) bytes = bytes.subarray(0, bytes.length - 1);
  return { bytes, start, end: start + bytes.length, next, terminated };
}

/**
 * Yields the non-blank lines of `source`, whose first byte sits at file offset `startOffset`
 * (resume an appended file by streaming from the last consumed line's `next`).
 */
export async function* splitLines(
  source: AsyncIterable<Buffer | Uint8Array>,
  startOffset = 0,
): AsyncGenerator<RawLine> {
  let parts: Buffer[] = []; // slices of the current line from earlier chunks
  let partsLength = 0;
  let lineStart = startOffset;
  let chunkStart = startOffset;
  for await (const chunk of source) {
    const buf = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let from = 0;
    let nl = buf.indexOf(LF, from);
    while (nl !== -1) {
      let bytes = buf.subarray(from, nl);
      if (partsLength > 0) {
        parts.push(bytes);
        bytes = Buffer.concat(parts, partsLength + bytes.length);
        parts = [];
        partsLength = 0;
      }
      const next = chunkStart + nl + 1;
      if (!isBlank(bytes)) yield makeLine(bytes, lineStart, next, true);
      lineStart = next;
      from = nl + 1;
      nl = buf.indexOf(LF, from);
    }
    if (from < buf.length) {
      parts.push(buf.subarray(from));
      partsLength += buf.length - from;
    }
    chunkStart += buf.length;
  }
  if (partsLength > 0) {
    const bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts, partsLength);
    if (!isBlank(bytes)) yield makeLine(bytes, lineStart, chunkStart, false);
  }
}
