/**
 * The query-string state of every route, as zod schemas whose `.catch` defaults make invalid
 * state fall back instead of failing (seed §1.1, "each route validates its own query-string
 * state"). TanStack Router's default parser turns `?q=42` into a number, so text fields accept
 * numbers and turn them back into strings.
 */
import { z } from './zod.js';
import { parseIsoDay } from './date-phrases.js';
import { SESSION_SORTS } from './session-sort.js';

/**
 * The query string as the router reads it: every value as the text it is. (The router's default
 * reads each value as JSON when it parses, so a hand-written `?q="timer state"` arrived as the
 * two words `timer state`, its quotes — a phrase in search syntax — gone.) Schemas below turn
 * numbers back from text.
 */
export function parseSearchString(search: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(search.startsWith('?') ? search.slice(1) : search)) out[k] = v;
  return out;
}

/** The query string for a search object: text as it is, numbers and booleans as text, no undefined. */
export function stringifySearchObject(search: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(search)) {
    if (v === undefined || v === null) continue;
    params.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** A non-empty string (numbers accepted and stringified); anything else → undefined. */
const text = () =>
  z
    .union([z.string(), z.number()])
    .transform((v) => String(v).trim())
    .pipe(z.string().min(1).max(1000))
    .optional()
    .catch(undefined);

/** A calendar date `YYYY-MM-DD`; anything else → undefined. */
const day = () =>
  z
    .string()
    .refine((s) => parseIsoDay(s) !== null)
    .optional()
    .catch(undefined);

/** A non-negative integer; anything else → undefined. */
const index = () => z.coerce.number().int().min(0).max(1e9).optional().catch(undefined);

/**
 * The session filters `GET /api/sessions`, `GET /api/search` and `GET /api/activity` take. A
 * `project` is a name as typed (`project:hap`, a saved link): the pages resolve it to the exact
 * project name the API matches (`projectName`), every directory so named.
 */
export const filterShape = {
  cwd: text(),
  project: text(),
  model: text(),
  hostname: text(),
  source: text(),
  agent: text(),
  from: day(),
  to: day(),
};

/**
 * A range that ends before it starts is invalid state like any other: both bounds fall back to
 * none (the API would refuse the pair with a 400).
 */
export function validRange<T extends { from?: string; to?: string }>(v: T): T {
  return v.from !== undefined && v.to !== undefined && v.from > v.to
    ? { ...v, from: undefined, to: undefined }
    : v;
}

export const sessionListSearchSchema = z
  .object({
    ...filterShape,
    /** Session id prefix (`GET /api/sessions?idPrefix`). */
    idPrefix: text(),
    /** Words each session's title, project, directory or id must contain (`GET /api/sessions?text`). */
    text: text(),
    /** Only starred sessions (`GET /api/sessions?starred=true`, omnibox `is:starred`). */
    starred: z.enum(['true']).optional().catch(undefined),
    /** Tags, comma-separated, every one of which a session must carry (`?tag=a&tag=b`, `tag:a`). */
    tag: z
      .string()
      .regex(/^[a-z0-9]+(?:[-/][a-z0-9]+)*(?:,[a-z0-9]+(?:[-/][a-z0-9]+)*)*$/)
      .max(1000)
      .optional()
      .catch(undefined),
    /** Only sessions with a note (`?hasNote=true`, `has:note`). */
    hasNote: z.enum(['true']).optional().catch(undefined),
    /** Only sessions holding likely secrets (`?hasSecrets=true`, `has:secrets`). */
    hasSecrets: z.enum(['true']).optional().catch(undefined),
    /** The list's order (`GET /api/sessions?sort&dir`); absent: newest activity first. */
    sort: z.enum(SESSION_SORTS).optional().catch(undefined),
    dir: z.enum(['asc', 'desc']).optional().catch(undefined),
  })
  .transform(validRange);
export type SessionListSearch = z.infer<typeof sessionListSearchSchema>;

export const calendarSearchSchema = z.object({
  ...filterShape,
  /** The month shown, `YYYY-MM`; default: the current month. */
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/)
    .optional()
    .catch(undefined),
  /** The day whose sessions are open, `YYYY-MM-DD`. */
  day: day(),
});
export type CalendarSearch = z.infer<typeof calendarSearchSchema>;

/**
 * The first item of a page of `size`: an offset inside a page (`?offset=7`, typed or from an old
 * link) is the page it falls in, the items and the pager agreeing; the first page is no offset.
 * On loading, the router writes the page's own offset back into the URL.
 */
const pageOffset = (size: number) =>
  index()
    .transform((o) => (o === undefined ? undefined : Math.floor(o / size) * size || undefined))
    .optional();

/** Hits on one page of search results. */
export const SEARCH_PAGE_SIZE = 20;

export const searchPageSearchSchema = z
  .object({
    ...filterShape,
    q: text(),
    /** The first hit shown: the start of a page (`pageOffset`). */
    offset: pageOffset(SEARCH_PAGE_SIZE),
  })
  .transform(validRange);
export type SearchPageSearch = z.infer<typeof searchPageSearchSchema>;

/** Turns on one page of the Turns page (the API's default page). */
export const TURNS_PAGE_SIZE = 50;

/** The Turns page's sides: what you typed, what Claude said, or both. */
export const turnRoles = ['user', 'assistant', 'both'] as const;
export type TurnRoleChoice = (typeof turnRoles)[number];
/** Absent from the URL: your prompts, what the page is mostly for. */
export const DEFAULT_TURN_ROLE: TurnRoleChoice = 'user';

export const turnsSearchSchema = z
  .object({
    ...filterShape,
    /**
     * The side shown: `user` (the default, so written as no parameter), `assistant` or `both`.
     * `from`/`to` bound the turns' own time here, not their sessions' activity.
     */
    role: z.enum(turnRoles).optional().catch(undefined),
    /** The first turn shown: the start of a page (`pageOffset`). */
    offset: pageOffset(TURNS_PAGE_SIZE),
  })
  .transform(validRange)
  // The default side is no parameter, so each view has one URL.
  .transform((v) => (v.role === DEFAULT_TURN_ROLE ? { ...v, role: undefined } : v));
export type TurnsSearch = z.infer<typeof turnsSearchSchema>;

const SPEAKER_OF_ROLE = { user: 'you', assistant: 'claude', both: 'both' } as const;

/** The toggle's position (Both / You / Claude, as on a session) for the Turns page's `role`. */
export function speakerOfRole(role: TurnRoleChoice | undefined): (typeof sessionViews)[number] {
  return SPEAKER_OF_ROLE[role ?? DEFAULT_TURN_ROLE];
}

/** The Turns page's `role` for a toggle position: the default as no parameter. */
export function roleOfSpeaker(speaker: (typeof sessionViews)[number]): TurnRoleChoice | undefined {
  const role = (Object.keys(SPEAKER_OF_ROLE) as TurnRoleChoice[]).find((r) => SPEAKER_OF_ROLE[r] === speaker);
  return role === DEFAULT_TURN_ROLE ? undefined : role;
}

export const sessionViews = ['both', 'you', 'claude'] as const;
export const readers = ['conversation', 'raw'] as const;

export const sessionSearchSchema = z.object({
  /** The three-way toggle. */
  view: z.enum(sessionViews).optional().catch(undefined),
  /** Which reader shows `Both`. */
  reader: z.enum(readers).optional().catch(undefined),
  /** Transcript file within the session (`subagents/agent-….jsonl`); default the main one. */
  file: text(),
  /** Entry index to open at. */
  entry: index(),
  /** Search terms to highlight (arrival from search). */
  q: text(),
});
export type SessionSearch = z.infer<typeof sessionSearchSchema>;

export type SessionFilters = Pick<
  SessionListSearch,
  'cwd' | 'project' | 'model' | 'hostname' | 'source' | 'agent' | 'from' | 'to'
>;
export const filterKeys = ['cwd', 'project', 'model', 'hostname', 'source', 'agent', 'from', 'to'] as const;

/** Only the API filters of a search object, without undefined values (stable query keys). */
export function pickFilters(search: Partial<Record<string, unknown>>): SessionFilters {
  const out: SessionFilters = {};
  for (const k of filterKeys) {
    const v = search[k];
    if (typeof v === 'string' && v !== '') out[k] = v;
  }
  return out;
}

/** The list's filters (its order, `sort` and `dir`, is not one: it has no chip). */
type FilterKey = Exclude<keyof SessionListSearch, 'sort' | 'dir'>;

export interface FilterChip {
  key: FilterKey;
  label: string;
  value: string;
}

const CHIP_LABELS: Record<FilterKey, string> = {
  cwd: 'cwd',
  model: 'model',
  hostname: 'host',
  source: 'source',
  agent: 'agent',
  from: 'from',
  to: 'to',
  idPrefix: 'id',
  project: 'project',
  text: 'text',
  starred: 'starred',
  tag: 'tag',
  hasNote: 'note',
  hasSecrets: 'secrets',
};

/** One removable chip per active filter, in a fixed order. */
export function filterChips(search: Partial<SessionListSearch>): FilterChip[] {
  const order: FilterKey[] = [
    'text',
    'idPrefix',
    'project',
    'cwd',
    'model',
    'hostname',
    'source',
    'agent',
    'from',
    'to',
    'starred',
    'tag',
    'hasNote',
    'hasSecrets',
  ];
  const chips: FilterChip[] = [];
  for (const key of order) {
    const value = search[key];
    if (typeof value === 'string' && value !== '') chips.push({ key, label: CHIP_LABELS[key], value });
  }
  return chips;
}
