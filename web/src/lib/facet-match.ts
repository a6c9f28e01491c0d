/**
 * Turns what someone typed after `model:`, `host:`, `source:` or `cwd:` into the exact value the
 * API filters on, using the facet values the API lists (`GET /api/facets/{attribute}`): an exact
 * value wins, then a case-insensitive exact one, then the unique value containing it
 * (`resolveFacet` ranks several by sessions, with the others as alternatives).
 *
 * `project:NAME` resolves the same way against the project names (the last segments of the
 * working directories the API lists, `projectFacets`) to the exact name the API's `project`
 * filter matches — every directory so named — on the list, search and activity alike. In the
 * omnibox (`resolveOmniboxFilters`) a name no directory matches is not applied, and a value that
 * matches several is never resolved to one of them: it is not applied, and the omnibox asks
 * which one, showing the candidates with their session counts.
 */
import { projectName as serverProjectName } from '../../../src/core/project-name.js';

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

/** The project name of a working directory, as the server derives it (a root directory: itself). */
export function projectOf(cwd: string): string {
  return serverProjectName(cwd) ?? cwd;
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

/**
 * The project names the working directories stand for (each one's last segment), with the
 * sessions of every directory so named added up: what `GET /api/sessions?project` matches.
 */
export function projectFacets(cwds: readonly FacetValue[]): FacetValue[] {
  const byName = new Map<string, number>();
  for (const c of cwds) {
    const name = projectOf(c.value);
    byName.set(name, (byName.get(name) ?? 0) + c.sessions);
  }
  return [...byName].map(([value, sessions]) => ({ value, sessions }));
}

/**
 * `project:x` → the exact project name to filter on: the name itself, else the one equal to it
 * case aside, else the one containing it (most sessions first, the others as alternatives).
 */
export function resolveProject(typed: string, cwds: readonly FacetValue[]): FacetResolution {
  return resolveFacet(typed, projectFacets(cwds));
}

/**
 * The name the API is asked for a `project` from the URL or the omnibox: the resolved project
 * name; the value as written when the directories are not known or none matches (the API then
 * matches it exactly, so a list says plainly that nothing matches).
 */
export function projectName(typed: string, cwds: readonly FacetValue[] | undefined): string {
  return (cwds && resolveProject(typed, cwds).value) || typed.trim();
}

/** The directories a project name (exact, as the API matches it) covers, most sessions first. */
export function projectDirs(name: string, cwds: readonly FacetValue[]): string[] {
  return [...cwds]
    .filter((v) => projectOf(v.value) === name)
    .sort((a, b) => b.sessions - a.sessions || a.value.localeCompare(b.value))
    .map((v) => v.value);
}

export type FacetLists = Partial<
  Record<'cwd' | 'model' | 'hostname' | 'source' | 'agent', readonly FacetValue[]>
>;

export interface ResolvedFilters {
  /** A project name as the API matches it (every directory whose last segment it is). */
  project?: string;
  cwd?: string;
  model?: string;
  hostname?: string;
  source?: string;
  agent?: string;
  from?: string;
  to?: string;
}

/** The operator a filter is typed with, as the omnibox names it. */
const OPERATOR_LABEL = {
  project: 'project',
  cwd: 'cwd',
  model: 'model',
  hostname: 'host',
  source: 'source',
  agent: 'agent',
};
const CANDIDATE_NOUN = {
  project: 'projects',
  cwd: 'directories',
  model: 'models',
  hostname: 'hosts',
  source: 'sources',
  agent: 'agents',
};

/** A typed value several facet values match: not applied, the omnibox asks which one. */
export interface Ambiguity {
  key: 'project' | 'cwd' | 'model' | 'hostname' | 'source' | 'agent';
  /** The value as typed. */
  typed: string;
  /** Every value it matches, most sessions first. */
  candidates: FacetValue[];
}

/** The problem line of an ambiguity: the candidates with their session counts. */
export function ambiguityProblem(a: Ambiguity): string {
  const shown = a.candidates
    .slice(0, 4)
    .map((c) => `${c.value} (${c.sessions})`)
    .join(', ');
  const more = a.candidates.length > 4 ? ', …' : '';
  return (
    `${OPERATOR_LABEL[a.key]}:${a.typed} matches ${a.candidates.length} ${CANDIDATE_NOUN[a.key]} ` +
    `(${shown}${more}); pick one: not applied`
  );
}

/** The facet values a resolution chose among, with their counts, in its order. */
function candidatesOf(r: FacetResolution, values: readonly FacetValue[]): FacetValue[] {
  const count = new Map(values.map((v) => [v.value, v.sessions]));
  return [r.value!, ...r.alternatives].map((value) => ({ value, sessions: count.get(value) ?? 0 }));
}

/**
 * The omnibox's filters as API filters: each typed value is resolved against its facet values
 * when they are known (typed as-is otherwise, so the list says plainly that nothing matches);
 * `project:` becomes the exact project name, for the list and for search alike. A value that
 * matches several values (`model:opus` with two Opus models, `cwd:/home` with four directories
 * under it) is never resolved to one of them: the API filters each attribute by one exact value,
 * so picking the busiest would be a silent guess. It is left out, listed in `ambiguous` with the
 * candidates and their counts for the omnibox to ask which one, and said in `problems`. `notes`
 * explain every value that was not taken literally and the directories a project covers.
 */
export function resolveOmniboxFilters(
  typed: {
    project?: string;
    cwd?: string;
    model?: string;
    hostname?: string;
    source?: string;
    agent?: string;
    from?: string;
    to?: string;
  },
  facets: FacetLists,
): { filters: ResolvedFilters; notes: string[]; problems: string[]; ambiguous: Ambiguity[] } {
  const filters: ResolvedFilters = {};
  const notes: string[] = [];
  const problems: string[] = [];
  const ambiguous: Ambiguity[] = [];
  const ask = (a: Ambiguity) => {
    ambiguous.push(a);
    problems.push(ambiguityProblem(a));
  };
  const one = (attr: 'cwd' | 'model' | 'hostname' | 'source' | 'agent', value: string, label: string) => {
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
    // Several match (an exact value never has alternatives): ask, never pick.
    if (r.alternatives.length > 0)
      return ask({ key: attr, typed: value, candidates: candidatesOf(r, values) });
    filters[attr] = r.value;
    if (r.value !== value) notes.push(`${label}:${value} → ${r.value}`);
  };
  const project = (typedName: string) => {
    const cwds = facets.cwd;
    if (!cwds) {
      // Unknown directories: the API matches the name as typed.
      filters.project = typedName;
      return;
    }
    const r = resolveProject(typedName, cwds);
    if (r.value === undefined) {
      problems.push(
        `project:${typedName}: ${r.note ?? `no value matches "${typedName}"`} (no directory's name is or contains it); not applied`,
      );
      return;
    }
    if (r.alternatives.length > 0)
      return ask({ key: 'project', typed: typedName, candidates: candidatesOf(r, projectFacets(cwds)) });
    filters.project = r.value;
    const dirs = projectDirs(r.value, cwds);
    const shown = dirs.slice(0, 3).join(', ') + (dirs.length > 3 ? ', …' : '');
    const covers = dirs.length === 1 ? shown : `${dirs.length} directories: ${shown}`;
    notes.push(
      r.value === typedName
        ? `project:${typedName} → ${covers}`
        : `project:${typedName} → ${r.value}; ${covers}`,
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
  if (typed.agent) one('agent', typed.agent, 'agent');
  if (typed.from) filters.from = typed.from;
  if (typed.to) filters.to = typed.to;
  return { filters, notes, problems, ambiguous };
}
