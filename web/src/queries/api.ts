/**
 * The UI's API client: the typed client the CLI uses too (src/client/typed-client.ts), over the
 * types generated from `/api/openapi.json` (`npm run gen:api`), same-origin, with the token kept
 * in this browser. A call answers the response body; any non-2xx raises the shared
 * `ApiError {status, code, message}`, and nothing answering (or something that is not the API)
 * `ApiConnectionError`. Route error components recognise both with `instanceof`.
 */
import { ApiConnectionError, ApiError } from '../../../src/client/api-error.js';
import { TypedClient } from '../../../src/client/typed-client.js';
import { readToken } from '../lib/api-token.js';
import type { components } from '../../../src/client/api-schema.gen.js';

export { ApiConnectionError, ApiError };

export type Session = components['schemas']['Session'];
/** One session as `GET /api/sessions/{id}` answers: the list's fields plus reconciliation and deletion. */
export type SessionDetail = components['schemas']['SessionDetail'];
export type SessionList = components['schemas']['SessionList'];
export type TranscriptPage = components['schemas']['TranscriptPage'];
export type TranscriptEntry = TranscriptPage['entries'][number];
export type Turn = components['schemas']['Turn'];
export type Turns = components['schemas']['Turns'];
/** `GET /api/turns`: turns across sessions, each with its session's id and context. */
export type TurnsAcross = components['schemas']['TurnsAcrossSessions'];
export type SessionTurn = components['schemas']['SessionTurn'];
export type SearchResult = components['schemas']['SearchResult'];
export type SearchHit = components['schemas']['SearchHit'];
export type Activity = components['schemas']['Activity'];
export type ActivityDay = components['schemas']['ActivityDay'];
export type Facets = components['schemas']['Facets'];
/** `GET /api/totals`: the tokens and cost of the sessions the list's filters select, by model. */
export type Totals = components['schemas']['Totals'];

/**
 * Same-origin: the API serves the UI at /app, and the dev server proxies /api. The token the user
 * gave (CT_API_TOKEN on the server) goes with every call.
 */
export const api = new TypedClient({ baseUrl: globalThis.location?.origin ?? '', token: readToken });

/**
 * True when the error means nothing answered for the API: a network failure, the dev proxy's 502
 * (nothing listens at its target) or a gateway timeout. A 503 is the API itself answering that it
 * cannot serve this yet (a view not materialised, …): it is reachable, and its message says why.
 */
export function isUnreachable(err: unknown): boolean {
  if (err instanceof ApiConnectionError) return true;
  return err instanceof ApiError && (err.status === 502 || err.status === 504);
}

/** True for the API's 401: the instance wants a bearer token (CT_API_TOKEN) and got none or another. */
export function isUnauthorized(err: unknown): boolean {
  return err instanceof ApiError && err.status === 401;
}

/**
 * Whether a failed query is worth its one retry (seed §1.1: "retries a failed request once"): a
 * network failure or a 5xx may pass the second time; a 4xx is the API's answer and will not
 * change (a missing session stays missing), so it is shown at once.
 */
export function shouldRetry(failureCount: number, err: unknown): boolean {
  if (failureCount >= 1) return false;
  return !(err instanceof ApiError && err.status >= 400 && err.status < 500);
}

/** Words for any error the UI shows. */
export function describeError(err: unknown): { title: string; message: string; status?: number } {
  if (err instanceof ApiConnectionError) return { title: 'The API is unreachable', message: err.message };
  if (err instanceof ApiError) {
    if (err.status === 401)
      return {
        title: readToken() ? 'The API refused the stored token' : 'This instance needs an API token',
        message: err.message,
        status: 401,
      };
    if (isUnreachable(err))
      return { title: 'The API is unreachable', message: err.message, status: err.status };
    if (err.status === 503)
      return { title: 'The API cannot answer this yet', message: err.message, status: 503 };
    if (err.status === 404) return { title: 'Not found', message: err.message, status: 404 };
    return { title: `The API answered ${err.status}`, message: err.message, status: err.status };
  }
  return { title: 'Something went wrong', message: err instanceof Error ? err.message : String(err) };
}
