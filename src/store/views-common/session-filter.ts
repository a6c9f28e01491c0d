/**
 * `SessionFilter` → the values every engine compares, validated once so the filters mean the same
 * on every engine and in every query (session list, search, daily activity).
 */
import { MAX_TAGS, tagProblem } from '../../core/annotation-rules.js';
import { StoreInputError, type SessionFilter } from '../contract.js';

export interface FilterValues {
  cwd?: string;
  project?: string;
  hostname?: string;
  source?: string;
  agent?: string;
  /** Matches when any of a session's models equals it. */
  model?: string;
  /** Overlap of [first, last] activity with [fromMs, toMs]; either bound may be open. */
  fromMs?: number;
  toMs?: number;
  idPrefix?: string;
  /** Folded words, every one of which a session's `listText` must contain. */
  text?: string[];
  starred?: true;
  /** Tags every one of which a session must carry. */
  tags?: string[];
  hasNote?: true;
  hasSecrets?: true;
}

/** Whether the filter reads the `session_annotations` view. */
export function needsAnnotations(f: FilterValues): boolean {
  return f.starred === true || f.hasNote === true || (f.tags?.length ?? 0) > 0;
}

/** Whether the filter reads the `session_secrets` view. */
export function needsSecrets(f: FilterValues): boolean {
  return f.hasSecrets === true;
}

/** More words than anyone types: a bound on the conditions one filter adds. */
export const MAX_TEXT_WORDS = 32;

/** Case folded the one way both sides of the text filter are. */
const fold = (s: string) => s.toLowerCase();

/**
 * What the text filter looks in, kept on each rollup row: the title, project, working directory
 * and id, folded, one per line (no word spans two, since words hold no whitespace).
 */
export function listText(
  fields: { title: string | null; project: string | null; cwd: string | null },
  sessionId: string,
): string {
  return fold([fields.title ?? '', fields.project ?? '', fields.cwd ?? '', sessionId].join('\n'));
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/** Highest code point: `prefix + MAX_CHAR` bounds every id that starts with `prefix`. */
export const MAX_CHAR = '\u{10FFFF}';

export function filterValues(filter: SessionFilter): FilterValues {
  const out: FilterValues = {};
  const given = (v: string | undefined): v is string => typeof v === 'string' && v !== '';
  if (given(filter.cwd)) out.cwd = filter.cwd;
  if (given(filter.project)) out.project = filter.project;
  if (given(filter.hostname)) out.hostname = filter.hostname;
  if (given(filter.source)) out.source = filter.source;
  if (given(filter.agent)) out.agent = filter.agent;
  if (given(filter.model)) out.model = filter.model;
  if (given(filter.from)) out.fromMs = isoMs(filter.from, 'from');
  // A bare date as upper bound means the whole day, as a person reading "to 2025-07-01" expects.
  if (given(filter.to)) out.toMs = isoMs(filter.to, 'to') + (DATE_ONLY.test(filter.to) ? DAY_MS - 1 : 0);
  if (given(filter.idPrefix)) out.idPrefix = filter.idPrefix;
  if (given(filter.text)) {
    const words = [...new Set(fold(filter.text).split(/\s+/).filter(Boolean))];
    if (words.length > MAX_TEXT_WORDS)
      throw new StoreInputError(`text has ${words.length} words; at most ${MAX_TEXT_WORDS} are taken`);
    if (words.length > 0) out.text = words;
  }
  if (filter.starred === true) out.starred = true;
  if (filter.hasNote === true) out.hasNote = true;
  if (filter.hasSecrets === true) out.hasSecrets = true;
  if (filter.tags !== undefined) {
    if (!Array.isArray(filter.tags)) throw new StoreInputError('tags must be an array of tags');
    const tags = [...new Set(filter.tags)];
    for (const t of tags) {
      const p = tagProblem(t);
      if (p) throw new StoreInputError(p);
    }
    if (tags.length > MAX_TAGS) throw new StoreInputError(`at most ${MAX_TAGS} tags filter at once`);
    if (tags.length > 0) out.tags = tags;
  }
  return out;
}

function isoMs(value: string, name: string): number {
  const ms = Date.parse(value);
  if (!Number.isFinite(ms))
    throw new StoreInputError(`${name} must be an ISO 8601 timestamp, got "${value}"`);
  return ms;
}
