/**
 * `GET /api/store/docs?include_docs=true` as a stream. A page may ask for 10,000 documents, and
 * chunk documents run to megabytes: built whole, one page over the chunks of a 10 GB history was
 * some 1.3 GB of JSON in the server's memory. The page is read from the store a few MB at a time
 * (continuing after the last id, as a client pages) and written out as it goes; the response is
 * the same JSON, rows in the same order. A failure part-way ends the response before its closing
 * brackets, so a client never mistakes a cut page for a whole one. Between steps the store may
 * change (it is not one snapshot, as a client's own paging is not); no live document is skipped.
 */
import type { AllDocsResult, DocStore } from '../store/contract.js';

export interface AllDocsPage {
  startkey?: string;
  endkey?: string;
  limit: number;
  skip: number;
}

/** Rows read per step at first, and the JSON each step aims at. */
const FIRST_STEP_ROWS = 20;
const STEP_BYTES = 4 * 1024 * 1024;
const MAX_STEP_ROWS = 1000;

export async function* allDocsJson(
  docs: DocStore,
  page: AllDocsPage,
  stepBytes = STEP_BYTES,
): AsyncGenerator<string> {
  let remaining = page.limit;
  let step = Math.min(FIRST_STEP_ROWS, remaining);
  let result: AllDocsResult = await docs.allDocs({
    startkey: page.startkey,
    endkey: page.endkey,
    skip: page.skip,
    limit: step,
    includeDocs: true,
  });
  yield `{"total_rows":${result.total_rows},"offset":${result.offset},"rows":[`;
  let comma = '';
  for (;;) {
    const json = result.rows.map((r) => JSON.stringify(r)).join(',');
    if (json) yield comma + json;
    comma = ',';
    remaining -= result.rows.length;
    if (remaining <= 0 || result.rows.length < step) break;
    // The next step sized from this one's rows, so each is about `stepBytes` of JSON.
    step = Math.max(
      1,
      Math.min(
        remaining,
        MAX_STEP_ROWS,
        Math.floor(stepBytes / Math.max(1, json.length / result.rows.length)),
      ),
    );
    // From the last id written, inclusive, dropping it when it is still there: `skip: 1` would
    // instead drop the next document if that one was deleted in between.
    const last = result.rows[result.rows.length - 1]!.id;
    const next = await docs.allDocs({
      startkey: last,
      endkey: page.endkey,
      limit: step + 1,
      includeDocs: true,
    });
    const rows = next.rows[0]?.id === last ? next.rows.slice(1) : next.rows.slice(0, step);
    result = { ...next, rows };
  }
  yield ']}';
}
