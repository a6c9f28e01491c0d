/**
 * Wire schemas shared by several route groups: the error body, paging, session filters and
 * path parameters. zod only, no node:* — the client and the UI import these types.
 */
import { z } from '@hono/zod-openapi';
import { objectKeyProblem, sessionIdProblem } from '../../core/object-key.js';
import { readIsoTime } from '../../core/iso-time.js';
import { MAX_OFFSET } from '../../core/doc-limits.js';
import { MAX_TAGS, tagProblem } from '../../core/annotation-rules.js';
import type { SessionFilter } from '../../store/contract.js';
import { MAX_TEXT_WORDS } from '../../store/views-common/session-filter.js';

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
    400: 'A parameter or body field is invalid, or a query parameter is unknown; the message names it',
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

/** A non-negative integer as it appears in a URL, at most `max` (the message names the bound). */
export const boundedUintString = (max: number) =>
  uintString().refine((n) => n <= max, { error: `must be at most ${max}` });

/** A non-negative integer in a query string (at most `max` when given). */
export const intParam = (name: string, description: string, max?: number) =>
  (max === undefined ? uintString() : boundedUintString(max)).optional().openapi({
    param: { name, in: 'query' },
    description,
    type: 'integer',
    minimum: 0,
    ...(max === undefined ? {} : { maximum: max }),
  });

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
  project: filterString(
    'project',
    "exact project: the working directory's last segment, so every directory so named",
  ),
  model: filterString('model', 'exact model name (any model the session used)'),
  hostname: filterString('hostname', 'exact host name'),
  source: filterString('source', 'exact recorder (`live`, `backfill`, …)'),
  agent: filterString(
    'agent',
    'the agent that wrote the session: `claude-code`, `codex`, `gemini` or `opencode` (exact)',
  ),
  from: isoParam('from', 'sessions whose activity overlaps [from, to]; ISO date or time'),
  to: isoParam('to', 'end of the range (a bare date means the end of that UTC day)'),
};

/** A bound on the list's free-text filter (words are bounded by MAX_TEXT_WORDS too). */
const MAX_TEXT_CHARS = 1000;

/** One tag of a filter, refused with the rule when it is not one. */
const tagString = z.string().superRefine((t, ctx) => {
  const problem = tagProblem(t);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/**
 * The session list's filters: the shared ones plus the id prefix and free text, taken alike by
 * the list and the facets (whose counts are over the sessions the list would show).
 */
export const listFilterQueryShape = {
  ...filterQueryShape,
  idPrefix: z
    .string()
    .min(1)
    .optional()
    .openapi({ param: { name: 'idPrefix', in: 'query' }, description: 'session id prefix' }),
  text: z
    .string()
    .max(MAX_TEXT_CHARS, { error: `must be at most ${MAX_TEXT_CHARS} characters` })
    .refine((v) => v.split(/\s+/).filter(Boolean).length <= MAX_TEXT_WORDS, {
      error: `must have at most ${MAX_TEXT_WORDS} words`,
    })
    .optional()
    .openapi({
      param: { name: 'text', in: 'query' },
      description:
        `words separated by spaces (at most ${MAX_TEXT_WORDS}), each found, case aside, in the ` +
        "session's title, project, working directory or id; every word must be found",
    }),
  starred: z
    .enum(['true', 'false'])
    .optional()
    .openapi({ param: { name: 'starred', in: 'query' }, description: '`true`: only starred sessions' }),
  tag: z
    .union([tagString, z.array(tagString).max(MAX_TAGS)])
    .optional()
    .openapi({
      param: { name: 'tag', in: 'query', style: 'form', explode: true },
      description: 'only sessions carrying this tag; repeat it for several, all of which must match',
    }),
  hasNote: z
    .enum(['true', 'false'])
    .optional()
    .openapi({ param: { name: 'hasNote', in: 'query' }, description: '`true`: only sessions with a note' }),
  hasSecrets: z
    .enum(['true', 'false'])
    .optional()
    .openapi({
      param: { name: 'hasSecrets', in: 'query' },
      description:
        '`true`: only sessions holding likely secrets, as counted at ingest (a session ingested before ' +
        'secrets were counted is not among them)',
    }),
};

/** The store's filter for validated `filterQueryShape` params (the range bounds normalised). */
export function sessionFilter(q: { [K in keyof typeof filterQueryShape]?: string }): SessionFilter {
  return {
    cwd: q.cwd,
    project: q.project,
    model: q.model,
    hostname: q.hostname,
    source: q.source,
    agent: q.agent,
    from: isoBound(q.from, false),
    to: isoBound(q.to, true),
  };
}

/** The store's filter for validated `listFilterQueryShape` params. */
export function listFilter(
  q: { [K in Exclude<keyof typeof listFilterQueryShape, 'tag'>]?: string } & { tag?: string | string[] },
): SessionFilter {
  const tags = q.tag === undefined ? [] : Array.isArray(q.tag) ? q.tag : [q.tag];
  return {
    ...sessionFilter(q),
    idPrefix: q.idPrefix,
    text: q.text,
    ...(q.starred === 'true' ? { starred: true } : {}),
    ...(q.hasNote === 'true' ? { hasNote: true } : {}),
    ...(q.hasSecrets === 'true' ? { hasSecrets: true } : {}),
    ...(tags.length > 0 ? { tags } : {}),
  };
}

/**
 * How a paged route treats `limit`, given as the numbers its handler clamps with (`MAX_LIMIT`,
 * `DEFAULT_LIMIT` in deps.ts): `default` is a number, or the setting it comes from.
 */
export interface LimitRule {
  max: number;
  default: number | string;
  /** Smallest accepted value (default 0, which answers just the total). */
  min?: number;
}

/** The `limit` query parameter of a paged route, its description generated from the rule. */
export const limitParam = (rule: LimitRule) =>
  uintString()
    .optional()
    .openapi({
      param: { name: 'limit', in: 'query' },
      description:
        `page size: default ${rule.default}; over ${rule.max} it is clamped to ${rule.max}, not refused` +
        ((rule.min ?? 0) === 0 ? '; 0 answers just the total' : ''),
      type: 'integer',
      minimum: rule.min ?? 0,
      ...(typeof rule.default === 'number' ? { default: rule.default } : {}),
    });

/** `limit` and `offset` of a paged route. */
export const pageQueryShape = (rule: LimitRule) => ({
  limit: limitParam(rule),
  offset: intParam('offset', `items to skip (at most ${MAX_OFFSET})`, MAX_OFFSET),
});

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
