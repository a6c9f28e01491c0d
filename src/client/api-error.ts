/**
 * Errors the API client throws. `ApiError` is any non-2xx answer (status, code and message from
 * the `{error: {code, message}}` body); `ApiConnectionError` means the API was not reached — nothing
 * answered, or (`NotAnApiError`) something else did — and says which URL was tried and how it was
 * chosen, so the user knows what to change.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly method: string,
    readonly url: string,
  ) {
    super(message);
  }
}

export class ApiConnectionError extends Error {
  override name = 'ApiConnectionError';
  constructor(
    readonly url: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * Something answered, but not like a transcripts API: an HTML page, a proxy's plain-text 502, a
 * body that is not JSON, JSON without the fields the API's answer has (another service). Says what answered (status, content type, the start of the body) and
 * where, so the user can see that the address is wrong rather than the API broken. It is an
 * `ApiConnectionError` (and keeps that name): like an address where nothing listens, the API was
 * not reached, so a hook spools its events until the address is fixed rather than dropping them.
 */
export class NotAnApiError extends ApiConnectionError {
  constructor(
    url: string,
    message: string,
    readonly status: number,
    readonly contentType: string | null,
    /** For JSON that is not the API's answer: what it lacks (`no sessions (an array)`). */
    readonly unlike?: string,
  ) {
    super(url, message);
  }
}

/** `application/json`, `application/problem+json`, … (not `application/x-ndjson`). */
export function isJsonType(contentType: string | null): boolean {
  return contentType !== null && /(^|[/+])json\s*(;|$)/i.test(contentType.trim());
}

/**
 * How the typed client (typed-client.ts, the CLI's and the UI's) reads a non-2xx answer's body:
 * the API's error body (`{error: {code, message}}`, the `Error` schema of every route) becomes an
 * ApiError with that code and message. Any other body keeps its text (a string, or other JSON)
 * as the message, at most 500 characters, under the code `http_<status>`.
 */
export function apiErrorFromBody(
  status: number,
  body: unknown,
  at: { method: string; url: string; statusText?: string },
): ApiError {
  let code = `http_${status}`;
  let message: string | undefined;
  if (body !== null && typeof body === 'object') {
    const e = (body as { error?: { code?: unknown; message?: unknown } }).error;
    if (typeof e?.code === 'string') code = e.code;
    if (typeof e?.message === 'string') message = e.message;
    else message = JSON.stringify(body).slice(0, 500);
  } else if (typeof body === 'string' && body.trim() !== '') message = body.trim().slice(0, 500);
  return new ApiError(status, code, message || at.statusText || `HTTP ${status}`, at.method, at.url);
}
