/**
 * The baseline every ingest figure is compared with: read the same files and `JSON.parse` every
 * line, nothing else. Measured in the same run on the same machine, so ratios mean something.
 */
import { createReadStream } from 'node:fs';

export async function parseOnly(files: string[]): Promise<{ lines: number; bytes: number }> {
  let lines = 0;
  let bytes = 0;
  for (const file of files) {
    let rest = '';
    for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
      const text = rest + (chunk as string);
      let start = 0;
      for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
        const line = text.slice(start, nl);
        start = nl + 1;
        if (line.length === 0) continue;
        try {
          JSON.parse(line);
        } catch {
          // malformed lines count as read
        }
        lines++;
      }
      rest = text.slice(start);
      bytes += Buffer.byteLength(chunk as string);
    }
    if (rest) {
      try {
        JSON.parse(rest);
      } catch {
        // partial last line
      }
      lines++;
    }
  }
  return { lines, bytes };
}
