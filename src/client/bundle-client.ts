/**
 * Client helpers for export and import on top of `ApiClient`: paging the document read route in
 * flat memory and listing a session's objects. Kept apart from api-client.ts so that file stays
 * the one place each route is spelled; these only compose its methods.
 */
import { type AllDocs, type ApiClient, type ObjectList, type ObjectPage, SHAPES } from './api-client.js';
import { ApiError } from './api-error.js';
import type { QueryOf } from './typed-client.js';

export type DocRow = AllDocs['rows'][number];

export interface DocRowsOptions {
  /** First id (inclusive). */
  startkey?: string;
  /** Last id (inclusive). */
  endkey?: string;
  includeDocs?: boolean;
  /** Aim for response bodies of about this many bytes (default 4 MiB): pages shrink when documents are large. */
  targetPageBytes?: number;
  signal?: AbortSignal;
}

const MIN_PAGE = 10;
const MAX_PAGE = 2000;

/**
 * Every row of `GET /api/store/docs` in id order. Each page starts at the previous page's last
 * id, inclusively, and drops that row when it comes back: with `skip=1` instead, a document deleted
 * between two pages would make the next one vanish from the listing. With documents, the page size adapts to their size so memory stays flat whether a
 * store holds small events or multi-megabyte chunks. The next page is requested while the caller
 * consumes this one, so the server and the client work at the same time (at most two pages held).
 */
export async function* docRows(client: ApiClient, options: DocRowsOptions = {}): AsyncGenerator<DocRow> {
  const target = options.targetPageBytes ?? 4 * 1024 * 1024;
  const fetchPage = async (startkey: string | undefined, limit: number) => {
    options.signal?.throwIfAborted();
    const query: QueryOf<'/api/store/docs'> = {
      startkey: startkey === undefined ? undefined : JSON.stringify(startkey),
      endkey: options.endkey === undefined ? undefined : JSON.stringify(options.endkey),
      limit,
      include_docs: options.includeDocs ? 'true' : undefined,
    };
    // A raw request, read as a typed call's answer would be: the page's size in characters
    // sets the next page's length, and a typed call hands on only the parsed JSON.
    const res = await client.fetchRaw('GET', '/api/store/docs', { query, signal: options.signal });
    const text = await res.text();
    const url = client.api.url('/api/store/docs', query);
    const page = client.api.read<AllDocs>(res, text, 'GET', url, SHAPES.allDocs);
    return { page, bytes: text.length, limit };
  };
  let pending = fetchPage(options.startkey, options.includeDocs ? 100 : MAX_PAGE);
  let lastId: string | undefined;
  for (;;) {
    const { page, bytes, limit } = await pending;
    let rows = page.rows;
    // The previous page's last row, if it still exists, comes back first: already yielded.
    if (lastId !== undefined && rows[0]?.id === lastId) rows = rows.slice(1);
    let next: typeof pending | null = null;
    if (page.rows.length >= limit) {
      const perRow = bytes / page.rows.length;
      const nextLimit = options.includeDocs
        ? Math.max(MIN_PAGE, Math.min(MAX_PAGE, Math.floor(target / Math.max(perRow, 1))))
        : limit;
      // +1: the row this page repeats from the last one.
      next = fetchPage(page.rows[page.rows.length - 1]!.id, nextLimit + 1);
      // A caller that stops early never awaits it: keep its failure from going unhandled.
      next.catch(() => undefined);
    }
    lastId = page.rows[page.rows.length - 1]?.id ?? lastId;
    for (const row of rows) yield row;
    if (!next) return;
    pending = next;
  }
}

/** A session's objects, or null when the target has none and no such session (404). */
export async function sessionObjects(
  client: ApiClient,
  sessionId: string,
): Promise<ObjectList['objects'] | null> {
  try {
    return (await client.objects(sessionId)).objects;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

/**
 * Every object of the source, in key order, a page per request; null when the source predates
 * the listing route (404), so the caller lists session by session instead.
 */
export async function allObjects(
  client: ApiClient,
  signal?: AbortSignal,
): Promise<ObjectPage['objects'] | null> {
  const out: ObjectPage['objects'] = [];
  let after: string | undefined;
  for (;;) {
    signal?.throwIfAborted();
    let page: ObjectPage;
    try {
      page = await client.objectPage({ after, limit: 10_000 });
    } catch (err) {
      if (after === undefined && err instanceof ApiError && err.status === 404) return null;
      throw err;
    }
    out.push(...page.objects);
    if (page.next === null) return out;
    after = page.next;
  }
}
