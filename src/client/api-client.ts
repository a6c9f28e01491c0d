/**
 * The CLI's (and the hook's, the MCP server's) HTTP client: one method per route it uses, each a
 * call of the typed client (typed-client.ts, which the UI uses too) — so its paths, path and query
 * parameters and bodies are checked against the API's OpenAPI description when it compiles, and
 * every answer is read one way: the JSON unwrapped, `ApiError {status, code, message}` on any
 * non-2xx, `ApiConnectionError` when nothing answers, and `NotAnApiError` (one of those) when
 * what answers is not the API — an HTML page, a proxy's plain-text 502, a body that is not JSON,
 * or JSON without the fields of the API's answer (SHAPES).
 * What it adds for the CLI: the connection pool of ordinary requests and a patient one for long
 * writes (reindex, migrations), the errors' hint (`--webapi`), and raw requests (`fetchRaw`):
 * object downloads streamed through undici with back-pressure, streamed uploads, pre-serialised
 * bodies. Browser-safe: no node:* imports (the Node-only ingest sink lives in http-sink.ts).
 *
 * @example
 * const client = new ApiClient({ baseUrl: 'http://127.0.0.1:7650' });
 * const { sessions } = await client.listSessions({ model: 'claude-opus-4-1', limit: 20 });
 */
// The answers' types are generated from the API's OpenAPI description (`npm run gen:api`), the
// same types the UI's calls have: one description, one set of types. (The blueprint is not in
// the description.)
import type { Blueprint } from '../api/schemas/blueprint.js';
import type { components, paths } from './api-schema.gen.js';
import type { Dispatcher } from 'undici';
import { ApiError } from './api-error.js';
import {
  type BodyOf,
  type Fetch,
  type QueryOf,
  type SendOptions,
  type Shape,
  TypedClient,
} from './typed-client.js';

type Schemas = components['schemas'];
export type Health = Schemas['Health'];
export type ImportStatus = Schemas['ImportStatus'];
export type IngestDocsResult = Schemas['IngestDocsResult'];
export type PutObjectResultBody = Schemas['PutObjectResult'];
export type ReindexResult = Schemas['ReindexResult'];
export type MigrateStatusBody = Schemas['MigrateStatus'];
export type MigrateResultBody = Schemas['MigrateResult'];
export type Activity = Schemas['Activity'];
export type Facets = Schemas['Facets'];
export type SearchResult = Schemas['SearchResult'];
export type Session = Schemas['Session'];
export type SessionEvents = Schemas['SessionEvents'];
export type SessionList = Schemas['SessionList'];
export type TranscriptPage = Schemas['TranscriptPage'];
export type Turns = Schemas['Turns'];
export type TurnsAcross = Schemas['TurnsAcrossSessions'];
export type AllDocs = Schemas['AllDocs'];
export type LocalDoc = Schemas['LocalDoc'];
export type ObjectList = Schemas['ObjectList'];
export type ObjectPage = Schemas['ObjectPage'];
export type RevsResult = Schemas['RevsResult'];
export type Totals = Schemas['Totals'];

export type { Blueprint };

/**
 * The fields each of the API's answers always holds (src/api/schemas), checked on arrival: a
 * service that answers JSON but is not a transcripts API (`{}` for every path, another app's
 * JSON) is a NotAnApiError naming what is missing, not a TypeError further on.
 */
export const SHAPES = {
  health: { status: 'string', version: 'string', store: 'object', search: 'object', import: 'object' },
  blueprint: { title: 'string', menus: 'array', system: 'object' },
  sessionList: { total: 'number', sessions: 'array' },
  session: { id: 'string' },
  transcriptPage: { total: 'number', entries: 'array' },
  turns: { total: 'number', turns: 'array' },
  turnsAcross: { total: 'number', turns: 'array' },
  events: { total: 'number', events: 'array' },
  search: { enabled: 'boolean', hits: 'array' },
  activity: { days: 'array' },
  facets: { values: 'array' },
  totals: { sessions: 'number', byModel: 'array' },
  migrateStatus: { currentVersion: 'number', pending: 'array', applied: 'array' },
  migrateResult: { from: 'number', to: 'number', steps: 'array' },
  allDocs: { rows: 'array' },
  doc: { _id: 'string' },
  revs: { revs: 'object' },
  objectList: { objects: 'array' },
  objectPage: { objects: 'array' },
  ingestDocs: { results: 'array' },
  putObject: { key: 'string', size: 'number' },
  reindex: { entries: 'number', sessions: 'number' },
} as const satisfies Record<string, Shape>;

/** What the errors of a wrong address tell the CLI's user to do. */
const HINT = 'Pass --webapi URL or set CT_API_URL to use another instance.';

export interface ApiClientOptions {
  /** Base URL without `/api`, e.g. `http://127.0.0.1:7650`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` (CT_API_TOKEN). */
  token?: string;
  /** How the base URL was chosen, for connection errors (`from --webapi`, …). */
  origin?: string;
  fetch?: typeof fetch;
  /** Connection pool of ordinary requests (default: Node's). */
  dispatcher?: Dispatcher;
  /**
   * Loads the connection pool of patient requests (default: the ordinary one) and of object
   * downloads (default: fetch). Node's own gives up when response headers take more than 300 s;
   * see patient-dispatcher.ts.
   */
  patientDispatcher?: () => Promise<Dispatcher>;
  /** Aborts every request that brings no signal of its own (the CLI's Ctrl-C). */
  signal?: AbortSignal;
}

/** A downloaded object: what the server answered, and the bytes handed on. */
export interface ObjectDownload {
  status: number;
  /** The length the server announced, or null. */
  contentLength: number | null;
  /** Bytes handed to `onData`. */
  bytes: number;
}

/** A request that failed before any response came: `cause` says why. */
class NoResponse extends Error {}

/**
 * One GET through undici's dispatch API, each piece of the body handed to `onData` as it comes.
 * A non-2xx answer is read (its first 64 kB) for the error it carries. A body that breaks off
 * rejects with an error naming the URL and how far it got.
 */
function dispatchInto(
  dispatcher: Dispatcher,
  url: URL,
  headers: Record<string, string>,
  onData: (piece: Uint8Array) => void | Promise<void>,
  signal: AbortSignal | undefined,
): Promise<ObjectDownload | { status: number; contentType: string | null; errorText: string }> {
  return new Promise((resolve, reject) => {
    let status = 0;
    let contentLength: number | null = null;
    let contentType: string | null = null;
    let bytes = 0;
    let failed: unknown = null;
    const decoder = new TextDecoder();
    let errorText = '';
    let abort: ((err?: Error) => void) | null = null;
    let resume: (() => void) | null = null;
    /** The receiver's last piece still being taken: the download ends once it is. */
    let pending: Promise<void> = Promise.resolve();
    // The caller's failure (a full disk, say) ends the download with its own error.
    const fail = (err: unknown) => {
      failed ??= err;
      abort?.(err instanceof Error ? err : new Error(String(err)));
    };
    const onAbort = () => abort?.(signal!.reason instanceof Error ? signal!.reason : new Error('aborted'));
    const settle = (fn: () => void) => {
      signal?.removeEventListener('abort', onAbort);
      fn();
    };
    if (signal?.aborted) return reject(new NoResponse('aborted', { cause: signal.reason }));
    signal?.addEventListener('abort', onAbort);
    dispatcher.dispatch(
      { origin: url.origin, path: url.pathname + url.search, method: 'GET', headers },
      {
        onConnect(abortRequest) {
          abort = abortRequest;
          if (signal?.aborted) onAbort();
        },
        onHeaders(statusCode, raw, resumeReading) {
          status = statusCode;
          resume = resumeReading;
          for (let i = 0; i + 1 < raw.length; i += 2) {
            const name = raw[i]!.toString().toLowerCase();
            if (name === 'content-length') contentLength = lengthOf(raw[i + 1]!.toString());
            if (name === 'content-type') contentType = raw[i + 1]!.toString();
          }
          return true;
        },
        onData(piece) {
          if (failed) return true;
          bytes += piece.length;
          if (status < 200 || status > 299) {
            if (errorText.length < 65536) errorText += decoder.decode(piece, { stream: true });
            return true;
          }
          let handled;
          try {
            handled = onData(piece);
          } catch (err) {
            fail(err);
            return true;
          }
          // (A callback typed to return void may still return a value: only a promise pauses.)
          if (!(handled instanceof Promise)) return true;
          // Reading pauses until the receiver has taken the piece.
          pending = handled.then(() => resume?.(), fail);
          return false;
        },
        onComplete() {
          void pending.then(() =>
            settle(() => {
              if (failed) return reject(failed);
              if (status >= 200 && status <= 299) return resolve({ status, contentLength, bytes });
              resolve({ status, contentType, errorText: errorText + decoder.decode() });
            }),
          );
        },
        onError(err) {
          settle(() => {
            if (failed || signal?.aborted) return reject(failed ?? err);
            if (status === 0) return reject(new NoResponse(err.message, { cause: err }));
            const of = contentLength === null ? '' : ` of ${contentLength}`;
            reject(
              new Error(
                `GET ${url.href}: the response broke off after ${bytes}${of} bytes (${err.message})`,
                {
                  cause: err,
                },
              ),
            );
          });
        },
      },
    );
  });
}

function lengthOf(header: string | null): number | null {
  return header === null || header === '' || !Number.isFinite(Number(header)) ? null : Number(header);
}

/** A raw request's options: the typed client's, with the pool chosen by `patient`. */
export type RawOptions = Omit<SendOptions, 'fetch'> & {
  /** The answer comes only when the work is done (a reindex, migrations): wait however long. */
  patient?: boolean;
};

/** The filters every session route takes, as the description names them. */
export type SessionFilters = Pick<
  QueryOf<'/api/sessions'>,
  'cwd' | 'project' | 'model' | 'hostname' | 'source' | 'agent' | 'from' | 'to'
>;

type IngestBody = BodyOf<'/api/ingest/docs', 'post'>;

/** Percent-encodes each segment of a path-like value, keeping the slashes. */
export function encodePathSegments(value: string): string {
  return value.split('/').map(encodeURIComponent).join('/');
}

export class ApiClient {
  readonly baseUrl: string;
  /** The typed client every call goes through; for a route this class has no method for. */
  readonly api: TypedClient;
  readonly #token?: string;
  readonly #fetch: typeof fetch;
  readonly #patient?: () => Promise<Dispatcher>;

  constructor(options: ApiClientOptions) {
    this.#token = options.token;
    this.#fetch = options.fetch ?? ((...args) => globalThis.fetch(...args));
    this.#patient = options.patientDispatcher;
    const dispatcher = options.dispatcher;
    this.api = new TypedClient({
      baseUrl: options.baseUrl,
      token: options.token,
      origin: options.origin,
      hint: HINT,
      fetch: dispatcher ? (url, init) => this.#fetch(url, { ...init, dispatcher }) : this.#fetch,
      signal: options.signal,
    });
    this.baseUrl = this.api.baseUrl;
  }

  /** How a patient request is sent: on the patient pool when there is one, else as any other. */
  async #patiently(): Promise<Fetch | undefined> {
    if (!this.#patient) return undefined;
    const dispatcher = await this.#patient();
    return (url, init) => this.#fetch(url, { ...init, dispatcher });
  }

  /** The raw response of a successful request (non-2xx still throws ApiError). */
  async fetchRaw(method: string, path: string, options: RawOptions = {}): Promise<Response> {
    const { patient, ...rest } = options;
    return this.api.send(method, path, { ...rest, fetch: patient ? await this.#patiently() : undefined });
  }

  // --- reading ------------------------------------------------------------------------------
  health = (options: { signal?: AbortSignal } = {}) =>
    this.api.GET('/api/health', { signal: options.signal, expect: SHAPES.health });
  blueprint = () => this.api.request<Blueprint>('GET', '/api/blueprint', { expect: SHAPES.blueprint });
  listSessions = (query: QueryOf<'/api/sessions'> = {}) =>
    this.api.GET('/api/sessions', { params: { query }, expect: SHAPES.sessionList });
  session = (id: string, options: { signal?: AbortSignal } = {}) =>
    this.api.GET('/api/sessions/{id}', {
      params: { path: { id } },
      signal: options.signal,
      expect: SHAPES.session,
    });
  transcript = (id: string, query: QueryOf<'/api/sessions/{id}/transcript'> = {}) =>
    this.api.GET('/api/sessions/{id}/transcript', {
      params: { path: { id }, query },
      expect: SHAPES.transcriptPage,
    });
  turns = (id: string, query: QueryOf<'/api/sessions/{id}/turns'> = {}) =>
    this.api.GET('/api/sessions/{id}/turns', { params: { path: { id }, query }, expect: SHAPES.turns });
  /** The turns of every session `query` selects, newest first; `from`/`to` bound the turns' own times. */
  allTurns = (query: QueryOf<'/api/turns'> = {}) =>
    this.api.GET('/api/turns', { params: { query }, expect: SHAPES.turnsAcross });
  events = (id: string, query: QueryOf<'/api/sessions/{id}/events'> = {}) =>
    this.api.GET('/api/sessions/{id}/events', { params: { path: { id }, query }, expect: SHAPES.events });
  search = (query: QueryOf<'/api/search'>) =>
    this.api.GET('/api/search', { params: { query }, expect: SHAPES.search });
  activity = (query: QueryOf<'/api/activity'> = {}) =>
    this.api.GET('/api/activity', { params: { query }, expect: SHAPES.activity });
  /** Counts over the sessions `query` selects; the attribute's own filter is ignored by the API. */
  facets = (
    attribute: paths['/api/facets/{attribute}']['get']['parameters']['path']['attribute'],
    query: QueryOf<'/api/facets/{attribute}'> = {},
  ) =>
    this.api.GET('/api/facets/{attribute}', {
      params: { path: { attribute }, query },
      expect: SHAPES.facets,
    });
  /** Tokens by model, and their cost, over the sessions `query` selects. */
  totals = (query: QueryOf<'/api/totals'> = {}) =>
    this.api.GET('/api/totals', { params: { query }, expect: SHAPES.totals });

  // --- migrations ---------------------------------------------------------------------------
  migrateStatus = () => this.api.GET('/api/migrate/status', { expect: SHAPES.migrateStatus });
  // Migrations build or drop views over the whole history: patient.
  migrateUp = async (body: BodyOf<'/api/migrate/up', 'post'> = {}) =>
    this.api.POST('/api/migrate/up', {
      body,
      expect: SHAPES.migrateResult,
      fetch: await this.#patiently(),
    });
  migrateDown = async (body: BodyOf<'/api/migrate/down', 'post'> = {}) =>
    this.api.POST('/api/migrate/down', {
      body,
      expect: SHAPES.migrateResult,
      fetch: await this.#patiently(),
    });

  // --- store reads (export) -----------------------------------------------------------------
  allDocs = (
    q: { startkey?: string; endkey?: string; limit?: number; skip?: number; includeDocs?: boolean } = {},
  ) =>
    this.api.GET('/api/store/docs', {
      params: {
        query: {
          startkey: q.startkey === undefined ? undefined : JSON.stringify(q.startkey),
          endkey: q.endkey === undefined ? undefined : JSON.stringify(q.endkey),
          limit: q.limit,
          skip: q.skip,
          include_docs: q.includeDocs ? 'true' : undefined,
        },
      },
      expect: SHAPES.allDocs,
    });

  /** One document, or null when it does not exist. */
  async getDoc<T = Record<string, unknown>>(id: string): Promise<T | null> {
    return nullOn404(
      this.api.GET('/api/store/docs/{id}', { params: { path: { id } }, expect: SHAPES.doc }) as Promise<T>,
    );
  }

  /** Instance-local state (`_local/…`), or null. */
  async getLocal<T = unknown>(id: string): Promise<T | null> {
    const doc = await this.getDoc<LocalDoc>(id);
    return doc ? (doc.value as T) : null;
  }

  getRevs = (ids: string[]) => this.api.POST('/api/store/revs', { body: { ids }, expect: SHAPES.revs });
  objects = (sessionId: string) =>
    this.api.GET('/api/store/objects/{sessionId}/', {
      params: { path: { sessionId } },
      expect: SHAPES.objectList,
    });
  /** Objects of every session in key order, after `after`. */
  objectPage = (query: QueryOf<'/api/store/objects'> = {}) =>
    this.api.GET('/api/store/objects', { params: { query }, expect: SHAPES.objectPage });
  /**
   * Streams an object into `onData`, piece by piece as it arrives; `range` as `{start, end}` (end
   * exclusive). When `onData` returns a promise, reading waits for it (back-pressure); an
   * `onData` that throws or rejects ends the download with its error.
   *
   * In Node (given a `patientDispatcher`) through undici's dispatch API, not a typed call: export
   * moves every transcript through here, and each layer of streams costs CPU per piece (1 GB of
   * objects, hashed and written: 17–18 s through a Node stream, 14–15 s handed straight on;
   * fetch's web stream cost more still). That pool also sets no time limit, so a large object on
   * a slow link is not cut off part-way. Its errors are read as every call's (`errorOf`).
   */
  async object(
    key: string,
    onData: (piece: Uint8Array) => void | Promise<void>,
    options: { range?: { start: number; end?: number }; signal?: AbortSignal } = {},
  ): Promise<ObjectDownload> {
    const { range, signal } = options;
    const path = `/api/store/objects/${encodePathSegments(key)}`;
    const headers: Record<string, string> = { accept: '*/*' };
    if (range) headers.range = `bytes=${range.start}-${range.end === undefined ? '' : range.end - 1}`;
    if (!this.#patient) {
      const res = await this.fetchRaw('GET', path, { headers, signal });
      let bytes = 0;
      for await (const piece of (res.body ?? []) as AsyncIterable<Uint8Array>) {
        await onData(piece);
        bytes += piece.length;
      }
      return { status: res.status, contentLength: lengthOf(res.headers.get('content-length')), bytes };
    }
    const url = new URL(this.api.url(path));
    if (this.#token) headers.authorization = `Bearer ${this.#token}`;
    const dispatcher = await this.#patient();
    const answer = await dispatchInto(dispatcher, url, headers, onData, signal).catch((err: unknown) => {
      if (!(err instanceof NoResponse)) throw err;
      throw signal?.aborted ? err.cause : this.api.unreachable(url.href, err.cause);
    });
    if ('errorText' in answer) {
      const { status, contentType, errorText: text } = answer;
      throw this.api.errorOf({ method: 'GET', url: url.href, status, contentType, text });
    }
    return answer;
  }

  // --- writes (backfill, import) ------------------------------------------------------------
  ingestDocs = (docs: IngestBody['docs'], locals?: IngestBody['locals']) =>
    this.api.POST('/api/ingest/docs', {
      body: locals ? { docs, locals } : { docs },
      expect: SHAPES.ingestDocs,
    });
  /**
   * The same request with documents already serialised (one JSON text each), so a caller that
   * had to measure them does not stringify them twice: a raw body, which a typed call (JSON of
   * its `body`) cannot send.
   */
  ingestDocsJson = (
    docsJson: string[],
    locals?: IngestBody['locals'],
    options: { deferSearch?: boolean } = {},
  ) =>
    this.api.request<IngestDocsResult>('POST', '/api/ingest/docs', {
      expect: SHAPES.ingestDocs,
      headers: { 'content-type': 'application/json' },
      // Bytes, not a string: fetch would first copy a string body to scan it for lone surrogates,
      // which JSON.stringify never leaves (0.7 s of a 1 GB backfill).
      body: utf8.encode(
        `{"docs":[${docsJson.join(',')}]${locals ? `,"locals":${JSON.stringify(locals)}` : ''}` +
          `${options.deferSearch ? ',"deferSearch":true' : ''}}`,
      ),
    });
  /** A streamed upload (bytes, or a stream read as it is sent): a raw body too. */
  putObject = (
    key: string,
    body: NonNullable<RequestInit['body']>,
    options: { offset?: number; sha256?: string } = {},
  ) =>
    this.api.request<PutObjectResultBody>('PUT', `/api/ingest/objects/${encodePathSegments(key)}`, {
      query: { offset: options.offset || undefined },
      expect: SHAPES.putObject,
      body,
      headers: {
        'content-type': 'application/octet-stream',
        ...(options.sha256 ? { 'x-content-sha256': options.sha256 } : {}),
      },
    });
  reindex = async () =>
    this.api.POST('/api/ingest/reindex', { expect: SHAPES.reindex, fetch: await this.#patiently() });
}

const utf8 = new TextEncoder();

async function nullOn404<T>(p: Promise<T>): Promise<T | null> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}
