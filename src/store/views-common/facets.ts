/**
 * A facet's counts, the same on every engine: under every filter but the facet's own, in one
 * statement built over the engine's filter SQL (the engines differ only in how it binds).
 */
import type { SessionFilter } from '../contract.js';
import type { FacetAttribute } from './view-args.js';

/**
 * The filter a facet counts under: every filter but the facet's own attribute, so the model picker
 * under `model=x` still offers the other models (as Datasette's facets do).
 */
export function facetFilter(attribute: FacetAttribute, filter: SessionFilter = {}): SessionFilter {
  const { [attribute]: _own, ...others } = filter;
  return others;
}

/**
 * The facet query over the engine's filter SQL for `facetFilter(attribute, …)`, made on
 * `facetSessionColumn(attribute)`. A session counts once per model it used: the models' rows are
 * counted, each session's rollup row joined only when a condition reads it, so the unfiltered
 * count reads one table.
 */
export function facetSql(
  attribute: FacetAttribute,
  filter: { where: string[]; needsRollup: boolean },
): string {
  const model = attribute === 'model';
  const from = model
    ? `session_models m${filter.needsRollup ? ' JOIN session_rollup r ON r.session_id = m.session_id' : ''}`
    : 'session_rollup r';
  const column = model ? 'm.model' : `r.${attribute}`;
  const where = [...(model ? [] : [`${column} IS NOT NULL`]), ...filter.where];
  return `SELECT ${column} AS value, count(*) AS sessions FROM ${from}
    ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
    GROUP BY ${column} ORDER BY sessions DESC, value`;
}

/** The session id column `facetSql` filters on. */
export const facetSessionColumn = (attribute: FacetAttribute) =>
  attribute === 'model' ? 'm.session_id' : 'r.session_id';
