/**
 * The CLI's (and the hook's, the MCP server's) HTTP client, typed with the types generated from
 * the API's OpenAPI description (api-schema.gen.ts, which the UI's openapi-fetch client uses too)
 * and reading error answers as the UI does (`apiErrorFromBody`): unwraps JSON bodies, throws
 * `ApiError {status, code, message}` on any non-2xx, `ApiConnectionError` when nothing answers,
 * and `NotAnApiError` (one of those) when what answers is not the API: an HTML page, a proxy's
 * plain-text 502, a JSON route's body that is not JSON, or JSON without the fields of the API's answer.
 * Its own transport (not openapi-fetch) for what the CLI needs beyond the UI: object downloads
 * streamed through undici with back-pressure, a patient pool for long writes, streamed uploads.
 * Browser-safe: no node:* imports (the Node-only ingest sink lives in http-sink.ts).
 *
 * @example
 * const client = new ApiClient({ baseUrl: 'http://127.0.0.1:7650' });
 * const { sessions } = await client.listSessions({ model: 'claude-opus-4-1', limit: 20 });
 */
// The answers' types are generated from the API's OpenAPI description (`npm run gen:api`), the
// same types the UI's openapi-fetch client uses: one description, one set of types. (The
// blueprint is not in the description.)
import type { Blueprint } from '../api/schemas/blueprint.js';
import type { components } from './api-schema.gen.js';

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
import type { SessionSortKey, SortDirection } from '../store/contract.js';
import type { Dispatcher } from 'undici';
import { ApiConnectionError, ApiError, NotAnApiError, apiErrorFromBody, isJsonType } from './api-error.js';

export type { Blueprint };

/** Query parameters; an array repeats its parameter (`tag=a&tag=b`). */
export type Query = Record<string, string | number | boolean | string[] | undefined | null>;

/** The JSON type of a field, as `typeof` names it (`array` for arrays, `object` for others). */
export type FieldKind = 'string' | 'number' | 'boolean' | 'array' | 'object';
/** Fields an answer of the API always holds: what tells it from JSON that is not ours. */
export type Shape = Readonly<Record<string, FieldKind>>;

/**
 * The fields each of the API's answers always holds (src/api/schemas), checked on arrival: a
 * service that answers JSON but is not a transcripts API (`{}` for every path, another app's
 * JSON) is a NotAnApiError naming what is missing, not a TypeError further on. A few fields per
 * answer — enough to tell, cheap to check, no schema library (the hook loads this file).
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

const kindOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const withArticle = (kind: string) =>
  kind === 'null' || kind === 'undefined' ? kind : `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;

/**
 * What `body` lacks of `shape`, in words (`no sessions (an array), total (a number)`), or null
 * when it has every field.
 */
export function shapeProblem(body: unknown, shape: Shape): string | null {
  if (kindOf(body) !== 'object') return `${withArticle(kindOf(body))} where the API answers an object`;
  const missing = Object.entries(shape)
    .filter(([k, kind]) => kindOf((body as Record<string, unknown>)[k]) !== kind)
    .map(([k, kind]) => `${k} (${withArticle(kind)})`);
  return missing.length ? `no ${missing.join(', ')}` : null;
}

export interface ApiClientOptions {
  /** Base URL without `/api`, e.g. `http://127.0.0.1:7650`; '' for same-origin (the UI). */
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

export interface RequestOptions {
  query?: Query;
  json?: unknown;
  body?: RequestInit['body'];
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** The answer comes only when the work is done (a reindex, migrations): wait however long. */
  patient?: boolean;
  /** Fields the answer must hold (SHAPES): JSON without them is not the API's. */
  expect?: Shape;
}

export interface SessionFilters {
  cwd?: string;
  /** The working directory's last segment: every directory so named. */
  project?: string;
  model?: string;
  hostname?: string;
  source?: string;
  /** The agent that wrote the session: claude-code, codex, gemini, opencode. */
  agent?: string;
  from?: string;
  to?: string;
}

/** Percent-encodes each segment of a path-like value, keeping the slashes. */
export function encodePathSegments(value: string): string {
  return value.split('/').map(encodeURIComponent).join('/');
}

export class ApiClient {
  readonly baseUrl: string;
  readonly #token?: string;
  readonly #origin?: string;
  readonly #fetch: typeof fetch;
  readonly #dispatcher?: Dispatcher;
  readonly #patient?: () => Promise<Dispatcher>;
  readonly #signal?: AbortSignal;

  constructor(options: ApiClientOptions) {
    this.#signal = options.signal;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#token = options.token;
    this.#origin = options.origin;
    this.#fetch = options.fetch ?? ((...args) => globalThis.fetch(...args));
    this.#dispatcher = options.dispatcher;
    this.#patient = options.patientDispatcher;
  }

  url(path: string, query?: Query): string {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) {
      if (Array.isArray(v)) for (const item of v) qs.append(k, item);
      else if (v !== undefined && v !== null) qs.set(k, String(v));
    }
    const s = qs.toString();
    return `${this.baseUrl}${path}${s ? `?${s}` : ''}`;
  }

  /** The raw response of a successful request (non-2xx still throws ApiError). */
  async fetchRaw(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const url = this.url(path, options.query);
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (this.#token) headers.authorization = `Bearer ${this.#token}`;
    let body = options.body;
    // The API takes a write only as JSON (it refuses untyped bodies, which a cross-site form can
    // send), so a write with nothing to say says `{}`.
    const json =
      options.json ?? (body === undefined && method !== 'GET' && method !== 'HEAD' ? {} : undefined);
    if (json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(json);
    }
    // fetch leaves an abort listener on the signal it is given until the request is garbage
    // collected: on a long-lived signal (the CLI's, shared by thousands of downloads in one
    // export) they pile up past Node's warning limit. A derived signal per request takes them
    // instead; it still aborts with the caller's.
    const given = options.signal ?? this.#signal;
    const signal = given && AbortSignal.any([given]);
    const init: RequestInit & { duplex?: 'half'; dispatcher?: Dispatcher } = {
      method,
      headers,
      body,
      signal,
    };
    const dispatcher = options.patient && this.#patient ? await this.#patient() : this.#dispatcher;
    if (dispatcher) init.dispatcher = dispatcher;
    if (body && typeof (body as ReadableStream).getReader === 'function') init.duplex = 'half';
    let res: Response;
    try {
      res = await this.#fetch(url, init);
    } catch (err) {
      if (given?.aborted) throw err;
      throw this.#unreachable(url, err);
    }
    if (!res.ok)
      throw this.#errorOf(
        res.status,
        await res.text().catch(() => ''),
        res.statusText,
        res.headers.get('content-type'),
        method,
        url,
      );
    return res;
  }

  /**
   * The error of a non-2xx answer: the API's `{error: {code, message}}` when it sent one (or any
   * JSON answer), else a NotAnApiError — an HTML page or a proxy's plain-text 502 is not the API.
   */
  #errorOf(
    status: number,
    text: string,
    statusText: string,
    contentType: string | null,
    method: string,
    url: string,
  ): ApiError | NotAnApiError {
    return (
      apiErrorOf(status, text, statusText, contentType, method, url) ??
      this.#notAnApi(method, url, status, contentType, text)
    );
  }

  /** `unlike`: how the JSON that came differs from the API's answer (default: it is not JSON). */
  #notAnApi(
    method: string,
    url: string,
    status: number,
    contentType: string | null,
    text: string,
    unlike?: string,
  ): NotAnApiError {
    const body = text.replace(/\s+/g, ' ').trim();
    const start = body
      ? `, starting "${[...body].length > 120 ? `${[...body].slice(0, 120).join('')}…` : body}"`
      : ', with an empty body';
    const what = unlike
      ? `JSON that is not the API's answer (${unlike})`
      : `${contentType ? `content type ${contentType}` : 'no content type'}, not the API's JSON`;
    return new NotAnApiError(
      url,
      `${this.#origin ?? this.baseUrl} did not answer like a transcripts API: ${method} ${url} got HTTP ${status} ` +
        `with ${what}${start}. ` +
        'Is it the address of `transcripts serve` (not a proxy or another web server)? ' +
        'Pass --webapi URL or set CT_API_URL to use another instance.',
      status,
      contentType,
      unlike,
    );
  }

  #unreachable(url: string, err: unknown): ApiConnectionError {
    const cause = (err as { cause?: { code?: unknown; message?: string; name?: string } }).cause;
    // A timeout is said in words: a DOMException's code is a number (23) that tells nobody anything.
    const timedOut =
      cause?.name === 'TimeoutError' ||
      (err as Error).name === 'TimeoutError' ||
      cause?.code === 'UND_ERR_HEADERS_TIMEOUT' ||
      cause?.code === 'UND_ERR_CONNECT_TIMEOUT';
    const why = timedOut
      ? 'no answer in time'
      : ((typeof cause?.code === 'string' ? cause.code : undefined) ??
        cause?.message ??
        (err as { code?: string }).code ??
        (err as Error).message);
    return new ApiConnectionError(
      url,
      `cannot reach the transcripts API at ${this.#origin ?? this.baseUrl} (${why}). ` +
        'Is `transcripts serve` running there? Pass --webapi URL or set CT_API_URL to use another instance.',
      { cause: err },
    );
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const res = await this.fetchRaw(method, path, options);
    const text = await res.text();
    if (!text && !options.expect) return undefined as T;
    return this.parseAnswer<T>(res, text, method, this.url(path, options.query), options.expect);
  }

  /**
   * The JSON of an answer already read (`text`), checked to be the API's: a JSON content type, a
   * body that parses and, given `expect`, holds those fields. Throws NotAnApiError otherwise.
   */
  parseAnswer<T>(res: Response, text: string, method: string, url: string, expect?: Shape): T {
    const contentType = res.headers.get('content-type');
    const notAnApi = (unlike?: string) => this.#notAnApi(method, url, res.status, contentType, text, unlike);
    // Every route this is for answers JSON: anything else came from something that is not the API.
    if (!isJsonType(contentType)) throw notAnApi();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw notAnApi();
    }
    const problem = expect && shapeProblem(body, expect);
    if (problem) throw notAnApi(problem);
    return body as T;
  }

  get<T>(path: string, query?: Query, expect?: Shape): Promise<T> {
    return this.request<T>('GET', path, { query, expect });
  }

  post<T>(path: string, json?: unknown, options: { patient?: boolean; expect?: Shape } = {}): Promise<T> {
    return this.request<T>('POST', path, { json: json ?? {}, ...options });
  }

  // --- reading ------------------------------------------------------------------------------
  health = (options: { signal?: AbortSignal } = {}) =>
    this.request<Health>('GET', '/api/health', { signal: options.signal, expect: SHAPES.health });
  blueprint = () => this.get<Blueprint>('/api/blueprint', undefined, SHAPES.blueprint);
  listSessions = (
    q: SessionFilters & {
      idPrefix?: string;
      text?: string;
      starred?: 'true';
      tag?: string[];
      hasNote?: 'true';
      hasSecrets?: 'true';
      sort?: SessionSortKey;
      dir?: SortDirection;
      limit?: number;
      offset?: number;
    } = {},
  ) => this.get<SessionList>('/api/sessions', q as Query, SHAPES.sessionList);
  session = (id: string, options: { signal?: AbortSignal } = {}) =>
    this.request<Session>('GET', `/api/sessions/${encodeURIComponent(id)}`, {
      signal: options.signal,
      expect: SHAPES.session,
    });
  transcript = (id: string, q: { file?: string; offset?: number; limit?: number } = {}) =>
    this.get<TranscriptPage>(`/api/sessions/${encodeURIComponent(id)}/transcript`, q, SHAPES.transcriptPage);
  turns = (id: string, q: { role?: 'user' | 'assistant'; offset?: number; limit?: number } = {}) =>
    this.get<Turns>(`/api/sessions/${encodeURIComponent(id)}/turns`, q, SHAPES.turns);
  /** The turns of every session `q` selects, newest first; `from`/`to` bound the turns' own times. */
  allTurns = (q: SessionFilters & { role?: 'user' | 'assistant'; offset?: number; limit?: number } = {}) =>
    this.get<TurnsAcross>('/api/turns', q as Query, SHAPES.turnsAcross);
  events = (id: string, q: { offset?: number; limit?: number } = {}) =>
    this.get<SessionEvents>(`/api/sessions/${encodeURIComponent(id)}/events`, q, SHAPES.events);
  search = (q: SessionFilters & { q: string; limit?: number; offset?: number }) =>
    this.get<SearchResult>('/api/search', q as unknown as Query, SHAPES.search);
  activity = (q: SessionFilters = {}) => this.get<Activity>('/api/activity', q as Query, SHAPES.activity);
  /** Counts over the sessions `q` selects; the attribute's own filter is ignored by the API. */
  facets = (
    attribute: 'cwd' | 'model' | 'hostname' | 'source' | 'agent',
    q: SessionFilters & { idPrefix?: string; text?: string } = {},
  ) => this.get<Facets>(`/api/facets/${attribute}`, q as Query, SHAPES.facets);
  /** Tokens by model, and their cost, over the sessions `q` selects. */
  totals = (q: SessionFilters & { idPrefix?: string; text?: string } = {}) =>
    this.get<Totals>('/api/totals', q as Query, SHAPES.totals);

  // --- migrations ---------------------------------------------------------------------------
  migrateStatus = () => this.get<MigrateStatusBody>('/api/migrate/status', undefined, SHAPES.migrateStatus);
  // Migrations build or drop views over the whole history: patient.
  migrateUp = (body: { to?: number; dryRun?: boolean } = {}) =>
    this.post<MigrateResultBody>('/api/migrate/up', body, { patient: true, expect: SHAPES.migrateResult });
  migrateDown = (body: { steps?: number; dryRun?: boolean } = {}) =>
    this.post<MigrateResultBody>('/api/migrate/down', body, { patient: true, expect: SHAPES.migrateResult });

  // --- store reads (export) -----------------------------------------------------------------
  allDocs = (
    q: { startkey?: string; endkey?: string; limit?: number; skip?: number; includeDocs?: boolean } = {},
  ) =>
    this.get<AllDocs>(
      '/api/store/docs',
      {
        startkey: q.startkey === undefined ? undefined : JSON.stringify(q.startkey),
        endkey: q.endkey === undefined ? undefined : JSON.stringify(q.endkey),
        limit: q.limit,
        skip: q.skip,
        include_docs: q.includeDocs ? 'true' : undefined,
      },
      SHAPES.allDocs,
    );

  /** One document, or null when it does not exist. */
  async getDoc<T = Record<string, unknown>>(id: string): Promise<T | null> {
    return nullOn404(this.get<T>(`/api/store/docs/${encodeURIComponent(id)}`, undefined, SHAPES.doc));
  }

  /** Instance-local state (`_local/…`), or null. */
  async getLocal<T = unknown>(id: string): Promise<T | null> {
    const doc = await nullOn404(
      this.get<LocalDoc>(`/api/store/docs/${encodeURIComponent(id)}`, undefined, SHAPES.doc),
    );
    return doc ? (doc.value as T) : null;
  }

  getRevs = (ids: string[]) => this.post<RevsResult>('/api/store/revs', { ids }, { expect: SHAPES.revs });
  objects = (sessionId: string) =>
    this.get<ObjectList>(
      `/api/store/objects/${encodeURIComponent(sessionId)}/`,
      undefined,
      SHAPES.objectList,
    );
  /** Objects of every session in key order, after `after`. */
  objectPage = (options: { after?: string; limit?: number } = {}) =>
    this.get<ObjectPage>(
      '/api/store/objects',
      { after: options.after, limit: options.limit },
      SHAPES.objectPage,
    );
  /**
   * Streams an object into `onData`, piece by piece as it arrives; `range` as `{start, end}` (end
   * exclusive). When `onData` returns a promise, reading waits for it (back-pressure); an
   * `onData` that throws or rejects ends the download with its error.
   *
   * In Node (given a `patientDispatcher`) through undici's dispatch API: export moves every
   * transcript through here, and each layer of streams costs CPU per piece (1 GB of objects,
   * hashed and written: 17–18 s through a Node stream, 14–15 s handed straight on; fetch's web
   * stream cost more still). That pool also sets no time limit, so a large object on a slow link
   * is not cut off part-way.
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
    const url = new URL(this.url(path));
    if (this.#token) headers.authorization = `Bearer ${this.#token}`;
    const dispatcher = await this.#patient();
    const answer = await dispatchInto(dispatcher, url, headers, onData, signal).catch((err: unknown) => {
      if (!(err instanceof NoResponse)) throw err;
      throw signal?.aborted ? err.cause : this.#unreachable(url.href, err.cause);
    });
    if ('errorText' in answer)
      throw this.#errorOf(answer.status, answer.errorText, '', answer.contentType, 'GET', url.href);
    return answer;
  }

  // --- writes (backfill, import) ------------------------------------------------------------
  ingestDocs = (docs: unknown[], locals?: Array<{ id: string; value: unknown }>) =>
    this.post<IngestDocsResult>('/api/ingest/docs', locals ? { docs, locals } : { docs }, {
      expect: SHAPES.ingestDocs,
    });
  /** The same request with documents already serialised (one JSON text each), so a caller that
   *  had to measure them does not stringify them twice. */
  ingestDocsJson = (
    docsJson: string[],
    locals?: Array<{ id: string; value: unknown }>,
    options: { deferSearch?: boolean } = {},
  ) =>
    this.request<IngestDocsResult>('POST', '/api/ingest/docs', {
      expect: SHAPES.ingestDocs,
      headers: { 'content-type': 'application/json' },
      // Bytes, not a string: fetch would first copy a string body to scan it for lone surrogates,
      // which JSON.stringify never leaves (0.7 s of a 1 GB backfill).
      body: utf8.encode(
        `{"docs":[${docsJson.join(',')}]${locals ? `,"locals":${JSON.stringify(locals)}` : ''}` +
          `${options.deferSearch ? ',"deferSearch":true' : ''}}`,
      ),
    });
  putObject = (
    key: string,
    body: NonNullable<RequestInit['body']>,
    options: { offset?: number; sha256?: string } = {},
  ) =>
    this.request<PutObjectResultBody>('PUT', `/api/ingest/objects/${encodePathSegments(key)}`, {
      query: { offset: options.offset || undefined },
      expect: SHAPES.putObject,
      body,
      headers: {
        'content-type': 'application/octet-stream',
        ...(options.sha256 ? { 'x-content-sha256': options.sha256 } : {}),
      },
    });
  reindex = () =>
    this.post<ReindexResult>('/api/ingest/reindex', {}, { patient: true, expect: SHAPES.reindex });
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

/**
 * The ApiError of a non-2xx answer (read by `apiErrorFromBody`, as the UI reads it): the API's
 * `{error: {code, message}}` when it sent one, the text of any other JSON answer; null when the
 * answer is not JSON at all (not the API).
 */
function apiErrorOf(
  status: number,
  text: string,
  statusText: string,
  contentType: string | null,
  method: string,
  url: string,
): ApiError | null {
  let body: unknown = text;
  try {
    const parsed = JSON.parse(text) as { error?: { code?: unknown } } | null;
    const object = parsed !== null && typeof parsed === 'object';
    if (typeof parsed?.error?.code === 'string' || (object && isJsonType(contentType))) body = parsed;
  } catch {
    // not JSON: keep the text
  }
  if (body === text && !isJsonType(contentType)) return null;
  return apiErrorFromBody(status, body, { method, url, statusText });
}
