/** Reads one transcript line's bytes from the object store by the entry's byte range. */
import type { ProjectedEntry } from '../core/documents.js';
import type { Store } from '../store/contract.js';
import { notFound } from './http-error.js';

export interface RawLine {
  bytes: Buffer;
  /** The line is not valid JSON (it is returned as-is all the same). */
  malformed: boolean;
}

export async function readRawLine(store: Store, key: string, entry: ProjectedEntry): Promise<RawLine> {
  const stream = await store.objects.get(key, { start: entry.byteStart, end: entry.byteEnd });
  if (!stream) throw notFound(`object ${key} not found`);
  const parts: Buffer[] = [];
  for await (const chunk of stream)
    parts.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  const bytes = Buffer.concat(parts);
  let malformed = entry.malformed === true;
  if (!malformed) {
    try {
      JSON.parse(bytes.toString('utf8'));
    } catch {
      malformed = true;
    }
  }
  return { bytes, malformed };
}
