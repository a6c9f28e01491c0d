/**
 * The one client of the API: the CLI's `ApiClient` (which the hook and the MCP server use too) is
 * built on it, and so is the UI's (web/src/queries/api.ts). A call names a path of the API's
 * OpenAPI description (`paths`, api-schema.gen.ts) and is typed through openapi-fetch's types: a
 * path, a path or query parameter, or a body the description does not have fails to compile, and
 * the answer has the description's type. Every answer is read one way:
 * - 2xx: its JSON, checked to be the API's (a JSON content type, a body that parses, the fields
 *   `expect` names), else `NotAnApiError`;
 * - any other status: `ApiError {status, code, message}` from the API's error body
 *   (`apiErrorFromBody`), else (an HTML page, a proxy's plain-text 502) `NotAnApiError`;
 * - nothing answers: `ApiConnectionError`, saying where and why; an aborted call rethrows the abort.
 * A write goes as JSON, `{}` when it has nothing to say: the API refuses untyped writes (which a
 * cross-site form can send). Browser-safe: no node:* imports.
 *
 * Not openapi-fetch's `createClient` at run time: it builds a `Headers` and a `Request` for each
 * call, and in Node the first of those loads undici — one `GET /api/sessions` from a fresh
 * process took 130 ms through it against 90 ms through this (medians of 20, about 35 ms of CPU),
 * and the CLI and the hook fetch over node:http precisely to avoid loading undici.
 *
 * @example
 * const api = new TypedClient({ baseUrl: 'http://127.0.0.1:7650' });
 * const { sessions } = await api.GET('/api/sessions', { params: { query: { limit: 20 } } });
 * const session = await api.GET('/api/sessions/{id}', { params: { path: { id } } });
 */
import type {
  Client,
  ClientPathsWithMethod,
  FetchResponse,
  ParamsOption,
  RequestBodyOption,
} from 'openapi-fetch';
import type { paths } from './api-schema.gen.js';
import { ApiConnectionError, ApiError, NotAnApiError, apiErrorFromBody, isJsonType } from './api-error.js';

/** The methods the API's routes use. */
export type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';
/** The paths of the description that take `M`. */
export type PathOf<M extends Method> = ClientPathsWithMethod<Client<paths>, M>;
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
/** What a 2xx answer of `M P` carries, as the description has it. */
export type AnswerOf<P extends keyof paths, M extends Method = 'get'> = Exclude<
  FetchResponse<Operation<P, M>, object, 'application/json'>['data'],
  undefined
>;
/** The query parameters of `M P`. */
export type QueryOf<P extends keyof paths, M extends Method = 'get'> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
/** The JSON body of `M P`. */
export type BodyOf<P extends keyof paths, M extends Method> = NonNullable<
  RequestBodyOption<Operation<P, M>>['body']
>;

/** The JSON type of a field, as `typeof` names it (`array` for arrays, `object` for others). */
export type FieldKind = 'string' | 'number' | 'boolean' | 'array' | 'object';
/** Fields an answer of the API always holds: what tells it from JSON that is not ours. */
export type Shape = Readonly<Record<string, FieldKind>>;

/** Query parameters; an array repeats its parameter (`tag=a&tag=b`). */
export type Query = Record<string, string | number | boolean | readonly string[] | undefined | null>;

/** The slice of `fetch` the client uses (Node's, the CLI's over node:http, a test's `app.request`). */
export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/** What every call may add to its parameters and body. */
export interface CallOptions {
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Fields the answer must hold: JSON without them is not the API's (api-client.ts SHAPES). */
  expect?: Shape;
  /** Sends this call another way (the CLI's patient pool); default: the client's. */
  fetch?: Fetch;
}

type CallInit<O> = ParamsOption<O> & RequestBodyOption<O> & CallOptions;
/**
 * A call of one method: the answer's JSON, or with `parseAs: 'text'` its text as it came (a raw
 * transcript line, which need not be JSON). The init is optional when the route requires no
 * parameter and no body.
 */
interface Call<M extends Method> {
  <P extends PathOf<M>>(path: P, init: CallInit<Operation<P, M>> & { parseAs: 'text' }): Promise<string>;
  <P extends PathOf<M>>(
    path: P,
    ...init: object extends CallInit<Operation<P, M>>
      ? [init?: CallInit<Operation<P, M>>]
      : [init: CallInit<Operation<P, M>>]
  ): Promise<AnswerOf<P, M>>;
}

/** A request outside the typed calls: raw bodies and answers, routes the description leaves out. */
export interface SendOptions {
  query?: Query;
  /** Sent as JSON. A write with neither `json` nor `body` sends `{}`. */
  json?: unknown;
  body?: RequestInit['body'];
  headers?: Record<string, string>;
  signal?: AbortSignal;
  fetch?: Fetch;
}

/** A non-2xx answer, read whole. */
export interface ErrorAnswer {
  method: string;
  url: string;
  status: number;
  statusText?: string;
  contentType: string | null;
  text: string;
}

export interface TypedClientOptions {
  /** Base URL without `/api`, e.g. `http://127.0.0.1:7650`; the page's origin for the UI. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …`; a function is asked at each call (the UI's stored token). */
  token?: string | (() => string | null | undefined);
  /** How the base URL was chosen, for the errors (`… (from --webapi)`); default: the base URL. */
  origin?: string;
  /** What the user can do about a wrong address, ending the errors that say so. */
  hint?: string;
  /** Default: the global fetch. */
  fetch?: Fetch;
  /** Aborts every call that brings no signal of its own (the CLI's Ctrl-C). */
  signal?: AbortSignal;
}

const kindOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const withArticle = (kind: string) =>
  kind === 'null' || kind === 'undefined' ? kind : `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;

/**
 * What `body` lacks of `shape`, in words (`no sessions (an array), total (a number)`), or null
 * when it has every field. A few fields per answer — enough to tell, cheap to check, no schema
 * library (the hook loads this file).
 */
export function shapeProblem(body: unknown, shape: Shape): string | null {
  if (kindOf(body) !== 'object') return `${withArticle(kindOf(body))} where the API answers an object`;
  const missing = Object.entries(shape)
    .filter(([k, kind]) => kindOf((body as Record<string, unknown>)[k]) !== kind)
    .map(([k, kind]) => `${k} (${withArticle(kind)})`);
  return missing.length ? `no ${missing.join(', ')}` : null;
}

/** `/api/sessions/{id}` with `{id: 'a b'}` → `/api/sessions/a%20b`. */
function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/\{([^{}]+)\}/g, (_, name: string) => encodeURIComponent(String(params?.[name])));
}

const isStream = (body: unknown) => typeof (body as ReadableStream | null)?.getReader === 'function';

export class TypedClient {
  readonly baseUrl: string;
  readonly #token: TypedClientOptions['token'];
  readonly #where: string;
  readonly #hint: string;
  readonly #fetch: Fetch;
  readonly #signal?: AbortSignal;

  constructor(options: TypedClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#token = options.token;
    this.#where = options.origin ?? this.baseUrl;
    this.#hint = options.hint ? ` ${options.hint}` : '';
    this.#fetch = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
    this.#signal = options.signal;
  }

  readonly GET = ((path: string, init?: AnyInit) => this.#call('GET', path, init)) as Call<'get'>;
  readonly PUT = ((path: string, init?: AnyInit) => this.#call('PUT', path, init)) as Call<'put'>;
  readonly POST = ((path: string, init?: AnyInit) => this.#call('POST', path, init)) as Call<'post'>;
  readonly PATCH = ((path: string, init?: AnyInit) => this.#call('PATCH', path, init)) as Call<'patch'>;
  readonly DELETE = ((path: string, init?: AnyInit) => this.#call('DELETE', path, init)) as Call<'delete'>;

  async #call(method: string, path: string, init: AnyInit = {}): Promise<unknown> {
    const { params, body, expect, parseAs, ...rest } = init;
    const options = { ...rest, query: params?.query, json: body };
    if (parseAs === 'text') return (await this.send(method, fillPath(path, params?.path), options)).text();
    return this.request(method, fillPath(path, params?.path), { ...options, expect });
  }

  /** A route the description leaves out (the blueprint), or a raw body: its JSON, read as any call's. */
  async request<T>(method: string, path: string, options: SendOptions & { expect?: Shape } = {}): Promise<T> {
    const url = this.url(path, options.query);
    const res = await this.#send(method, url, options);
    const text = await res.text();
    if (!text && !options.expect) return undefined as T;
    return this.read<T>(res, text, method, url, options.expect);
  }

  /** The response of a successful request, its body unread (a non-2xx answer throws as any call's). */
  send(method: string, path: string, options: SendOptions = {}): Promise<Response> {
    return this.#send(method, this.url(path, options.query), options);
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

  async #send(method: string, url: string, options: SendOptions): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    const token = typeof this.#token === 'function' ? this.#token() : this.#token;
    if (token) headers.authorization = `Bearer ${token}`;
    let body = options.body;
    const json =
      options.json ?? (body === undefined && method !== 'GET' && method !== 'HEAD' ? {} : undefined);
    if (json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(json);
    }
    // Node's fetch leaves an abort listener on the signal it is given until the request is
    // garbage collected: on a long-lived signal (the CLI's, shared by thousands of downloads in
    // one export) they pile up past Node's warning limit. A derived signal per request takes
    // them instead; it still aborts with the caller's.
    const given = options.signal ?? this.#signal;
    const signal = given && typeof AbortSignal.any === 'function' ? AbortSignal.any([given]) : given;
    const init: RequestInit & { duplex?: 'half' } = { method, headers, body, signal };
    if (isStream(body)) init.duplex = 'half';
    let res: Response;
    try {
      res = await (options.fetch ?? this.#fetch)(url, init);
    } catch (err) {
      if (given?.aborted) throw err;
      throw this.unreachable(url, err);
    }
    if (!res.ok) {
      const text = await res.text().catch(() => '');
      const contentType = res.headers.get('content-type');
      throw this.errorOf({ method, url, status: res.status, statusText: res.statusText, contentType, text });
    }
    return res;
  }

  /**
   * The JSON of a 2xx answer already read (`text`), checked to be the API's: a JSON content type,
   * a body that parses and, given `expect`, holds those fields. Throws NotAnApiError otherwise.
   */
  read<T>(
    res: { status: number; headers: { get(name: string): string | null } },
    text: string,
    method: string,
    url: string,
    expect?: Shape,
  ): T {
    const contentType = res.headers.get('content-type');
    const notAnApi = (unlike?: string) =>
      this.#notAnApi({ method, url, status: res.status, contentType, text }, unlike);
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

  /**
   * The error of a non-2xx answer: the API's `{error: {code, message}}` when it sent one, the text
   * of any other JSON answer, else a NotAnApiError — an HTML page or a proxy's plain-text 502 is
   * not the API.
   */
  errorOf(answer: ErrorAnswer): ApiError | NotAnApiError {
    const { status, text, contentType, method, url, statusText } = answer;
    let body: unknown = text;
    try {
      const parsed = JSON.parse(text) as { error?: { code?: unknown } } | null;
      const object = parsed !== null && typeof parsed === 'object';
      if (typeof parsed?.error?.code === 'string' || (object && isJsonType(contentType))) body = parsed;
    } catch {
      // not JSON: keep the text
    }
    if (body === text && !isJsonType(contentType)) return this.#notAnApi(answer);
    return apiErrorFromBody(status, body, { method, url, statusText });
  }

  /** `unlike`: how the JSON that came differs from the API's answer (default: it is not JSON). */
  #notAnApi(answer: ErrorAnswer, unlike?: string): NotAnApiError {
    const { method, url, status, contentType } = answer;
    const body = answer.text.replace(/\s+/g, ' ').trim();
    const start = body
      ? `, starting "${[...body].length > 120 ? `${[...body].slice(0, 120).join('')}…` : body}"`
      : ', with an empty body';
    const what = unlike
      ? `JSON that is not the API's answer (${unlike})`
      : `${contentType ? `content type ${contentType}` : 'no content type'}, not the API's JSON`;
    return new NotAnApiError(
      url,
      `${this.#where} did not answer like a transcripts API: ${method} ${url} got HTTP ${status} ` +
        `with ${what}${start}. ` +
        'Is it the address of `transcripts serve` (not a proxy or another web server)?' +
        this.#hint,
      status,
      contentType,
      unlike,
    );
  }

  /** The error of a request that got no answer at all, saying why in words. */
  unreachable(url: string, err: unknown): ApiConnectionError {
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
      `cannot reach the transcripts API at ${this.#where} (${why}). Is \`transcripts serve\` running there?` +
        this.#hint,
      { cause: err },
    );
  }
}

/** Any call's init, as the implementation sees it (the types above hold callers to the description). */
interface AnyInit extends CallOptions {
  params?: { path?: Record<string, unknown>; query?: Query };
  body?: unknown;
  parseAs?: 'text';
}
