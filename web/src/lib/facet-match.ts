/**
 * Turns what someone typed after `model:`, `host:`, `source:` or `project:` into the exact value
 * the API filters on, using the facet values the API lists (`GET /api/facets/{attribute}`):
 * an exact value wins, then a case-insensitive exact one, then the unique value containing it;
 * when several contain it, the one with most sessions, with the others offered as alternatives.
 * `project:` names the last segment of a working directory, so it resolves against `cwd` values.
 */

export interface FacetValue {
  value: string;
  sessions: number;
}

export interface FacetResolution {
  /** The value to filter on; undefined when nothing matched. */
  value?: string;
  /** Other candidates, most sessions first. */
  alternatives: string[];
  /** How it was matched, in words, when not exact. */
  note?: string;
}

/** The project name of a working directory: its last path segment. */
export function projectOf(cwd: string): string {
  const parts = cwd.split(/[\\/]+/).filter(Boolean);
  return parts[parts.length - 1] ?? cwd;
}

/** Resolves a typed value against facet values; `key` maps a value to what is compared. */
export function resolveFacet(
  typed: string,
  values: readonly FacetValue[],
  key: (v: string) => string = (v) => v,
): FacetResolution {
  const t = typed.trim();
  if (!t) return { alternatives: [] };
  const byCount = [...values].sort((a, b) => b.sessions - a.sessions || a.value.localeCompare(b.value));
  const exact = byCount.filter((v) => key(v.value) === t);
  const lower = t.toLowerCase();
  const ci = exact.length > 0 ? exact : byCount.filter((v) => key(v.value).toLowerCase() === lower);
  const pick = (list: FacetValue[], note?: string): FacetResolution => ({
    value: list[0]!.value,
    alternatives: list.slice(1).map((v) => v.value),
    ...(note ? { note } : {}),
  });
  if (ci.length > 0) return pick(ci, ci.length > 1 ? `${ci.length} values match "${t}"` : undefined);
  const contains = byCount.filter((v) => key(v.value).toLowerCase().includes(lower));
  if (contains.length > 0)
    return pick(
      contains,
      contains.length > 1 ? `${contains.length} values contain "${t}"` : `"${t}" → ${contains[0]!.value}`,
    );
  return { alternatives: [], note: `no value matches "${t}"` };
}

/** `project:x` → the working directory to filter on. */
export function resolveProject(typed: string, cwds: readonly FacetValue[]): FacetResolution {
  return resolveFacet(typed, cwds, projectOf);
}

export type FacetLists = Partial<Record<'cwd' | 'model' | 'hostname' | 'source', readonly FacetValue[]>>;

export interface ResolvedFilters {
  cwd?: string;
  model?: string;
  hostname?: string;
  source?: string;
  from?: string;
  to?: string;
}

/**
 * The omnibox's filters as exact API filters: `project:` becomes a `cwd`, and each typed value is
 * resolved against its facet values when they are known (typed as-is otherwise, so the list says
 * plainly that nothing matches). `notes` explain every value that was not taken literally.
 */
export function resolveOmniboxFilters(
  typed: {
    project?: string;
    cwd?: string;
    model?: string;
    hostname?: string;
    source?: string;
    from?: string;
    to?: string;
  },
  facets: FacetLists,
): { filters: ResolvedFilters; notes: string[] } {
  const filters: ResolvedFilters = {};
  const notes: string[] = [];
  const one = (
    attr: 'cwd' | 'model' | 'hostname' | 'source',
    value: string,
    label: string,
    project = false,
  ) => {
    const values = facets[attr];
    if (!values) {
      filters[attr] = value;
      return;
    }
    const r = project ? resolveProject(value, values) : resolveFacet(value, values);
    if (r.value === undefined) {
      filters[attr] = value;
      notes.push(`${label}: ${r.note ?? `no value matches "${value}"`}`);
      return;
    }
    filters[attr] = r.value;
    if (r.value !== value)
      notes.push(
        `${label}:${value} → ${r.value}${r.alternatives.length ? ` (also ${r.alternatives.slice(0, 3).join(', ')})` : ''}`,
      );
  };
  if (typed.cwd) one('cwd', typed.cwd, 'cwd');
  if (typed.project) {
    if (typed.cwd) notes.push(`project:${typed.project} ignored: cwd: is given`);
    else one('cwd', typed.project, 'project', true);
  }
  if (typed.model) one('model', typed.model, 'model');
  if (typed.hostname) one('hostname', typed.hostname, 'host');
  if (typed.source) one('source', typed.source, 'source');
  if (typed.from) filters.from = typed.from;
  if (typed.to) filters.to = typed.to;
  return { filters, notes };
}
