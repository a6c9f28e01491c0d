/**
 * Size caps for projected entries, so a full-content chunk of a few hundred lines stays small even
 * when a line carries a 160 KB tool result. Nothing is lost: the raw line stays reachable through
 * the entry's byte range. Caps count UTF-16 code units (JS string length) and never split a
 * surrogate pair.
 */

/** Cap for text, thinking, each tool result's content, and a tool input's JSON. */
export const FIELD_CAP = 16 * 1024;
/** Deeper tool-input structure than this is replaced by a marker (guards recursion on hostile input). */
const MAX_DEPTH = 64;
/** Successively shorter limits for the string members of an oversized tool input. */
const MEMBER_LIMITS = [2048, 512, 128, 32];

export interface Capped<T> {
  value: T;
  cut: boolean;
}

/** Cuts `s` to at most `max` code units, backing off one unit rather than halving a surrogate pair. */
export function cutString(s: string, max: number): string {
  if (s.length <= max) return s;
  let end = max;
  const last = s.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return s.slice(0, end);
}

export function capText(s: string, max = FIELD_CAP): Capped<string> {
  return s.length <= max ? { value: s, cut: false } : { value: cutString(s, max), cut: true };
}

/** JSON.stringify that reports failure (stack overflow on deep nesting) as undefined. */
export function safeStringify(v: unknown): string | undefined {
  try {
    return JSON.stringify(v);
  } catch {
    return undefined;
  }
}

/** Whether objects and arrays nest more than `limit` levels (looks no deeper than that). */
export function nestedDeeperThan(v: unknown, limit: number): boolean {
  if (v === null || typeof v !== 'object') return false;
  if (limit === 0) return true;
  for (const x of Array.isArray(v) ? v : Object.values(v)) if (nestedDeeperThan(x, limit - 1)) return true;
  return false;
}

function cutMembers(v: unknown, limit: number, depth: number): unknown {
  if (typeof v === 'string') return v.length > limit ? `${cutString(v, limit)}…` : v;
  if (v === null || typeof v !== 'object') return v;
  if (depth >= MAX_DEPTH) return '…';
  if (Array.isArray(v)) return v.map((x) => cutMembers(x, limit, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = cutMembers(x, limit, depth + 1);
  return out;
}

/**
 * A tool input whose JSON fits the cap is kept as is. A larger one gets its long string members
 * cut (file contents, patches, prompts), trying shorter limits until it fits; one that still does
 * not fit (thousands of small members) becomes the start of its JSON text, as a string.
 */
export function capToolInput(input: unknown, max = FIELD_CAP): Capped<unknown> {
  // Deep nesting is cut however small its JSON ("[[[…]]]"): what reads it later recurses.
  const deep = nestedDeeperThan(input, MAX_DEPTH);
  const json = deep ? undefined : safeStringify(input);
  if (json !== undefined && json.length <= max) return { value: input, cut: false };
  for (const limit of MEMBER_LIMITS) {
    const cut = cutMembers(input, limit, 0);
    const cutJson = safeStringify(cut);
    if (cutJson !== undefined && cutJson.length <= max) return { value: cut, cut: true };
  }
  return { value: json === undefined ? '…' : `${cutString(json, max)}…`, cut: true };
}
