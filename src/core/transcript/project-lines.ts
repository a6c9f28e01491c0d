/**
 * Split lines → projected entries, numbered within their file, with the one rule about the end of
 * a file that is still being written: a final line without `\n` is accepted only when it already
 * parses as a JSON object (the writer had finished it); otherwise it is half written and waits for
 * its newline, so it is not yielded and the resume cursor stays before it. (Ingest takes such a
 * line once its file has settled: ingest-session.ts, UNFINISHED_LINE_WAIT_MS.)
 */
import { projectLine, type ProjectedLine } from './project-entry.js';
import type { RawLine } from './split-lines.js';

export interface EntryLine extends ProjectedLine {
  line: RawLine;
}

/**
 * Projects `lines`, numbering entries from `firstIndex`. After consuming, the resume point is the
 * last yielded `line.next` (the file offset to stream from next time) and `entry.index + 1`.
 */
export async function* projectLines(
  lines: AsyncIterable<RawLine>,
  firstIndex = 0,
): AsyncGenerator<EntryLine> {
  let index = firstIndex;
  for await (const line of lines) {
    const projected = projectLine(line.bytes, { index, byteStart: line.start, byteEnd: line.end });
    if (!line.terminated && projected.record === null) return;
    index++;
    yield { ...projected, line };
  }
}
