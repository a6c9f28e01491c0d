/**
 * Wire schemas shared by several route groups: the error body, paging, session filters and
 * path parameters. zod only, no node:* — the client and the UI import these types.
 */
import { z } from '@hono/zod-openapi';
import { objectKeyProblem, sessionIdProblem } from '../../core/object-key.js';

export const errorSchema = z
  .object({
    error: z.object({
      code: z.string().openapi({ example: 'bad_request' }),
      message: z.string().openapi({ example: 'query parameter limit: expected number, received NaN' }),
    }),
  })
  .openapi('Error');
export type ErrorBody = z.infer<typeof errorSchema>;

/** Response entries for the error statuses a route can produce. */
export function errorResponses(
  ...statuses: number[]
): Record<number, { description: string; content: { 'application/json': { schema: typeof errorSchema } } }> {
  const words: Record<number, string> = {
    400: 'A parameter or body field is invalid; the message names it',
    401: 'Missing or wrong bearer token (only when CT_API_TOKEN is set)',
    404: 'Not found',
    409: 'Revision conflict',
    413: 'Body over the size limit',
    416: 'Range not satisfiable',
    503: 'A view this route needs is not materialised (a migration is pending)',
  };
  const out: ReturnType<typeof errorResponses> = {};
  for (const s of statuses)
    out[s] = { description: words[s] ?? 'Error', content: { 'application/json': { schema: errorSchema } } };
  return out;
}

/** A non-negative integer as it appears in a URL: digits only (no sign, no decimals, not empty). */
export const uintString = () =>
  z
    .string()
    .regex(/^\d{1,15}$/, { error: 'must be a non-negative integer' })
    .transform(Number);

/** A non-negative integer in a query string. */
export const intParam = (name: string, description: string) =>
  uintString()
    .optional()
    .openapi({ param: { name, in: 'query' }, description, type: 'integer', minimum: 0 });

const isoPattern = /^(\d{4}-\d{2}-\d{2})(?:[T ]([0-9:.]+)(Z|[+-]\d{2}:?\d{2})?)?$/;

const ISO_EXAMPLE = 'must be an ISO 8601 date or time, e.g. 2025-07-01 or 2025-07-01T12:00:00Z';

/**
 * Reads an ISO 8601 date or time as UTC milliseconds, or explains why it cannot: a time without
 * a zone is UTC (never the server's local zone), a bare date is the start of that UTC day (`end`:
 * its last millisecond), and a day that does not exist (2025-02-30, 2025-06-31) is refused
 * rather than rolled into the next month. The CLI's `parseIsoOption` reads values the same way.
 */
export function readIsoTime(value: string, end = false): { ms: number } | { problem: string } {
  const m = isoPattern.exec(value);
  const day = m?.[1];
  if (!m || !day) return { problem: ISO_EXAMPLE };
  const midnight = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(midnight)) return { problem: ISO_EXAMPLE };
  if (new Date(midnight).toISOString().slice(0, 10) !== day)
    return { problem: `must be a calendar date: ${day} does not exist` };
  if (m[2] === undefined) return { ms: end ? midnight + 86_400_000 - 1 : midnight };
  const ms = Date.parse(`${day}T${m[2]}${m[3] ?? 'Z'}`);
  return Number.isNaN(ms) ? { problem: ISO_EXAMPLE } : { ms };
}

/** An ISO 8601 date or time (UTC unless it gives a zone); a bare date as `to` means the end of that (UTC) day. */
export const isoParam = (name: string, description: string) =>
  z
    .string()
    .superRefine((s, ctx) => {
      const r = readIsoTime(s);
      if ('problem' in r) ctx.addIssue({ code: 'custom', message: r.problem });
    })
    .optional()
    .openapi({ param: { name, in: 'query' }, description, example: '2025-07-01' });

/** Normalises a validated ISO param to a UTC timestamp; `end` widens a bare date to its last ms. */
export function isoBound(value: string | undefined, end: boolean): string | undefined {
  if (value === undefined) return undefined;
  const r = readIsoTime(value, end);
  if ('problem' in r) throw new Error(`isoBound: unvalidated value "${value}"`);
  return new Date(r.ms).toISOString();
}

const filterString = (name: string, description: string) =>
  z
    .string()
    .min(1, { error: 'must not be empty' })
    .optional()
    .openapi({ param: { name, in: 'query' }, description });

/** The session filters shared by the list, search and activity routes (exact match on each). */
export const filterQueryShape = {
  cwd: filterString('cwd', 'exact working directory'),
  model: filterString('model', 'exact model name (any model the session used)'),
  hostname: filterString('hostname', 'exact host name'),
  source: filterString('source', 'exact recorder (`live`, `backfill`, …)'),
  from: isoParam('from', 'sessions whose activity overlaps [from, to]; ISO date or time'),
  to: isoParam('to', 'end of the range (a bare date means the end of that UTC day)'),
};

export const pageQueryShape = {
  limit: intParam('limit', 'page size (clamped to the route maximum)'),
  offset: intParam('offset', 'items to skip'),
};

/**
 * Checks `from <= to` after the individual params validated, comparing the bounds as the routes
 * use them: a bare date `to` is the end of its day, so `from=2025-08-24T19:00:00Z&to=2025-08-24` holds.
 */
export function rangeProblem(from?: string, to?: string): string | null {
  if (from && to && Date.parse(isoBound(from, false)!) > Date.parse(isoBound(to, true)!))
    return 'query parameter from: must not be after to';
  return null;
}

export const sessionIdParam = z
  .string()
  .refine((s) => sessionIdProblem(s) === null, { error: 'not a valid session id' })
  .openapi({ param: { name: 'id', in: 'path' }, example: '5c0375b4-57a5-4f26-b12d-d022ee4e51b7' });

/** An object name within a session (`transcript.jsonl`, `subagents/agent-1.jsonl`). */
export const objectNameSchema = z.string().refine((s) => objectKeyProblem(`x/${s}`) === null, {
  error:
    'must be a relative object name such as transcript.jsonl or subagents/<name>.jsonl (no "..", no absolute paths)',
});
