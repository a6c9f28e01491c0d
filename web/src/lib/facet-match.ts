/**
 * Turns what someone typed after `model:`, `host:` or `source:` into the exact value the API
 * filters on, using the facet values the API lists (`GET /api/facets/{attribute}`): an exact
 * value wins, then a case-insensitive exact one, then the unique value containing it; when several
 * contain it, the one with most sessions, with the others offered as alternatives.
 *
 * `project:NAME` is every working directory whose last segment is NAME (case-insensitively) — or,
 * when none is, every one whose last segment contains it (`projectDirs`). The session list takes
 * it as its own `project` parameter and shows the sessions of all those directories; search takes
 * one directory (`GET /api/search?cwd` is a single value), the one with most sessions, and says
 * so. A name no directory matches is not applied: it is reported as a problem.
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

/** `project:x` → the working directory to filter on (the one with most sessions). */
export function resolveProject(typed: string, cwds: readonly FacetValue[]): FacetResolution {
  return resolveFacet(typed, cwds, projectOf);
}

/**
 * Every directory `project:NAME` means, most sessions first: those whose last segment is NAME
 * (ignoring case), else those whose last segment contains it; none for a name nothing matches.
 */
export function projectDirs(name: string, cwds: readonly FacetValue[]): string[] {
  const n = name.trim().toLowerCase();
  if (!n) return [];
  const byCount = [...cwds].sort((a, b) => b.sessions - a.sessions || a.value.localeCompare(b.value));
  const exact = byCount.filter((v) => projectOf(v.value).toLowerCase() === n);
  const list = exact.length > 0 ? exact : byCount.filter((v) => projectOf(v.value).toLowerCase().includes(n));
  return list.map((v) => v.value);
}

export type FacetLists = Partial<Record<'cwd' | 'model' | 'hostname' | 'source', readonly FacetValue[]>>;

export interface ResolvedFilters {
  /** The session list's project (every directory it matches); search gets a `cwd` instead. */
  project?: string;
  cwd?: string;
  model?: string;
  hostname?: string;
  source?: string;
  from?: string;
  to?: string;
}

/**
 * The omnibox's filters as API filters: each typed value is resolved against its facet values
 * when they are known (typed as-is otherwise, so the list says plainly that nothing matches).
 * `project:` stays a project for the session list (`for: 'list'`, every matching directory) and
 * becomes the most-used matching `cwd` for search (`for: 'search'`). `notes` explain every value
 * that was not taken literally; `problems` name what is not applied (a project no directory
 * matches).
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
  target: 'list' | 'search' = 'list',
): { filters: ResolvedFilters; notes: string[]; problems: string[] } {
  const filters: ResolvedFilters = {};
  const notes: string[] = [];
  const problems: string[] = [];
  const one = (attr: 'cwd' | 'model' | 'hostname' | 'source', value: string, label: string) => {
    const values = facets[attr];
    if (!values) {
      filters[attr] = value;
      return;
    }
    const r = resolveFacet(value, values);
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
  const project = (name: string) => {
    const cwds = facets.cwd;
    if (!cwds) {
      // Unknown directories: the list resolves the name itself; search can only take it literally.
      if (target === 'list') filters.project = name;
      else filters.cwd = name;
      return;
    }
    const dirs = projectDirs(name, cwds);
    if (dirs.length === 0) {
      problems.push(`project:${name}: no directory's name is or contains "${name}"; not applied`);
      return;
    }
    const shown = (list: string[]) => list.slice(0, 3).join(', ') + (list.length > 3 ? ', …' : '');
    if (target === 'list') {
      filters.project = name;
      notes.push(
        dirs.length === 1
          ? `project:${name} → ${dirs[0]}`
          : `project:${name} → ${dirs.length} directories: ${shown(dirs)}`,
      );
      return;
    }
    filters.cwd = dirs[0];
    notes.push(
      dirs.length === 1
        ? `project:${name} → ${dirs[0]}`
        : `project:${name} → ${dirs[0]} (search takes one directory; also ${shown(dirs.slice(1))})`,
    );
  };
  if (typed.cwd) one('cwd', typed.cwd, 'cwd');
  if (typed.project) {
    if (typed.cwd) notes.push(`project:${typed.project} ignored: cwd: is given`);
    else project(typed.project);
  }
  if (typed.model) one('model', typed.model, 'model');
  if (typed.hostname) one('hostname', typed.hostname, 'host');
  if (typed.source) one('source', typed.source, 'source');
  if (typed.from) filters.from = typed.from;
  if (typed.to) filters.to = typed.to;
  return { filters, notes, problems };
}
