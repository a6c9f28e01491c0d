/**
 * The fields of a chunk document the chunk-derived views use, read defensively (the doc store
 * accepts any JSON; a malformed chunk contributes nothing rather than failing the write).
 */
import type { ProjectedEntry } from '../../core/documents.js';

export interface ChunkFields {
  file: string;
  firstIndex: number;
  entryCount: number;
  /** Empty for an index-only chunk. */
  entries: ProjectedEntry[];
}

export function chunkFields(doc: Record<string, unknown>): ChunkFields | null {
  const { file, firstIndex, entryCount, entries } = doc;
  if (typeof file !== 'string' || !Number.isInteger(firstIndex) || !Number.isInteger(entryCount)) return null;
  return {
    file,
    firstIndex: firstIndex as number,
    entryCount: entryCount as number,
    entries: Array.isArray(entries)
      ? (entries.filter(
          (e) =>
            e !== null &&
            typeof e === 'object' &&
            Number.isInteger(e.index) &&
            (e.text === undefined || typeof e.text === 'string'),
        ) as ProjectedEntry[])
      : [],
  };
}
