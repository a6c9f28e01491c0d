/**
 * Which facts the rows of the session list show, and in what order: a preference of this browser
 * (localStorage under `transcripts.sessionColumns.v1`), not URL state. The status and the title
 * always show. Reading is forgiving: a missing, old, corrupt or hostile value reads as the
 * default, unknown fact names are ignored, and a fact added after the value was written appears
 * with its default visibility at its default place. The fact the list is sorted by always shows.
 */
import type { SessionSortKey } from './session-sort.js';

/** Every fact a row can show besides its status and title, in the default order. */
export const SESSION_FACTS = [
  'provenance',
  'project',
  'model',
  'host',
  'lastActivity',
  'startedAt',
  'runtime',
  'activeTime',
  'tokens',
  'cost',
  'entries',
] as const;
export type SessionFact = (typeof SESSION_FACTS)[number];

/** The facts on the line under the title, which can be reordered (the provenance chip sits beside the title). */
export type DetailFact = Exclude<SessionFact, 'provenance'>;
export const DETAIL_FACTS: readonly DetailFact[] = SESSION_FACTS.filter(
  (f): f is DetailFact => f !== 'provenance',
);

/** How the columns menu names each fact. */
export const FACT_LABELS: Record<SessionFact, string> = {
  provenance: 'Provenance (live / backfilled)',
  project: 'Project',
  model: 'Model',
  host: 'Host',
  lastActivity: 'Last activity',
  startedAt: 'Started',
  runtime: 'Runtime',
  activeTime: 'Active time',
  tokens: 'Tokens',
  cost: 'Cost',
  entries: 'Entries',
};

/**
 * Whether each fact shows when the person has not said (and for a fact newer than what they said).
 * The cost is hidden: many histories hold models without a price, whose cells would read `?`.
 */
export const DEFAULT_SHOWN: Record<SessionFact, boolean> = {
  provenance: true,
  project: true,
  model: true,
  host: true,
  lastActivity: true,
  startedAt: true,
  runtime: true,
  activeTime: true,
  tokens: true,
  cost: false,
  entries: true,
};

/** The fact each order of the list sorts by (their names are the same; the API has no cost order). */
export const SORTED_FACT: Record<SessionSortKey, DetailFact> = {
  lastActivity: 'lastActivity',
  startedAt: 'startedAt',
  runtime: 'runtime',
  tokens: 'tokens',
  entries: 'entries',
};

/** The person's choice: the detail facts in order (all of them) and whether each fact shows. */
export interface SessionColumns {
  readonly order: readonly DetailFact[];
  readonly shown: Readonly<Record<SessionFact, boolean>>;
}

export const DEFAULT_COLUMNS: SessionColumns = { order: DETAIL_FACTS, shown: DEFAULT_SHOWN };

/** The localStorage key; a new layout of the value gets a new version rather than a guess. */
export const COLUMNS_KEY = 'transcripts.sessionColumns.v1';

const isFact = (x: unknown): x is SessionFact =>
  typeof x === 'string' && (SESSION_FACTS as readonly string[]).includes(x);
const isDetailFact = (x: unknown): x is DetailFact => isFact(x) && x !== 'provenance';

/**
 * `given` (known, unique detail facts) completed with the ones it lacks, each placed after the
 * fact that precedes it in the default order (first when none of those is placed).
 */
function completeOrder(given: readonly DetailFact[]): DetailFact[] {
  const out = [...given];
  DETAIL_FACTS.forEach((f, i) => {
    if (out.includes(f)) return;
    const before = DETAIL_FACTS.slice(0, i)
      .reverse()
      .find((p) => out.includes(p));
    out.splice(before === undefined ? 0 : out.indexOf(before) + 1, 0, f);
  });
  return out;
}

export function isDefaultColumns(c: SessionColumns): boolean {
  return (
    c.order.every((f, i) => f === DETAIL_FACTS[i]) &&
    SESSION_FACTS.every((f) => c.shown[f] === DEFAULT_SHOWN[f])
  );
}

/**
 * How many facts the person hid of those shown by default (the Columns button says it): a fact
 * hidden by default, such as the cost, is not counted, so the default reads as nothing hidden.
 */
export function hiddenCount(c: SessionColumns): number {
  return SESSION_FACTS.filter((f) => DEFAULT_SHOWN[f] && !c.shown[f]).length;
}

/** The stored value read as columns; anything unexpected falls back to the default, field by field. */
export function parseColumns(raw: string | null | undefined): SessionColumns {
  if (!raw) return DEFAULT_COLUMNS;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return DEFAULT_COLUMNS;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return DEFAULT_COLUMNS;
  const { order, shown } = value as { order?: unknown; shown?: unknown };
  const given = Array.isArray(order) ? [...new Set(order.filter(isDetailFact))] : [];
  const said =
    shown && typeof shown === 'object' && !Array.isArray(shown) ? (shown as Record<string, unknown>) : {};
  const columns: SessionColumns = {
    order: completeOrder(given),
    shown: Object.fromEntries(
      SESSION_FACTS.map((f) => {
        const v = Object.hasOwn(said, f) ? said[f] : undefined;
        return [f, typeof v === 'boolean' ? v : DEFAULT_SHOWN[f]];
      }),
    ) as Record<SessionFact, boolean>,
  };
  return isDefaultColumns(columns) ? DEFAULT_COLUMNS : columns;
}

/** The value stored: every fact known now, so a fact added later is recognisable as new. */
export function serializeColumns(c: SessionColumns): string {
  return JSON.stringify({ order: c.order, shown: c.shown });
}

/** Reads the preference from storage; a missing, refusing or corrupt storage reads as the default. */
export function readColumns(storage: Pick<Storage, 'getItem'> | undefined): SessionColumns {
  try {
    return parseColumns(storage?.getItem(COLUMNS_KEY));
  } catch {
    return DEFAULT_COLUMNS;
  }
}

/**
 * Stores the preference (the default as no value at all); false when the storage refuses (private
 * mode, quota), so the caller can keep the choice for the page instead.
 */
export function writeColumns(
  storage: Pick<Storage, 'setItem' | 'removeItem'> | undefined,
  c: SessionColumns,
): boolean {
  if (!storage) return false;
  try {
    if (isDefaultColumns(c)) storage.removeItem(COLUMNS_KEY);
    else storage.setItem(COLUMNS_KEY, serializeColumns(c));
    return true;
  } catch {
    return false;
  }
}

export function setFactShown(c: SessionColumns, fact: SessionFact, shown: boolean): SessionColumns {
  return { order: c.order, shown: { ...c.shown, [fact]: shown } };
}

/** Moves a detail fact one place earlier (-1) or later (+1); at an end it stays. */
export function moveFact(c: SessionColumns, fact: DetailFact, by: -1 | 1): SessionColumns {
  const i = c.order.indexOf(fact);
  const j = i + by;
  if (i < 0 || j < 0 || j >= c.order.length) return c;
  const order = [...c.order];
  [order[i], order[j]] = [order[j]!, order[i]!];
  return { order, shown: c.shown };
}

/** The fact the list is sorted by when the person hid it: it shows anyway. Null otherwise. */
export function forcedFact(c: SessionColumns, sortedBy: SessionSortKey | null): DetailFact | null {
  if (sortedBy === null) return null;
  const f = SORTED_FACT[sortedBy];
  return c.shown[f] ? null : f;
}

/**
 * The facts a row shows, in order: those shown, plus the one the list is sorted by (at its place)
 * whatever the choice. `sortedBy` null: a list with no order of its own (the calendar's day).
 */
export function rowFacts(c: SessionColumns, sortedBy: SessionSortKey | null): SessionFact[] {
  const forced = forcedFact(c, sortedBy);
  return [
    ...(c.shown.provenance ? (['provenance'] as const) : []),
    ...c.order.filter((f) => c.shown[f] || f === forced),
  ];
}
