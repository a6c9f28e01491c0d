/**
 * What counting likely secrets costs next to ingest: every file read and scanned with the
 * redaction rules (secretlint's recommended preset, src/secrets) in pieces of about 1 MB cut at
 * line ends — the way an ingest step would scan the bytes it appends.
 */
import { createReadStream } from 'node:fs';
import { findSecrets } from '../src/secrets/scan.js';

const PIECE = 1 << 20;

export async function scanForSecrets(files: string[]): Promise<{ bytes: number; findings: number }> {
  let bytes = 0;
  let findings = 0;
  for (const file of files) {
    let rest = '';
    for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: PIECE })) {
      const text = rest + (chunk as string);
      const cut = text.lastIndexOf('\n') + 1;
      if (cut > 0) findings += (await findSecrets(text.slice(0, cut))).length;
      rest = text.slice(cut);
      bytes += Buffer.byteLength(chunk as string);
    }
    if (rest) findings += (await findSecrets(rest)).length;
  }
  return { bytes, findings };
}
