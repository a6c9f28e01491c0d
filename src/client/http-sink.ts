/**
 * The ingest sink over HTTP: the same pipeline that writes into the store in process writes
 * through `/api/ingest/*` here, so `backfill` works against any reachable instance.
 * Node only (streams, sha256).
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { IngestSink } from '../ingest/sink.js';
import { checkFileRange, fileRangeBytes } from '../store/objects-common/file-range.js';
import type { DocInput, StoredDoc, WriteResult } from '../store/contract.js';
import type { ApiClient } from './api-client.js';

/** Ids per revisions request. */
const REVS_BATCH = 5000;
/** Keep each ingest request well under the server's 64 MiB JSON limit. */
const MAX_BATCH_BYTES = 48 * 1024 * 1024;

export function httpSink(client: ApiClient): IngestSink {
  return {
    async getRevs(ids) {
      const out = new Map<string, string>();
      for (let i = 0; i < ids.length; i += REVS_BATCH) {
        const { revs } = await client.getRevs(ids.slice(i, i + REVS_BATCH));
        for (const [id, rev] of Object.entries(revs)) out.set(id, rev);
      }
      return out;
    },

    getDoc: (id) => client.getDoc<StoredDoc>(id),

    getLocal: (id) => client.getLocal(id),

    async putFile(key, source, options = {}) {
      checkFileRange(source);
      // Hashed on the way, so a corrupted transfer is caught.
      const hash = createHash('sha256');
      let unreadable: unknown;
      const body = Readable.from(
        (async function* () {
          try {
            for await (const chunk of fileRangeBytes(source)) {
              hash.update(chunk);
              yield chunk;
            }
          } catch (err) {
            unreadable = err;
            throw err;
          }
        })(),
      );
      let result;
      try {
        result = await client.putObject(key, Readable.toWeb(body) as unknown as ReadableStream, options);
      } catch (err) {
        // The file failing (it shrank) breaks the upload: that is the error, not the connection.
        throw unreadable ?? err;
      }
      const local = hash.digest('hex');
      if (result.sha256 !== local)
        throw new Error(
          `upload of ${key} was corrupted in transit: sent sha256 ${local}, server stored ${result.sha256}`,
        );
      return result;
    },

    async commit(docs, locals) {
      const batches = splitBatches(docs);
      const results: WriteResult[] = [];
      // Local state (the ingest cursor) goes with the last batch: it only advances once every
      // document is in, so an interrupted run repeats (idempotently) rather than skips.
      for (let i = 0; i < batches.length; i++) {
        const last = i === batches.length - 1;
        const r = await client.ingestDocsJson(batches[i]!, last ? locals : []);
        results.push(...r.results);
      }
      return results;
    },
  };
}

/** Serialises each document once and groups the JSON texts into requests under the size limit. */
function splitBatches(docs: DocInput[]): string[][] {
  const batches: string[][] = [[]];
  let size = 0;
  for (const doc of docs) {
    const json = JSON.stringify(doc);
    const bytes = Buffer.byteLength(json) + 1; // the limit is in bytes; non-ASCII text takes more
    if (size + bytes > MAX_BATCH_BYTES && batches[batches.length - 1]!.length > 0) {
      batches.push([]);
      size = 0;
    }
    batches[batches.length - 1]!.push(json);
    size += bytes;
  }
  return batches;
}
