/**
 * Errors a handler throws to end a request with a given status; `onError` in app.ts renders every
 * one as `{error: {code, message}}`. Codes are snake_case and stable (clients switch on them).
 */
export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'gone'
  | 'too_large'
  | 'unsupported_media_type'
  | 'range_not_satisfiable'
  | 'service_unavailable'
  | 'internal';

export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new HttpError(400, 'bad_request', message);
export const notFound = (message: string) => new HttpError(404, 'not_found', message);
export const conflict = (message: string) => new HttpError(409, 'conflict', message);
/** 413; the connection is closed after it, since the rest of the body was never read. */
export const tooLarge = (message: string) =>
  new HttpError(413, 'too_large', message, { connection: 'close' });

/** The code for a bare status (HTTPException from Hono's own middleware carries only a status). */
export function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return 'bad_request';
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 405:
      return 'method_not_allowed';
    case 409:
      return 'conflict';
    case 410:
      return 'gone';
    case 413:
    case 431:
      return 'too_large';
    case 415:
      return 'unsupported_media_type';
    case 416:
      return 'range_not_satisfiable';
    case 503:
      return 'service_unavailable';
    default:
      return status >= 500 ? 'internal' : 'bad_request';
  }
}
