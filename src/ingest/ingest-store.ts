/**
 * Ingest of a store that holds many sessions (a provider with `storage: 'store'`: OpenCode's
 * `storage/` folder or `opencode.db`). Its provider lists the sessions and makes each one's
 * objects; each session is then ingested as a rewritten one (ingest-rewritten.ts): unchanged
 * objects (by content hash) cost nothing more, a changed session replaces what was stored. A
 * session that cannot be read is reported and what was stored of it is kept.
 */
import { ingestSession } from './ingest-session.js';
import type { IngestTreeOptions } from './ingest-tree.js';
import { providerById, type AgentId } from './providers/index.js';

export type IngestStoreOptions = Pick<
  IngestTreeOptions,
  'sink' | 'hostname' | 'source' | 'provenance' | 'signal' | 'runSession' | 'secretPatterns' | 'countSecrets'
> & {
  /** The store's path, as its files' `TranscriptPath.store` gives it. */
  store: string;
  agent: AgentId;
  /** The store's files changed since it was last read, when known: only their sessions are read. */
  changed?: readonly string[];
};

export interface IngestStoreResult {
  sessions: number;
  bytesRead: number;
  entries: number;
  docsWritten: number;
  docsUnchanged: number;
  failed: Array<{ file: string; error: string }>;
  forgotten: number;
}

export async function ingestStore(options: IngestStoreOptions): Promise<IngestStoreResult> {
  const provider = providerById(options.agent);
  if (provider.storage !== 'store') throw new Error(`${provider.name} keeps no store of sessions`);
  const result: IngestStoreResult = {
    sessions: 0,
    bytesRead: 0,
    entries: 0,
    docsWritten: 0,
    docsUnchanged: 0,
    failed: [],
    forgotten: 0,
  };
  const run = options.runSession ?? ((_id, ingest) => ingest());
  for await (const s of provider.readStore(options.store, options.changed)) {
    options.signal?.throwIfAborted();
    if ('error' in s) {
      result.failed.push({ file: s.file, error: s.error });
      continue;
    }
    result.sessions++;
    try {
      const r = await run(s.sessionId, () =>
        ingestSession({
          sessionId: s.sessionId,
          files: s.objects.map((o) => ({
            path: options.store,
            objectName: o.objectName,
            agent: options.agent,
            bytes: o.bytes,
          })),
          sink: options.sink,
          hostname: options.hostname,
          source: options.source,
          provenance: options.provenance,
          signal: options.signal,
          secretPatterns: options.secretPatterns,
          countSecrets: options.countSecrets,
        }),
      );
      result.bytesRead += r.bytesRead;
      result.entries += r.entries;
      result.docsWritten += r.docsWritten;
      result.docsUnchanged += r.docsUnchanged;
      for (const c of r.conflicts) result.failed.push({ file: options.store, error: `conflict: ${c}` });
      if (r.forgotten) result.forgotten++;
    } catch (err) {
      if (options.signal?.aborted) throw err;
      result.failed.push({ file: options.store, error: `session ${s.sessionId}: ${(err as Error).message}` });
    }
  }
  return result;
}
