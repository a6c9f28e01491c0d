/**
 * Hand-made session documents for the views suite. Every builder parses its result with the
 * document schema, so the fixtures are exactly what ingest would write.
 */
import { createHash } from 'node:crypto';
import {
  chunkDocSchema,
  eventDocSchema,
  projectedEntrySchema,
  summaryDocSchema,
  type ChunkDoc,
  type EntryRole,
  type EventDoc,
  type ProjectedEntry,
  type SummaryDoc,
} from '../../core/documents.js';
import { docIds, MAIN_TRANSCRIPT } from '../../core/doc-ids.js';
import type { DocInput, Store, WriteResult } from '../contract.js';

export interface SummaryOptions extends Partial<Omit<SummaryDoc, 'sessionId' | 'type'>> {
  /** First and last activity; also the single activity segment unless `activity` is given. */
  span?: [string, string];
}

export function summaryDoc(sessionId: string, options: SummaryOptions = {}): SummaryDoc {
  const { span, ...overrides } = options;
  return summaryDocSchema.parse({
    _id: docIds.summary(sessionId),
    sessionId,
    type: 'summary',
    timestamp: span?.[1] ?? '2025-03-01T00:00:00.000Z',
    cwd: '/work/project',
    project: 'project',
    models: ['claude-opus-4'],
    hostname: 'laptop',
    gitBranch: 'main',
    source: 'backfill',
    provenance: 'backfilled',
    version: '2.0.0',
    firstActivity: span?.[0] ?? null,
    lastActivity: span?.[1] ?? null,
    title: `Session ${sessionId}`,
    titleSource: 'prompt',
    counts: {
      entries: 0,
      prompts: 0,
      assistantMessages: 0,
      toolCalls: 0,
      toolErrors: 0,
      malformed: 0,
      sidechainEntries: 0,
      compactions: 0,
      images: 0,
    },
    toolCallsByName: {},
    tokens: { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 },
    transcriptBytes: 0,
    files: [],
    subagents: 0,
    activity: span ? [[Date.parse(span[0]), Date.parse(span[1])]] : [],
    ...overrides,
  });
}

export function eventDoc(
  sessionId: string,
  timestamp: string,
  event: string,
  fields: Partial<Omit<EventDoc, '_id' | 'sessionId' | 'type' | 'timestamp' | 'event'>> = {},
): EventDoc {
  const hash = createHash('sha1')
    .update(JSON.stringify([event, fields]))
    .digest('hex')
    .slice(0, 12);
  return eventDocSchema.parse({
    _id: docIds.event(sessionId, timestamp, hash),
    sessionId,
    type: 'event',
    timestamp,
    event,
    ...fields,
  });
}

/** Entry `index` of a transcript, one minute after the previous by default. */
export function entry(
  index: number,
  role: EntryRole,
  text: string | undefined,
  fields: Partial<ProjectedEntry> = {},
): ProjectedEntry {
  return projectedEntrySchema.parse({
    index,
    byteStart: index * 100,
    byteEnd: index * 100 + 99,
    role,
    kind: role === 'tool_result' ? 'user' : role,
    uuid: `u-${index}`,
    timestamp: new Date(Date.parse('2025-03-01T10:00:00.000Z') + index * 60_000).toISOString(),
    ...(text !== undefined ? { text } : {}),
    ...fields,
  });
}

/** A full-content chunk holding `entries` (consecutive indexes) of one file. */
export function chunkDoc(
  sessionId: string,
  entries: ProjectedEntry[],
  file = MAIN_TRANSCRIPT,
  byteStart?: number,
): ChunkDoc {
  const first = entries[0]!;
  const start = byteStart ?? first.byteStart;
  return chunkDocSchema.parse({
    _id: docIds.chunk(sessionId, file, start),
    sessionId,
    type: 'chunk',
    timestamp: first.timestamp ?? '2025-03-01T00:00:00.000Z',
    file,
    byteStart: start,
    byteEnd: entries[entries.length - 1]!.byteEnd + 1,
    firstIndex: first.index,
    entryCount: entries.length,
    entries,
  });
}

/** Writes documents at their current revisions (as ingest does) and fails on any conflict. */
export async function putDocs(
  store: Store,
  docs: Array<DocInput | SummaryDoc | EventDoc | ChunkDoc>,
): Promise<WriteResult[]> {
  const revs = await store.docs.getRevs(docs.map((d) => d._id));
  const results = await store.docs.bulkUpsert(docs.map((d) => ({ ...d, _rev: revs.get(d._id) })));
  const conflicts = results.filter((r) => r.status === 'conflict');
  if (conflicts.length > 0) throw new Error(`unexpected conflicts: ${JSON.stringify(conflicts)}`);
  return results;
}

/** Deletes a document at its current revision. */
export async function deleteDoc(store: Store, id: string): Promise<void> {
  const rev = (await store.docs.getRevs([id])).get(id);
  if (!rev) throw new Error(`${id} does not exist`);
  const result = await store.docs.delete(id, rev);
  if (result.status !== 'written') throw new Error(`could not delete ${id}: ${result.reason}`);
}
