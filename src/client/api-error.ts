/**
 * Errors the API client throws. `ApiError` is any non-2xx answer (status, code and message from
 * the `{error: {code, message}}` body); `ApiConnectionError` means nothing answered at all, and
 * says which URL was tried and how it was chosen, so the user knows what to change.
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
